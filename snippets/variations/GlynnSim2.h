// @variation GlynnSim2
// @id 1126
// @origin Fractorium 1.0
// @param GlynnSim2_radius 1
// @param GlynnSim2_thickness 0.1
// @param GlynnSim2_contrast 0.5
// @param GlynnSim2_pow 1.5
// @param GlynnSim2_Phi1 0
// @param GlynnSim2_Phi2 360
// @random 2
// A ring arc on the circle of radius `radius` and a partial inversion
// outside it. Points inside the circle go to a random point of the arc
// from Phi1 to Phi2 degrees (angle uniform), at a distance uniform between
// radius²/(radius + thickness) (the circle's image of its outer edge) and
// radius + thickness. Points outside are scaled by (radius/r)² with
// probability contrast·(radius/r)^|pow|, else kept. Times the weight.
// As in Fractorium, radius is kept at least 0 and thickness and contrast in
// [0, 1]; the guard on radius + thickness = 0 (epsilon) is kept.
FJ_VARIATION(GlynnSim2) {
    const float radius = fmaxf(p[0], 0.0f);
    const float thick = fminf(fmaxf(p[1], 0.0f), 1.0f);
    const float contrast = fminf(fmaxf(p[2], 0.0f), 1.0f);
    float x, y;
    if (in.r < radius) {
        const float outer = radius + thick;
        const float gamma = thick * (2.0f * radius + thick) / fj::zeps(outer);
        const float rr = outer - gamma * fj::rand01(rng);
        const float phi1 = p[4] * (FJ_PI / 180.0f), phi2 = p[5] * (FJ_PI / 180.0f);
        const float ang = phi1 + (phi2 - phi1) * fj::rand01(rng);
        x = rr * fj::cosine(ang);
        y = rr * fj::sine(ang);
    } else {
        const float alpha = fabsf(radius / fj::zeps(in.r));
        const float s = fj::rand01(rng) > contrast * fj::power(alpha, fabsf(p[3])) ? 1.0f : alpha * alpha;
        x = s * in.x;
        y = s * in.y;
    }
    ox += w * x;
    oy += w * y;
}
