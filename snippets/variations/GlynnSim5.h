// @variation GlynnSim5
// @id 1137
// @origin Fractorium 1.0
// @param GlynnSim5_radius 1
// @param GlynnSim5_thickness 0.1
// @param GlynnSim5_contrast 0.5
// @param GlynnSim5_pow 1.5
// @random 1
// Points inside the circle of radius radius + thickness go to 0. Points
// outside are kept with probability 1 − contrast·(radius/r)^pow, else go
// to the point (a, a) of the diagonal, a = (radius/r)²: Fractorium sets
// both coordinates to that factor instead of scaling the point by it, and
// so does this. Times the weight. contrast is clamped to [0, 1] as
// Fractorium does; its guard against r = 0 (epsilon) is kept.
FJ_VARIATION(GlynnSim5) {
    if (in.r < p[0] + p[1]) return;
    const float alpha = fabsf(p[0] / fj::zeps(in.r));
    if (fj::rand01(rng) > fminf(fmaxf(p[2], 0.0f), 1.0f) * fj::power(alpha, p[3])) {
        ox += w * in.x;
        oy += w * in.y;
    } else {
        ox += w * alpha * alpha;
        oy += w * alpha * alpha;
    }
}
