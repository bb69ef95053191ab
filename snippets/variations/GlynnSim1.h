// @variation GlynnSim1
// @id 1125
// @origin Fractorium 1.0
// @param GlynnSim1_radius 1
// @param GlynnSim1_radius1 0.1
// @param GlynnSim1_phi1 0
// @param GlynnSim1_thickness 0.1
// @param GlynnSim1_contrast 1.5
// @param GlynnSim1_pow 0.5
// @random 3
// A small ring of radius radius1, centred on the big circle of radius
// `radius` at phi1 degrees, and a partial inversion outside the big circle.
// Points inside the big circle go to a random point of the small ring's
// annulus (distance from its centre uniform in [thickness, 1)·radius1).
// Points outside are scaled by (radius/r)² with probability
// contrast·(radius/r)^pow, else kept; one that then lands inside the small
// ring is replaced by a random point of its annulus. Times the weight.
// thickness and pow are clamped to [0, 1] as Fractorium does; its guard
// against r = 0 (epsilon) is kept although r ≥ radius there.
FJ_HD FJ_INLINE void fj_GlynnSim1_ring(const float* p, float cx, float cy, fj::Rng& rng, float& x, float& y) {
    const float thick = fminf(fmaxf(p[3], 0.0f), 1.0f);
    const float rr = p[1] * (thick + (1.0f - thick) * fj::rand01(rng));
    const float ang = FJ_2PI * fj::rand01(rng);
    x = cx + rr * fj::cosine(ang);
    y = cy + rr * fj::sine(ang);
}

FJ_VARIATION(GlynnSim1) {
    const float phi1 = p[2] * (FJ_PI / 180.0f);
    const float cx = p[0] * fj::cosine(phi1), cy = p[0] * fj::sine(phi1);
    float x = in.x, y = in.y;
    if (in.r < p[0]) {
        fj_GlynnSim1_ring(p, cx, cy, rng, x, y);
    } else {
        const float alpha = fabsf(p[0] / fj::zeps(in.r));
        const float power = fminf(fmaxf(p[5], 0.0f), 1.0f);
        if (!(fj::rand01(rng) > p[4] * fj::power(alpha, power))) {
            x *= alpha * alpha;
            y *= alpha * alpha;
        }
        const float dx = x - cx, dy = y - cy;
        if (dx * dx + dy * dy < p[1] * p[1]) fj_GlynnSim1_ring(p, cx, cy, rng, x, y);
    }
    ox += w * x;
    oy += w * y;
}
