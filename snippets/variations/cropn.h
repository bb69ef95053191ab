// @variation cropn
// @id 1133
// @origin Fractorium 1.0
// @param cropn_power 5
// @param cropn_radius 1
// @param cropn_scatterdist 0
// @param cropn_zero 0
// @random 1
// A regular polygon crop: the polygon of n = max(2, |power|) sides whose
// edges lie at distance `radius` from the origin, one edge's midpoint on
// the −x axis. A positive power keeps the inside and crops the outside, a
// negative one the reverse. A kept point is scaled by the weight. A
// cropped one goes to 0 when zero is 0, else along its ray to the
// polygon's boundary pushed on by scatterdist·u (u uniform), times the
// weight. As Fractorium computes it outside its flam3 compatibility mode,
// where zero 0 (the default) crops to 0; in that mode only zero 1 does.
// The origin, with a positive power and radius, is inside; where it is to
// be pushed out its ray is undefined and Fractorium's epsilon guard sends
// it to 0.
FJ_VARIATION(cropn) {
    const float alpha = FJ_2PI / fmaxf(2.0f, fabsf(p[0])), half = 0.5f * alpha;
    const float a = fj::modulo(in.phi + FJ_PI, alpha);
    const float c = fj::cosine(a < half ? a : alpha - a);
    const float edge = c > 0.0f ? p[1] / fj::zeps(c) : 1.0f;
    if ((in.r2 > edge * edge) == (p[0] > 0.0f)) {
        if (p[3] != 0.0f) {
            const float k = (edge + fj::rand01(rng) * p[2]) * w / fj::zeps(sqrtf(in.r2));
            ox += k * in.x;
            oy += k * in.y;
        }
    } else {
        ox += w * in.x;
        oy += w * in.y;
    }
}
