// @variation coswrap
// @id 1064
// @origin Fractorium 1.0
// @param coswrap_repeat 1
// @param coswrap_amount_x 0
// @param coswrap_amount_y 0
// @param coswrap_phase_x 0
// @param coswrap_phase_y 0
// Each coordinate, mapped from [-1, 1] to [0, 1], is blended towards a
// raised cosine of itself and then towards the raised cosine of its
// fractional part after `repeat` copies, by a blend that itself follows a
// raised cosine of `amount`; the result is mapped back as 2·weight·v − 1
// (the −1 is not weighted, as in Fractorium). repeat is a whole number other
// than 0; the phases are in half turns, wrapped into [-1, 1].
FJ_HD FJ_INLINE float fj_coswrap_raised(float v, float phase) {
    return 0.5f - 0.5f * fj::cosine(v + phase);
}

FJ_HD FJ_INLINE float fj_coswrap_axis(float v, float repeat, float amount, float phase) {
    const float u = 0.5f * v + 0.5f;
    const float copies = repeat * u;
    const float frac = copies - truncf(copies);
    const float blend = fj_coswrap_raised(amount, phase);
    const float once = u + (fj_coswrap_raised(4.0f * u, phase) - u) * blend;
    return once + (fj_coswrap_raised(4.0f * frac, phase) - once) * blend;
}

FJ_VARIATION(coswrap) {
    float repeat = floorf(p[0] + 0.5f);
    if (repeat == 0.0f) repeat = p[0] < 0.0f ? -1.0f : 1.0f;
    repeat = fabsf(repeat);
    const float px = FJ_PI * fj::wrap_cyclic(p[3], -1.0f, 1.0f);
    const float py = FJ_PI * fj::wrap_cyclic(p[4], -1.0f, 1.0f);
    ox += 2.0f * w * fj_coswrap_axis(in.x, repeat, p[1], px) - 1.0f;
    oy += 2.0f * w * fj_coswrap_axis(in.y, repeat, p[2], py) - 1.0f;
}
