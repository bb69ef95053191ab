// @variation Juliac
// @id 1145
// @origin Fractorium 1.0
// @param Juliac_re 2
// @param Juliac_im 1
// @param Juliac_dist 1
// @random 1
// A julia with a complex exponent: exp((dist·ln|z| + i·(φ + 2πk)) ·
// (1/re + i·im/100)), times the weight. k is a random whole number modulo
// |re|: for a whole re one of its |re| roots, evenly; for a fractional re
// Fractorium's residue of a random integer, kept here with a 24-bit
// integer in place of its 32-bit one. re = 0 becomes float epsilon, as
// Fractorium guards it. Fractorium takes the residue modulo 1/(1/re),
// equal to re up to rounding; this uses re. Where the radius underflows to
// 0 (the origin, with dist/re positive) the point lands at 0, where
// Fractorium would multiply 0 by a NaN direction.
FJ_VARIATION(Juliac) {
    const float re = fj::zeps(p[0]), re_inv = 1.0f / re, im = p[1] * 0.01f;
    const float k = fj::modulo((float)(fj::next_u32(rng) >> 8), fabsf(re));
    const float arg = in.phi + k * FJ_2PI;
    const float lnmod = 0.5f * p[2] * logf(in.r2);
    const float mod = expf(lnmod * re_inv - arg * im);
    if (mod == 0.0f) return;
    const float a = arg * re_inv + lnmod * im;
    ox += w * mod * fj::cosine(a);
    oy += w * mod * fj::sine(a);
}
