// @variation fdisc
// @id 1033
// @origin Fractorium 1.0
// disc turned inside out: the angle becomes 2π/(r + 1) and the radius the
// point's angle mapped from [-π, π] onto [0, 1].
FJ_VARIATION(fdisc) {
    const float a = FJ_2PI / (in.r + 1.0f);
    const float r = w * (in.phi * (1.0f / FJ_PI) + 1.0f) * 0.5f;
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
