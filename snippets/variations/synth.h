// @variation synth
// @id 1244
// @origin Fractorium 1.0
// @param synth_a 0
// @param synth_mode 3
// @param synth_power -2
// @param synth_mix 0
// @param synth_smooth 0
// @param synth_b 0
// @param synth_b_type 0
// @param synth_b_skew 0
// @param synth_b_frq 1
// @param synth_b_phs 0
// @param synth_b_layer 0
// @param synth_c 0
// @param synth_c_type 0
// @param synth_c_skew 0
// @param synth_c_frq 1
// @param synth_c_phs 0
// @param synth_c_layer 0
// @param synth_d 0
// @param synth_d_type 0
// @param synth_d_skew 0
// @param synth_d_frq 1
// @param synth_d_phs 0
// @param synth_d_layer 0
// @param synth_e 0
// @param synth_e_type 0
// @param synth_e_skew 0
// @param synth_e_frq 1
// @param synth_e_phs 0
// @param synth_e_layer 0
// @param synth_f 0
// @param synth_f_type 0
// @param synth_f_skew 0
// @param synth_f_frq 1
// @param synth_f_phs 0
// @param synth_f_layer 0
// @random 4
// A synthesiser of shapes: one of 27 modes (spherical, bubble, blurs,
// shifts, mirrors, swirl, julia, disc, ...) reshaped by S(t), a sum of up
// to five waves b..f of t (Fractorium's mode numbers; mode, smooth, the
// wave types and layers are whole numbers, rounded and clamped as
// Fractorium's integer parameters are). Each wave with a non-zero amplitude
// takes the phase (phs + frq·t)/2π into [0, 1), skews it about
// (1 + skew)/2, shapes it (sine, cosine, square, saw, triangle, concave,
// convex, n-gon, inverse n-gon) and layers it onto a (add, multiply, max,
// min); S = mix·that + 1 − mix. smooth 0 scales a radius by S, 1 bends it
// by a quadratic Bezier map; for the sine-cosine modes smooth 0 multiplies
// sin and cos by S (at t and t + π/2), 1 mixes S − 1 into them. As
// Fractorium computes it; its legacy blur draws four numbers.

// S(t): the waves b..f (p + 5 + 6k: amplitude, type, skew, frequency,
// phase, layer) layered onto a, mixed. Out of line: inlined at its two
// calls it made a two-xform genome's kernel take 320 ms to compile for
// sm_90 on two cores instead of 280 (a plain one of the same shape: 106).
static FJ_HD FJ_NOINLINE float fj_synth_value(const float* p, float t) {
    const float a = p[0], mix = p[3];
    float f = a;
    for (int k = 0; k < 5; ++k) {
        const float* wave = p + 5 + 6 * k;
        const float amp = wave[0], skew = wave[2], frq = wave[3];
        if (amp == 0.0f) continue;
        float y = (wave[4] + t * frq) / FJ_2PI;
        y -= floorf(y);
        if (skew != 0.0f) {
            const float mid = 0.5f + 0.5f * skew;
            y = y > mid ? 0.5f + 0.5f * (y - mid) / fj::zeps(1.0f - mid) : 0.5f - 0.5f * (mid - y) / fj::zeps(mid);
        }
        float v;
        switch ((int)fj::integer_param(wave[1], 0.0f, 8.0f)) {
        case 0: v = fj::sine(y * FJ_2PI); break;
        case 1: v = fj::cosine(y * FJ_2PI); break;
        case 2: v = y > 0.5f ? 1.0f : -1.0f; break;
        case 3: v = 1.0f - 2.0f * y; break;
        case 4: v = y > 0.5f ? 3.0f - 4.0f * y : 2.0f * y - 1.0f; break;
        case 5: v = 8.0f * (y - 0.5f) * (y - 0.5f) - 1.0f; break;
        case 6: v = 2.0f * sqrtf(y) - 1.0f; break;
        case 7: v = 1.0f / fj::zeps(fj::cosine((y - 0.5f) * (FJ_2PI / frq))) - 1.0f; break;
        default: {
            const float c = fj::cosine((y - 0.5f) * (FJ_2PI / frq));
            v = c / fj::zeps(1.0f - c);
        }
        }
        const int layer = (int)fj::integer_param(wave[5], 0.0f, 3.0f);
        if (layer == 0) {
            f += amp * v;
        } else if (layer == 1) {
            f *= 1.0f + amp * v;
        } else {
            const float z = a + amp * v;
            f = layer == 2 ? (f > z ? f : z) : (f < z ? f : z);
        }
    }
    return f * mix + (1.0f - mix);
}

