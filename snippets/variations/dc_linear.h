// @variation dc_linear
// @id 1016
// @origin Fractorium 1.0
// @param dc_linear_offset 0
// @param dc_linear_angle 0
// @param dc_linear_scale 1
// @color
// @reads sum
// linear, colouring by where the xform's sum stands once this use is added:
// its offset along the direction `angle` (radians), over `scale` (1e-5 when
// 0), plus `offset`, mapped from [-1, 1] onto [0, 1] and wrapped into
// [0, 1) by magnitude.
FJ_VARIATION(dc_linear) {
    const float scale = p[2] == 0.0f ? 1e-5f : p[2];
    ox += w * in.x;
    oy += w * in.y;
    const float along = fj::cosine(p[1]) * ox + fj::sine(p[1]) * oy + p[0];
    color = fj::modulo(fabsf(0.5f * (along / scale + 1.0f)), 1.0f);
}
