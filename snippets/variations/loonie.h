// @variation loonie
// @id 66
// @origin flam3 3.1.1
// flam3 uses the weight inside the formula here.
FJ_VARIATION(loonie) {
    const float w2 = w * w;
    const float k = in.r2 < w2 ? w * sqrtf(w2 / in.r2 - 1.0f) : w;
    ox += k * in.x;
    oy += k * in.y;
}