// x bent by m: a quadratic Bezier curve through (0, 0) and (1, m) that
// meets y = x again at max(1/m, 2m), odd in x and m.
FJ_HD FJ_INLINE float fj_synth_bezier(float x, float m) {
    float sign = 1.0f;
    if (m < 0.0f) {
        m = -m;
        sign = -1.0f;
    }
    if (x < 0.0f) {
        x = -x;
        sign = -sign;
    }
    const float im = m > 1e-10f ? 1.0f / m : 1e10f;
    const float rejoin = im < 2.0f * m ? 2.0f * m : im;
    if (x > rejoin || m == 1.0f) return sign * x;
    if (x <= 1.0f && (m < 1.0f || m > 1.0f)) {
        // Control points (0, 0), (m, m), (1, m) below m = 1; (0, 0), (1/m, 1/m), (1, m) above.
        const float c = m < 1.0f ? m : im;
        float t = x;
        if (fabsf(m - (m < 1.0f ? 0.5f : 2.0f)) > 1e-10f)
            t = (-c + sqrtf(c * c + (1.0f - 2.0f * c) * x)) / (1.0f - 2.0f * c);
        return sign * (x + (m - 1.0f) * t * t);
    }
    if (m < 1.0f) {
        const float t = sqrtf((x - 1.0f) / (rejoin - 1.0f));
        return sign * (x + (m - 1.0f) * t * t + 2.0f * (1.0f - m) * t + (m - 1.0f));
    }
    const float t = (1.0f - m) + sqrtf((m - 1.0f) * (m - 1.0f) + (x - 1.0f));
    return sign * (x + (m - 1.0f) * t * t - 2.0f * (m - 1.0f) * t + (m - 1.0f));
}

FJ_HD FJ_INLINE float fj_synth_interpolate(float x, float m, int smooth) {
    return smooth == 0 ? x * m : fj_synth_bezier(x, m);
}

