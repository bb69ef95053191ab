// @variation fan
// @id 22
// @origin flam3 3.1.1
// The blade width and offset are the xform's own c and f translation.
FJ_VARIATION(fan) {
    const float dx = FJ_PI * (in.aff->c * in.aff->c + FJ_EPS);
    const float dx2 = 0.5f * dx;
    const float a = in.theta + (fj::modulo(in.theta + in.aff->f, dx) > dx2 ? -dx2 : dx2);
    const float r = w * in.r;
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
