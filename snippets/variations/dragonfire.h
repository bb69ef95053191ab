// @variation dragonfire
// @id 1228
// @origin Fractorium 1.0
// @param dragonfire_c1 0.5
// @param dragonfire_c2 0.25
// @param dragonfire_fuzzyMode 0
// @param dragonfire_fuzzyRadius 1
// @param dragonfire_fuzzyInterpolationMode 0
// @param dragonfire_fuzzyInterpolationPosition 1
// @param dragonfire_logScalarFuzzy 6.283185307179586
// @param dragonfire_adjustedFuzzyScalar 0.5
// A bipolar-like map: with E = c1·eˣ and F = c2/E, the point goes to
// w·(E − F, sin y)/(E + F − cos y) (at c1 = 1/2, c2 = 1/4, w·coth(z̄/2):
// (sinh x, sin y)/(cosh x − cos y)). fuzzyMode (held to [0, 7],
// compared as a real number) from 1 on adds a fuzz worked out per
// coordinate from f = cos(logScalarFuzzy/ln|v|), v the mapped coordinate:
// 1 adds f; 2 and 3 multiply by sin f and by e^(sin f); 4 adds ±radius
// (the sign of f); 5 adds e^(±radius); 6 and 7 add e^(sin(±radius)) to x and
// e^(cos(±radius)) to y. The weight is in the mapped point but not in what
// the fuzz adds. fuzzyInterpolationMode (held to [0, 6]) from 1 on blends
// the mapped point and the fuzzed one, by position t from modes 1 to 2 and
// from 2 on by (1 − g)·adjustedFuzzyScalar with g = cos, tan, sinh (modes
// 2, 3, 4) or asinh (5 and 6) of π·t; mode 0 keeps the fuzzed point. x is
// held to [−80, 80] first: beyond that float's eˣ overflows (NaN in
// Fractorium's float build) while the map has reached its limit to float
// precision, unless c1 or c2 is extreme.
FJ_VARIATION(dragonfire) {
    const float x = fminf(fmaxf(in.x, -80.0f), 80.0f);
    const float e = expf(x) * p[0];
    const float f = p[1] / fj::zeps(e);
    const float r = w / fj::zeps(e + f - fj::cosine(in.y));
    const float mx = (e - f) * r, my = fj::sine(in.y) * r;
    const float mode = fminf(fmaxf(p[2], 0.0f), 7.0f);
    if (mode < 1.0f) {
        ox += mx;
        oy += my;
        return;
    }
    const float fzx = fj::cosine(p[6] / fj::zeps(logf(fabsf(mx))));
    const float fzy = fj::cosine(p[6] / fj::zeps(logf(fabsf(my))));
    const float rx = fzx < 0.0f ? -p[3] : p[3], ry = fzy < 0.0f ? -p[3] : p[3];
    float gx, gy;
    if (mode < 2.0f) {
        gx = mx + fzx;
        gy = my + fzy;
    } else if (mode < 3.0f) {
        gx = mx * fj::sine(fzx);
        gy = my * fj::sine(fzy);
    } else if (mode < 4.0f) {
        gx = mx * expf(fj::sine(fzx));
        gy = my * expf(fj::sine(fzy));
    } else if (mode < 5.0f) {
        gx = mx + rx;
        gy = my + ry;
    } else if (mode < 6.0f) {
        gx = mx + expf(rx);
        gy = my + expf(ry);
    } else {
        gx = mx + expf(fj::sine(rx));
        gy = my + expf(fj::cosine(ry));
    }
    const float blend = fminf(fmaxf(p[4], 0.0f), 6.0f), t = p[5];
    if (blend < 1.0f) {
        ox += gx;
        oy += gy;
        return;
    }
    float v = t;
    if (blend >= 2.0f) {
        const float a = t * FJ_PI;
        float g;
        if (blend < 3.0f) {
            g = fj::cosine(a);
        } else if (blend < 4.0f) {
            g = fj::tangent(a);
        } else if (blend < 5.0f) {
            float c;
            fj::sinh_cosh(a, g, c);
        } else {
            g = asinhf(a);
        }
        v = (1.0f - g) * p[7];
    }
    ox += mx * (1.0f - v) + gx * v;
    oy += my * (1.0f - v) + gy * v;
}
