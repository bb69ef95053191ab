// @variation rings
// @id 21
// @origin flam3 3.1.1
// The ring spacing is the square of the xform's own c translation.
FJ_VARIATION(rings) {
    const float dx = in.aff->c * in.aff->c + FJ_EPS;
    const float r = w * (fj::modulo(in.r + dx, 2.0f * dx) - dx + in.r * (1.0f - dx));
    ox += r * in.cosa;
    oy += r * in.sina;
}
