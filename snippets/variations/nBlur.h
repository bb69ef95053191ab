// @variation nBlur
// @id 1245
// @origin Fractorium 1.0
// @param nBlur_numEdges 3
// @param nBlur_numStripes 0
// @param nBlur_ratioStripes 1
// @param nBlur_ratioHole 0
// @param nBlur_circumCircle 0
// @param nBlur_adjustToLinear 1
// @param nBlur_equalBlur 1
// @param nBlur_exactCalc 0
// @param nBlur_highlightEdges 1
// @random 4
// A blur filling a regular polygon of numEdges (at least 3) sides inscribed
// in the unit circle, or that circle (circumCircle 1), less a hole of
// ratioHole times the polygon, whatever the input point. Sides are drawn
// evenly and the angle within a side from an arctangent that crowds points
// towards the corners as highlightEdges grows (exactCalc 1: angle and
// radius uniform, points outside the ring redrawn); equalBlur 1 makes the
// density even across the radius. numStripes cuts each side's sector into
// stripes whose odd ones (even ones for a negative number) are left empty,
// the others widened or narrowed by ratioStripes (0 to 2). Turned by half a
// side's angle, and with adjustToLinear 1 scaled so that the polygon's
// widest chord is 2; times the weight. As Fractorium computes it, with two
// of its loops in closed form (turning an angle into a side's sector,
// counting stripes), stepped at most twice after it so that absurd counts
// cannot stall a point, and its redrawing stopped after 1000 tries.

// A switch of Fractorium's (an integer parameter from 0 to 1) that is on.
FJ_HD FJ_INLINE bool fj_nblur_flag(float v) { return fj::integer_param(v, 0.0f, 1.0f) == 1.0f; }

// What a draw reads: the shape's constants, after Fractorium's precalc.
struct FjNblurShape {
    float edges, mid, ang_start, ang_stripes, ratio, speed, max_stripes, tan90m2, arc1, arc2, hole;
    bool stripes, negative, exact, circum, equal;
};

// One point of the blur before its turn, (x, y); false for an exact draw
// outside the ring between the hole's edge and the polygon's.
FJ_HD FJ_INLINE bool fj_nblur_draw(const FjNblurShape& s, fj::Rng& rng, float& x, float& y) {
    float ang;
    if (s.exact) {
        ang = fj::rand01(rng) * FJ_2PI;
    } else {
        const float u = fj::rand01(rng);
        const float side = fminf(floorf(fj::rand01(rng) * s.edges), s.edges - 1.0f);
        ang = (atanf(s.arc1 * (u - 0.5f)) / s.arc2 + 0.5f + side) * s.mid;
    }
    float mem = ang, shown = ang;  // shown: the angle the point is drawn at
    // Into (0, mid]: Fractorium subtracts mid while the angle exceeds it.
    // Here at most two steps follow the closed form, for its rounding: where
    // mid is below the angle's rounding (absurd side counts) the loop would
    // never end, and the angle is left as it is.
    if (ang > s.mid) ang -= s.mid * (ceilf(ang / s.mid) - 1.0f);
    for (int step = 0; step < 2 && ang > s.mid; ++step) ang -= s.mid;
    if (s.stripes) {
        // The stripe boundary at or after the angle: Fractorium steps it
        // from ang_start by ang_stripes, capped at mid, counting the steps
        // (again two steps at most after the closed form).
        int count = 0;
        float edge = s.ang_start;
        if (ang > edge) {
            const float steps = ceilf((ang - s.ang_start) / s.ang_stripes);
            count = fj::int_like_x86(steps);
            edge = fminf(s.ang_start + steps * s.ang_stripes, s.mid);
            for (int step = 0; step < 2 && ang > edge; ++step) {
                edge = fminf(edge + s.ang_stripes, s.mid);
                ++count;
            }
        }
        if (edge != s.mid) edge -= s.ang_start;
        // The parity that is moved out of its stripe: odd counts, or even
        // ones for negative stripes, which also trade the ratio and speed
        // for their complements (s holds those already).
        const int moved = s.negative ? 0 : 1;
        if ((count & 1) == moved) {
            if (ang > edge && (!s.negative || (float)count != s.max_stripes)) {
                ang += s.ang_start;
                mem += s.ang_start;
                edge += s.ang_stripes;
                ++count;
            } else {
                ang -= s.ang_start;
                mem -= s.ang_start;
                edge -= s.ang_stripes;
                --count;
            }
            shown = mem;
        }
        if ((count & 1) != moved && s.ratio > 1.0f) {
            const float stretched = (ang - edge) / s.ang_start * s.ratio * s.ang_start;
            mem = mem - ang + edge + stretched;
            ang = edge + stretched;
            shown = mem;
        }
        if ((count & 1) != moved && s.ratio < 1.0f) {
            const float den = s.ang_start - s.speed;
            if (fabsf(ang - edge) > s.speed && (float)count != s.max_stripes) {
                if (ang - edge > s.speed) {
                    const float q = (ang - (edge + s.speed)) * s.speed / den;
                    shown = mem - ang + edge + q;
                    ang = edge + q;
                }
                if (edge - ang > s.speed) {
                    const float q = (edge - s.speed - ang) * s.speed / den;
                    shown = mem - ang + edge - q;
                    ang = edge - q;
                }
            }
            // The last stripe (negative stripes never reach it here: their
            // count is odd by now, so Fractorium's move of their edge to mid
            // never happens).
            if ((float)count == s.max_stripes) {
                if (edge - ang > s.speed) {
                    const float q = (edge - s.speed - ang) * s.speed / den;
                    shown = mem - ang + edge - q;
                    ang = edge - q;
                }
            }
        }
    }
    // The polygon's edge along the angle: the side from (1, 0) to the
    // sector's other corner.
    const float t = fj::tangent(ang);
    const float ex = s.tan90m2 / (s.tan90m2 - t), ey = ex * t;
    const float outer = sqrtf(ex * ex + ey * ey);
    const float u = fj::rand01(rng);
    float ran = s.equal ? sqrtf(u) : u;
    if (!s.exact && !s.circum) ran *= outer;
    const float inner = s.hole * outer;
    if (!s.exact && ran < inner) {
        const float v = fj::rand01(rng);
        const float spread = s.circum ? 1.0f - inner + FJ_FLT_EPSILON : outer - inner;
        ran = inner + (s.equal ? sqrtf(v) : v) * spread;
    }
    x = fj::sine(shown) * ran;
    y = fj::cosine(shown) * ran;
    const float len = sqrtf(x * x + y * y);
    return !s.exact || !(len < inner || len > outer);
}

