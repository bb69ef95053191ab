// @variation popcorn
// @id 17
// @origin flam3 3.1.1
// The translation of the xform's own affine is the popcorn amplitude.
FJ_VARIATION(popcorn) {
    const fj::Affine& m = *in.aff;
    ox += w * (in.x + m.c * fj::sine(fj::tangent(3.0f * in.y)));
    oy += w * (in.y + m.f * fj::sine(fj::tangent(3.0f * in.x)));
}
