// @variation ripple
// @id 1075
// @origin Fractorium 1.0
// @param ripple_frequency 2
// @param ripple_velocity 1
// @param ripple_amplitude 0.5
// @param ripple_centerx 0
// @param ripple_centery 0
// @param ripple_phase 0
// @param ripple_scale 1
// A cosine wave travelling out from a centre: the scaled point moves along
// the line from the centre by one of two wave offsets, blended by the phase
// (2π·phase − π, so the blend is not confined to [0, 1]). Its "distance"
// is |x·y| from the centre (the square root of the product of the squares,
// as Fractorium computes it), at least float's epsilon, and the picture
// depends on that.
FJ_VARIATION(ripple) {
    const float scale = fj::zeps(p[6]);
    const float phase = p[5] * FJ_2PI - FJ_PI, amp = 0.01f * p[2];
    const float cx = p[3], cy = p[4];
    const float x = in.x * scale - cx, y = in.y * scale + cy;
    const float d = fmaxf(FJ_FLT_EPSILON, sqrtf((x * x) * (y * y)));
    const float wave = fj::cosine(5.0f * p[0] * d - p[1] * phase);
    // The blend of (cx + n·d1, −cy + n·d1) and the same with d2, d1 = d +
    // wave·phase·amp and d2 = d + wave·(π − phase)·amp, divided by scale,
    // n = (x, y)/d. The centre plus n·d is the scaled point again, so the
    // blend is the point plus n·shift/scale, shift = d1 − d + (d2 − d1)·phase:
    // written so, as Fractorium's order would cancel the centre against the
    // shifted point in float and divide what rounding leaves by the scale
    // (8e6 times at its floor, epsilon).
    const float shift = wave * amp * (phase + (FJ_PI - 2.0f * phase) * phase);
    ox += w * (in.x + x / d * shift / scale);
    oy += w * (in.y + y / d * shift / scale);
}
