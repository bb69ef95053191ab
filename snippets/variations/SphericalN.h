// @variation SphericalN
// @id 1041
// @origin Fractorium 1.0
// @param SphericalN_Power 1
// @param SphericalN_Dist 1
// @random 1
// spherical with n-fold copies: radius 1/r^dist, the angle turned by a
// random whole number (below power) of 2π/⌊power⌋, with x and y the sine and
// cosine, as Fractorium outside its flam3 compatibility mode.
FJ_VARIATION(SphericalN) {
    const float rd = fj::power(in.r, p[1]);
    const float r = fj::zeps(rd);
    const float copies = floorf(p[0]);
    const float n = floorf(p[0] * fj::rand01(rng));
    const float a = in.phi + n * FJ_2PI / fj::zeps(copies);
    ox += w * fj::sine(a) / r;
    oy += w * fj::cosine(a) / r;
}
