// @variation starblur2
// @id 1213
// @origin Fractorium 1.0
// @param starblur2_power 5
// @param starblur2_range 0.4016228317
// @param starblur2_hole 0.5
// @param starblur2_stripes 5
// @param starblur2_width 0.2
// @random 2
// starblur with a hole and stripes, whatever the input: a star of `power`
// points, tips at radius |weight| and the corners between them at
// range·|weight|, tip 0 pointing down. One of its 2·power half-edges is
// drawn and a place f along it, then f is bunched into `stripes` bands per
// half-edge, each of `width` of its share (from the band's start on even
// half-edges, from its end on odd ones); the outline point is moved towards
// the centre by the square root of a uniform number in [hole², 1] (|hole|
// held to 1), leaving an empty star of relative size |hole|. Fractorium
// works the star's shape out per flame, here per call. Deviations: a
// stripes of 0, which Fractorium divides through float epsilon (throwing
// the odd half-edges millions of units away), means no stripes; the inverse
// sines are clamped against float rounding past ±1. A power of 0 is divided
// through float epsilon as in Fractorium and gives a segment down the y
// axis.

// asin held to its domain against rounding.
FJ_HD FJ_INLINE float fj_starblur2_asin(float v) {
    return asinf(fminf(fmaxf(v, -1.0f), 1.0f));
}

FJ_VARIATION(starblur2) {
    const float power = p[0], range = p[1], width = p[4];
    const float safe_power = fj::zeps(power);
    // Tip T at radius 1, the next corner C at radius `range` half a point
    // further round: `edge` is |TC| and `corner` the angle at T.
    const float half_point = FJ_PI / safe_power;
    const float edge = sqrtf(fmaxf(1.0f + range * range - 2.0f * range * fj::cosine(half_point), 0.0f));
    const float corner = fj_starblur2_asin(fj::sine(half_point) * range / fj::zeps(edge));
    const float hole = fminf(fabsf(p[2]), 1.0f), hole2 = hole * hole;
    const float stripes = fabsf(p[3]);

    const float k = fj::rand01(rng) * power * 2.0f;
    const float half_edge = floorf(k);
    const float f = k - half_edge;
    const bool odd = fj::modulo(half_edge, 2.0f) != 0.0f;
    float along = f;
    if (stripes > 0.0f) {
        const float band = truncf(f * stripes), in_band = f * stripes - band;
        along = ((odd ? 1.0f - width * in_band : width * in_band) + band) / stripes;
    }
    // Law of cosines for the outline point's radius, law of sines for its
    // angle from the tip: after the tip on odd half-edges, before on even.
    const float t = along * edge;
    const float rim = fj::zeps(sqrtf(fmaxf(1.0f + t * t - 2.0f * t * fj::cosine(corner), 0.0f)));
    const float off = fj_starblur2_asin(fj::sine(corner) * t / rim);
    const float a = (FJ_2PI / safe_power) * truncf(0.5f * half_edge) + (odd ? off : -off) - FJ_PI_2;
    const float r = w * rim * sqrtf(fj::rand01(rng) * (1.0f - hole2) + hole2);
    ox += fj::cosine(a) * r;
    oy += fj::sine(a) * r;
}
