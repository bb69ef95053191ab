// @variation foci_p
// @id 1178
// @origin Fractorium 1.0
// @param foci_p_c1 0.5
// @param foci_p_c2 0.5
// flam3's foci with its two exponentials weighted: with e = e^x,
// (c1·e − c2/e, sin y) / (c1·e + c2/e − cos y), times the weight; at
// c1 = c2 = 1/2 that is (sinh x, sin y)/(cosh x − cos y), foci itself,
// the conjugate of coth(z/2), which spreads each horizontal strip of
// height 2π over the whole plane. x is held within ±80, where e or 1/e
// would otherwise overflow float (and Fractorium's float build divide
// infinities): there, unless c1 or c2 is nonzero but below 1e-27 in size,
// the map has reached its limit to float precision. A zero divisor becomes
// float epsilon, as in Fractorium.
FJ_VARIATION(foci_p) {
    const float e = expf(fminf(fmaxf(in.x, -80.0f), 80.0f));
    const float a = e * p[0], b = p[1] / e;
    const float s = w / fj::zeps(a + b - fj::cosine(in.y));
    ox += (a - b) * s;
    oy += fj::sine(in.y) * s;
}
