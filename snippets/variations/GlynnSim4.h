// @variation GlynnSim4
// @id 1136
// @origin Fractorium 1.0
// @param GlynnSim4_radius 1
// @param GlynnSim4_contrast 0.5
// @param GlynnSim4_pow 1.5
// @param GlynnSim4_X 0
// @param GlynnSim4_Y 0
// @random 1
// Points inside the circle of radius `radius` all go to the point (X, Y).
// Points outside are scaled by (radius/r)² with probability
// contrast·(radius/r)^pow, else kept. Times the weight. contrast is clamped
// to [0, 1] as Fractorium does; its guard against r = 0 (epsilon) is kept,
// which a radius of 0 or less reaches.
FJ_VARIATION(GlynnSim4) {
    float x = p[3], y = p[4];
    if (!(in.r < p[0])) {
        const float alpha = fabsf(p[0] / fj::zeps(in.r));
        x = in.x;
        y = in.y;
        if (!(fj::rand01(rng) > fminf(fmaxf(p[1], 0.0f), 1.0f) * fj::power(alpha, p[2]))) {
            x *= alpha * alpha;
            y *= alpha * alpha;
        }
    }
    ox += w * x;
    oy += w * y;
}
