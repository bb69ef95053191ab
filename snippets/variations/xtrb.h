// @variation xtrb
// @id 1229
// @origin Fractorium 1.0
// @param xtrb_power 2
// @param xtrb_radius 1
// @param xtrb_width 0.5
// @param xtrb_dist 1
// @param xtrb_a 1
// @param xtrb_b 1
// @random 2
// A triangle tiling folded into hexagonal rings, then julian. The plane is
// read in trilinear coordinates α = y + radius and β = x·sin C − y·cos C +
// radius (distances from two lines at angle C = 0.047 + b), folded into
// one cell of the lattice of triangles with angles A, B = 0.047 + a and C
// (A = π − B − C; sides radius·(tan(B/2) + tan(C/2)) and so on) and their
// point reflections, the third distance γ following from α and β. In the
// cell the point is moved, case by case after which of α, β, γ is least
// and greatest: with probability width² its two least distances are
// scaled by width (towards the nearest corner), else it is spread as
// (1 − width)·d + 2·width·(…) over the rest of the cell, as Fractorium's
// hexagon fill does (followed here branch by branch). Then it is unfolded,
// turned back into x and y, and sent through julian: radius
// (x² + y²)^(dist/power/2) times the weight, angle (its angle + 2π·k)/power
// for a random whole k in [0, |power|). power is a whole number other than
// 0 (0 reads as ±1 by its sign, as Fractorium stores it). radius 0, which
// makes Fractorium's triangle 0/0 (NaN), is taken as its limit: the cells
// shrink to points and the fill moves nothing, so the input point itself
// goes through julian (the fill's draw is still made). a and b for which A
// is not positive give a triangle with negative sides, as in Fractorium.
FJ_HD FJ_INLINE void fj_xtrb_hex(float al, float be, float ga, float r, float width, float ha, float hb, float hc,
                                 float ab, float ba, float ca, float cb, float s2a, float s2b, float s2ab, float s2ac,
                                 float s2bc, float& al1, float& be1) {
    const float w1 = 1.0f - width, w2 = 2.0f * width;
    const bool inner = r >= 1.0f - width * width;
    float de1, ga1;
    if (be < al) {
        if (ga < be) {
            if (inner) {
                de1 = width * be;
                ga1 = width * ga;
            } else {
                ga1 = w1 * ga + w2 * hc * ga / be;
                de1 = w1 * be + w2 * s2ab * (3.0f - ga / be);
            }
            al1 = s2a - ba * de1 - ca * ga1;
            be1 = de1;
        } else if (ga < al) {
            if (inner) {
                ga1 = width * ga;
                de1 = width * be;
            } else {
                de1 = w1 * be + w2 * hb * be / ga;
                ga1 = w1 * ga + w2 * s2ac * (3.0f - be / ga);
            }
            al1 = s2a - ba * de1 - ca * ga1;
            be1 = de1;
        } else if (inner) {
            al1 = width * al;
            be1 = width * be;
        } else {
            be1 = w1 * be + w2 * hb * be / al;
            al1 = w1 * al + w2 * s2ac * (3.0f - be / al);
        }
    } else if (ga < al) {
        if (inner) {
            de1 = width * al;
            ga1 = width * ga;
        } else {
            ga1 = w1 * ga + w2 * hc * ga / al;
            de1 = w1 * al + w2 * s2ab * (3.0f - ga / al);
        }
        be1 = s2b - ab * de1 - cb * ga1;
        al1 = de1;
    } else if (ga < be) {
        if (inner) {
            ga1 = width * ga;
            de1 = width * al;
        } else {
            de1 = w1 * al + w2 * ha * al / ga;
            ga1 = w1 * ga + w2 * s2bc * (3.0f - al / ga);
        }
        be1 = s2b - ab * de1 - cb * ga1;
        al1 = de1;
    } else if (inner) {
        be1 = width * be;
        al1 = width * al;
    } else {
        al1 = w1 * al + w2 * ha * al / be;
        be1 = w1 * be + w2 * s2bc * (3.0f - al / be);
    }
}

FJ_VARIATION(xtrb) {
    float power = floorf(p[0] + 0.5f);
    if (power == 0.0f) power = p[0] < 0.0f ? -1.0f : 1.0f;
    const float radius = p[1], width = p[2];
    const float angle_b = 0.047f + p[4], angle_c = 0.047f + p[5];
    const float angle_a = FJ_PI - angle_b - angle_c;
    const float ta = fj::tangent(0.5f * angle_a), tb = fj::tangent(0.5f * angle_b), tc = fj::tangent(0.5f * angle_c);
    const float sin_c = fj::sine(angle_c), cos_c = fj::cosine(angle_c);
    // The sides, and the heights and ratios the fold needs.
    const float sa = radius * (tc + tb), sb = radius * (tc + ta), sc = radius * (tb + ta);
    const float s2 = radius * (sa + sb + sc);
    const float ha = s2 / sa / 6.0f, hb = s2 / sb / 6.0f, hc = s2 / sc / 6.0f;
    const float s2a = 6.0f * ha, s2b = 6.0f * hb, s2c = 6.0f * hc;
    const float s2ab = s2 / (sa + sb) / 6.0f, s2ac = s2 / (sa + sc) / 6.0f, s2bc = s2 / (sb + sc) / 6.0f;
    const float al = in.y + radius;
    const float be = in.x * sin_c - in.y * cos_c + radius;
    const float m = floorf(al / s2a), n = floorf(be / s2b);
    float oa = al - m * s2a, ob = be - n * s2b;
    const float og = s2c - sa / sc * oa - sb / sc * ob;
    const float r = fj::rand01(rng);
    float al1, be1;
    if (og > 0.0f) {
        fj_xtrb_hex(oa, ob, og, r, width, ha, hb, hc, sa / sb, sb / sa, sc / sa, sc / sb, s2a, s2b, s2ab, s2ac, s2bc,
                    al1, be1);
    } else {
        fj_xtrb_hex(s2a - oa, s2b - ob, -og, r, width, ha, hb, hc, sa / sb, sb / sa, sc / sa, sc / sb, s2a, s2b, s2ab,
                    s2ac, s2bc, al1, be1);
        al1 = s2a - al1;
        be1 = s2b - be1;
    }
    al1 += m * s2a;
    be1 += n * s2b;
    const bool tiled = radius != 0.0f;
    const float x = tiled ? (be1 - radius + (al1 - radius) * cos_c) / sin_c : in.x;
    const float y = tiled ? al1 - radius : in.y;
    const float copies = fabsf(power);
    const float k = fminf(floorf(fj::rand01(rng) * copies), copies - 1.0f);
    const float angle = (fj::arctan2(y, x) + FJ_2PI * k) / power;
    const float rr = w * fj::power(x * x + y * y, p[3] / power / 2.0f);
    ox += rr * fj::cosine(angle);
    oy += rr * fj::sine(angle);
}