FJ_VARIATION(synth) {
    const int mode = (int)fj::integer_param(p[1], 0.0f, 26.0f);
    const int smooth = (int)fj::integer_param(p[4], 0.0f, 1.0f);
    const float power = p[2], mix = p[3];
    const float x = in.x, y = in.y;
    // The modes in three steps, so that S, the power and the sine and
    // cosine each have one or two places in the code: the radius and the
    // arguments of S (t, and u where a mode reads S twice), then S, then
    // the point.
    float t = in.theta, u = 0.0f, v = 0.0f, rad = 0.0f;
    float base = in.r2, expo = 0.5f * power;  // rad = base^expo, unless another way below
    bool powered = true;
    switch (mode) {
    case 0: expo = 0.5f * (power + 1.0f); break;
    case 1: powered = false; rad = in.r / (in.r2 * 0.25f + 1.0f); break;
    case 2: {
        const float u1 = fj::rand01(rng), u2 = fj::rand01(rng), u3 = fj::rand01(rng);
        v = (u1 + u2 + 0.002f * u3) / 2.002f;  // the blur's radius; rad its power
        t = FJ_2PI * fj::rand01(rng) - FJ_PI;
        base = v * v;
        break;
    }
    case 3: {
        const float u1 = fj::rand01(rng), u2 = fj::rand01(rng);
        const float r = 0.5f * (u1 + u2);
        t = FJ_2PI * fj::rand01(rng) - FJ_PI;
        base = r * r;
        expo = -0.5f * power;
        break;
    }
    case 4: {
        powered = false;
        const float u1 = fj::rand01(rng), u2 = fj::rand01(rng);
        v = 1.0f + 0.1f * (u1 + u2 - 1.0f) * power;
        t = 2.0f * asinf((fj::rand01(rng) - 0.5f) * 2.0f);
        break;
    }
    case 5: case 26: powered = false; rad = in.r; break;
    case 6: case 9: powered = false; t = y; break;
    case 7: case 10: case 24: powered = false; t = x; break;
    case 8: case 11: case 12: case 25: powered = false; t = y; u = x; break;
    case 15:
        expo = 0.25f * power;
        t = in.theta * 0.5f;
        if (fj::rand01(rng) < 0.5f) t += FJ_PI;
        break;
    case 17: {
        powered = false;
        const float mu = fj::zeps(power * power);
        rad = in.r;
        rad += -2.0f * mu * (float)fj::int_like_x86((rad + mu) / (2.0f * mu)) + rad * (1.0f - mu);
        t = rad;
        break;
    }
    case 19: {
        powered = false;
        const float u1 = fj::rand01(rng), u2 = fj::rand01(rng);
        rad = 1.0f + 0.1f * (u1 + u2 - 1.0f) * power;
        t = FJ_2PI * fj::rand01(rng) - FJ_PI;
        break;
    }
    case 20:
        t = FJ_2PI * fj::rand01(rng) - FJ_PI;
        base = fj::rand01(rng);
        expo = power;
        break;
    default: break;  // 13, 14, 16, 18, 21, 22, 23: |p|^power
    }
    if (powered) rad = fj::power(fj::zeps(base), expo);
    if (mode == 13 || (mode >= 21 && mode <= 23)) t = rad;  // swirl, and the shifts by S of the radius
    else if (mode == 16) t = FJ_PI * rad;
    else if (mode == 18) t = x;
    if (mode >= 13 && mode <= 18) u = t + FJ_PI_2;  // the sine-cosine modes: S at t and t + π/2
    const bool twice = (mode >= 8 && mode <= 18 && mode != 9 && mode != 10) || mode == 25;
    const float st = fj_synth_value(p, t), su = twice ? fj_synth_value(p, u) : 0.0f;
    // One sine and cosine: of t, of the angle shifted by S (21, 22) or of the
    // angle (23); sinusoidal's of x (and y below).
    const float ang = mode == 21 || mode == 22 ? in.theta - 1.0f + st : mode == 23 ? in.theta : mode == 12 ? x : t;
    float s = fj::sine(ang), c = fj::cosine(ang);
    // S applied to one value (two for rawxy) by the smoothing: the radius,
    // zigzag's height, or a coordinate.
    const float bent = fj_synth_interpolate(mode == 4 ? v : mode == 6 || mode == 8 ? x : mode == 7 ? y : rad, st, smooth);
    const float bent_y = mode == 8 ? fj_synth_interpolate(y, su, smooth) : 0.0f;
    float ax, ay;  // the point before the weight
    switch (mode) {
    case 2: ax = v * s * bent; ay = v * c * bent; break;
    case 4: ax = t / FJ_PI; ay = bent - 1.0f; break;
    case 6: ax = bent; ay = y; break;
    case 7: ax = x; ay = bent; break;
    case 8: ax = bent; ay = bent_y; break;
    case 9: ax = x + st - 1.0f; ay = y; break;
    case 10: ax = x; ay = y + st - 1.0f; break;
    case 11: ax = x + st - 1.0f; ay = y + su - 1.0f; break;
    case 12:
        ax = su - 1.0f + (1.0f - mix) * s;
        ay = st - 1.0f + (1.0f - mix) * fj::sine(y);
        break;
    case 13: case 14: case 15: case 16: case 17: case 18: {
        if (smooth == 0) {
            s *= st;
            c *= su;
        } else {
            s = (1.0f - mix) * s + (st - 1.0f);
            c = (1.0f - mix) * c + (su - 1.0f);
        }
        if (mode == 13) {
            ax = s * x - c * y;
            ay = c * x + s * y;
        } else if (mode == 14) {
            ax = s / rad;
            ay = c * rad;
        } else if (mode == 15) {
            ax = rad * c;
            ay = rad * s;
        } else if (mode == 18) {
            ax = rad * s;
            ay = rad * y;
        } else {  // disc, rings: the angle over π (disc) or the angle (rings) as the radius
            const float a = mode == 16 ? in.theta / FJ_PI : in.theta;
            ax = s * a;
            ay = c * a;
        }
        break;
    }
    case 20: ax = (st + 0.1f * rad) * s; ay = (st + 0.1f * rad) * c; break;
    case 23: ax = x + (st - 1.0f) * c; ay = y - (st - 1.0f) * s; break;
    case 24: ax = x; ay = 2.0f * (st - 1.0f) - y; break;
    case 25: ax = 2.0f * (st - 1.0f) - x; ay = 2.0f * (su - 1.0f) - y; break;
    default: {
        // 0, 1, 3, 5, 19: a radius scaled by S; 26: then raised to the
        // power; 21, 22: the radius along the shifted angle.
        float r = mode == 21 || mode == 22 ? rad : bent;
        if (mode == 26) r = fj::power(r, power);
        ax = r * s;
        ay = r * c;
    }
    }
    ox += w * ax;
    oy += w * ay;
}
