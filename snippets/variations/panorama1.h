// @variation panorama1
// @id 1190
// @origin Fractorium 1.0
// The plane as a panorama seen from the point one unit above the origin:
// x becomes the bearing, atan2(x, y)/π (from the +y axis, −1 to 1), and y
// the sine of the angle down from the vertical, r/√(r² + 1), less 1/2;
// both times the weight. As a post_ use Fractorium reads the bearing from
// the xform's pre-affine point rather than from the post's input; here it
// is always the input's.
FJ_VARIATION(panorama1) {
    ox += w * in.theta * (1.0f / FJ_PI);
    oy += w * (in.r / sqrtf(in.r2 + 1.0f) - 0.5f);
}
