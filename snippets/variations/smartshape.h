// @variation smartshape
// @id 1167
// @origin Fractorium 1.0
// @param smartshape_power 4
// @param smartshape_roundstr 0
// @param smartshape_roundwidth 1
// @param smartshape_distortion 1
// @param smartshape_compensation 0
// Circles to regular polygons: the plane is cut into `power` sectors of
// angle α = 2π/power (power kept at least 2, as Fractorium bounds it), and
// a point at angle ξ·α from its sector's middle line (|ξ| ≤ 1/2) has its
// radius multiplied by sec(ξα)^distortion, which maps circles onto the
// polygon. roundstr blends the secant towards 1 near the corners (weight
// roundstr·(2ξ)^roundwidth·2/(power·sin(α/2))), rounding them. With
// compensation on (above 0) and distortion at least 1, ξ is first replaced
// by atan(2·tan(α/2)·ξ)/α, which evens out the density along the sides.
// Times the weight. At power 2, α/2 is π/2, whose float tangent and
// cosine come out as small negative numbers, where Fractorium's float
// build then turns compensated points the wrong way and takes a power of a
// negative secant (NaN): here the tangent is taken by its magnitude and the
// cosine kept at least float epsilon, as the exact values are positive.
// On the sectors' middle lines (ξ = 0) Fractorium's exp-log power makes
// 0^roundwidth NaN for roundwidth 0 and infinite for negative roundwidth:
// here it is powf's 0^0 = 1, and 2ξ is kept at least float epsilon for a
// negative roundwidth.
FJ_VARIATION(smartshape) {
    const float power = fmaxf(p[0], 2.0f), alpha = FJ_2PI / power;
    const float roundstr = p[1], roundwidth = p[2], distortion = p[3];
    const float dang = (in.phi + FJ_PI) / alpha;
    const float whole = floorf(dang), frac = dang - whole;
    const bool upper = frac > 0.5f;
    const float xi2 = upper ? 1.0f - frac : frac;
    const float sector = upper ? whole + 1.0f : whole;
    const float xi = p[4] > 0.0f && distortion >= 1.0f ? atanf(xi2 * 2.0f * fabsf(fj::tangent(0.5f * alpha))) / alpha : xi2;
    float coeff = 1.0f;
    if (distortion != 0.0f) {
        const float sec = 1.0f / fmaxf(fj::cosine(xi * alpha), FJ_FLT_EPSILON);
        coeff = sec;
        if (roundstr != 0.0f) {
            const float rc = roundstr / fj::sine(0.5f * alpha) / power * 2.0f;
            const float base = roundwidth < 0.0f ? fmaxf(2.0f * xi, FJ_FLT_EPSILON) : 2.0f * xi;
            const float blend = roundwidth != 1.0f ? fj::power(base, roundwidth) * rc : 2.0f * xi * rc;
            // (1 − blend)·sec + blend = sec·(1 − blend·(1 − cos)): near a
            // sector's middle sec − 1 is a few ulps of sec, and a large blend
            // (a negative roundwidth) magnified their rounding, and the
            // device's fused multiply-add rounds them otherwise; 1 − cos is
            // formed as 2·sin²(ξα/2) instead.
            const float h = fj::sine(0.5f * xi * alpha);
            coeff = fabsf(1.0f - blend * 2.0f * h * h) * sec;
        }
        if (distortion != 1.0f) coeff = fj::power(coeff, distortion);
    }
    const float a = (sector + (upper ? -xi : xi)) * alpha - FJ_PI;
    const float r = w * coeff * in.r;
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
