// @variation waves
// @id 15
// @origin flam3 3.1.1
// Reads the xform's own affine: b and e scale the waves, c and f set their
// period (flam3's c[1][0], c[1][1], c[2][0], c[2][1]).
FJ_VARIATION(waves) {
    const fj::Affine& m = *in.aff;
    const float dx2 = 1.0f / (m.c * m.c + FJ_EPS);
    const float dy2 = 1.0f / (m.f * m.f + FJ_EPS);
    ox += w * (in.x + m.b * fj::sine(in.y * dx2));
    oy += w * (in.y + m.e * fj::sine(in.x * dy2));
}
