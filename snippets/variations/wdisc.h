// @variation wdisc
// @id 1242
// @origin Fractorium 1.0
// A disc unrolled: the point's angle phi = atan2(y, x) sets the radius,
// phi/π, and its distance r the angle, π/(r + 1) (π less that where
// phi > 0); times the weight.
FJ_VARIATION(wdisc) {
    const float rad = in.phi * (1.0f / FJ_PI);
    float a = FJ_PI / (in.r + 1.0f);
    if (rad > 0.0f) a = FJ_PI - a;
    ox += w * rad * fj::cosine(a);
    oy += w * rad * fj::sine(a);
}
