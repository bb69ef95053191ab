// @variation twoface
// @id 1077
// @origin Fractorium 1.0
// spherical on the right half plane (x > 0), linear on the left.
FJ_VARIATION(twoface) {
    const float s = in.x > 0.0f ? w / in.r2 : w;
    ox += s * in.x;
    oy += s * in.y;
}
