// @variation panorama2
// @id 1191
// @origin Fractorium 1.0
// panorama1 with r/(r + 1) for the height: x becomes the bearing
// atan2(x, y)/π (from the +y axis, −1 to 1) and y becomes r/(r + 1) − 1/2,
// both times the weight. As a post_ use Fractorium reads the bearing from
// the xform's pre-affine point rather than from the post's input; here it
// is always the input's.
FJ_VARIATION(panorama2) {
    ox += w * in.theta * (1.0f / FJ_PI);
    oy += w * (in.r / (in.r + 1.0f) - 0.5f);
}
