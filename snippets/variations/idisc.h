// @variation idisc
// @id 1034
// @origin Fractorium 1.0
// Another inside-out disc: the angle becomes π/(r + 1) and the radius the
// point's angle over π.
FJ_VARIATION(idisc) {
    const float a = FJ_PI / (in.r + 1.0f);
    const float r = in.phi * (w * (1.0f / FJ_PI));
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
