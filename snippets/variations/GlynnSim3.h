// @variation GlynnSim3
// @id 1127
// @origin Fractorium 1.0
// @param GlynnSim3_radius 1
// @param GlynnSim3_thickness 0.1
// @param GlynnSim3_thickness2 0.1
// @param GlynnSim3_contrast 0.5
// @param GlynnSim3_pow 1.5
// @random 2
// Two circles and a partial inversion. With R1 = radius + thickness and
// R2 = radius²/R1 (R1's image in the circle of radius `radius`), points
// inside R1 go to a uniform angle on the circle of radius R1 with
// probability R1/(R1 + R2), else on R2. Points outside are scaled by
// (radius/r)² with probability contrast·(radius/r)^pow, else kept. Times
// the weight. contrast is clamped to [0, 1] as in Fractorium; thickness2
// is one of its parameters but its formula never reads it. Fractorium
// draws a radius for the circles and then overwrites it; we skip that
// draw. Its epsilon guards on R1 and R1 + R2 are kept.
FJ_VARIATION(GlynnSim3) {
    const float r1 = p[0] + p[1];
    float x, y;
    if (in.r < r1) {
        const float r2 = p[0] * p[0] / fj::zeps(r1);
        const float gamma = r1 / fj::zeps(r1 + r2);
        const float ang = FJ_2PI * fj::rand01(rng);
        const float rr = fj::rand01(rng) < gamma ? r1 : r2;
        x = rr * fj::cosine(ang);
        y = rr * fj::sine(ang);
    } else {
        const float alpha = fabsf(p[0] / fj::zeps(in.r));
        const float contrast = fminf(fmaxf(p[3], 0.0f), 1.0f);
        const float s = fj::rand01(rng) > contrast * fj::power(alpha, p[4]) ? 1.0f : alpha * alpha;
        x = s * in.x;
        y = s * in.y;
    }
    ox += w * x;
    oy += w * y;
}