FJ_VARIATION(nBlur) {
    FjNblurShape s;
    s.edges = fmaxf(floorf(p[0] + 0.5f), 3.0f);
    const float stripes = floorf(p[1] + 0.5f);
    const float ratio = fminf(fmaxf(p[2], 0.0f), 2.0f);
    s.hole = fminf(fmaxf(p[3], 0.0f), 1.0f);
    s.circum = fj_nblur_flag(p[4]);
    s.equal = fj_nblur_flag(p[6]);
    s.exact = fj_nblur_flag(p[7]) && !s.circum;
    const float highlight = p[8] <= 0.1f || s.circum ? 0.1f : p[8];
    s.stripes = stripes != 0.0f;
    s.negative = stripes < 0.0f;
    const float abs_stripes = fabsf(stripes);
    s.mid = FJ_2PI / s.edges;
    s.ang_stripes = s.stripes ? s.mid / (2.0f * abs_stripes) : 0.0f;
    s.ang_start = s.ang_stripes * 0.5f;
    const float complement = s.stripes ? 2.0f - ratio : 0.0f;
    if (s.hole > 0.95f && s.exact) s.hole = 0.95f;
    s.tan90m2 = fj::tangent(FJ_PI_2 + s.mid * 0.5f);
    s.max_stripes = 2.0f * abs_stripes;
    // Negative stripes trade the ratio for its complement (and the speed
    // with it) while they draw.
    s.ratio = s.negative ? complement : ratio;
    s.speed = s.ratio * s.ang_start;
    s.arc1 = (s.negative ? 7.5f : 13.0f) / fj::power(s.edges, 1.3f) * highlight;
    s.arc2 = 2.0f * atanf(s.arc1 / -2.0f);
    float x, y;
    for (int tries = 1; !fj_nblur_draw(s, rng, x, y) && tries < 1000; ++tries) {
    }
    float weight = w;
    if (fj_nblur_flag(p[5])) {
        const float turns = fj::int_like_x86(s.edges) % 4 == 0 ? s.edges * 0.5f - 1.0f : floorf(s.edges * 0.5f);
        weight = w / fj::zeps(sqrtf(2.0f - 2.0f * fj::cosine(s.mid * turns)) * 0.5f);
    }
    const float sa = fj::sine(s.mid * 0.5f), ca = fj::cosine(s.mid * 0.5f);
    ox += weight * (ca * x - sa * y);
    oy += weight * (sa * x + ca * y);
}
