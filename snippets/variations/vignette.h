// @variation vignette
// @id 1139
// @origin Fractorium 1.0
// @param vignette_posx 0
// @param vignette_posy 0
// @param vignette_inner_radius 0.5
// @param vignette_fade_radius 0.5
// @param vignette_power 4
// @param vignette_blur 1
// @random 3
// A soft-edged disc about (posx, posy). Points within |inner_radius| are
// kept (sent to 0 instead when inner_radius is negative). Beyond it, with d
// the distance past the inner circle in units of |fade_radius|, f = 1 −
// u^(1/|power|) (u uniform) is drawn and the point is dropped to 0 when
// f < d: it is kept with probability (1 − d)^|power|, none beyond d = 1.
// A negative fade_radius inverts the fade: dropped when 1 − f > d, kept
// with probability d^|power|, always beyond d = 1. A kept point is blurred
// by blur·(d·v)² in a uniform direction (v uniform). Times the weight.
// fade_radius and power below 1e-6 in size become float epsilon (signed),
// as Fractorium's non-zero parameters do. The three numbers are drawn for
// every point beyond the inner circle.
FJ_VARIATION(vignette) {
    const float dx = in.x - p[0], dy = in.y - p[1];
    const float dist = sqrtf(dx * dx + dy * dy);
    const float inner = fabsf(p[2]);
    float x = in.x, y = in.y;
    if (dist < inner) {
        if (p[2] < 0.0f) return;
    } else {
        float fr = p[3], pw = p[4];
        if (fabsf(fr) < 1e-6f) fr = fr < 0.0f ? -FJ_FLT_EPSILON : FJ_FLT_EPSILON;
        if (fabsf(pw) < 1e-6f) pw = pw < 0.0f ? -FJ_FLT_EPSILON : FJ_FLT_EPSILON;
        const float d = (dist - inner) / fabsf(fr);
        const float fade = 1.0f - fj::power(fj::rand01(rng), 1.0f / fabsf(pw));
        const float dv = d * fj::rand01(rng);
        const float blur_r = p[5] * dv * dv;
        const float blur_a = fj::rand01(rng) * FJ_2PI;
        if (fr > 0.0f ? fade < d : 1.0f - fade > d) {
            x = 0.0f;
            y = 0.0f;
        } else {
            x += blur_r * fj::cosine(blur_a);
            y += blur_r * fj::sine(blur_a);
        }
    }
    ox += w * x;
    oy += w * y;
}
