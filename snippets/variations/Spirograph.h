// @variation Spirograph
// @id 1138
// @origin Fractorium 1.0
// @param Spirograph_a 3
// @param Spirograph_b 2
// @param Spirograph_d 1
// @param Spirograph_tmin -1
// @param Spirograph_ymin -1
// @param Spirograph_tmax 1
// @param Spirograph_ymax 1
// @param Spirograph_c1 0
// @param Spirograph_c2 0
// @random 2
// A point of a spirograph-like curve, whatever the input: t uniform in
// [tmin, tmax) gives (a+b)·(cos t, sin t) − (c1·cos kt, c2·sin kt) +
// d·(cos t, sin t), k = (a+b)/b, and a second draw uniform in [ymin, ymax)
// is added to both coordinates (a diagonal smear); times the weight.
// Fractorium divides by b unguarded; b = 0 is replaced by float epsilon
// here, which keeps c1 = c2 = 0 (the default) a plain circle instead of NaN.
FJ_VARIATION(Spirograph) {
    const float t = (p[5] - p[3]) * fj::rand01(rng) + p[3];
    const float s = (p[6] - p[4]) * fj::rand01(rng) + p[4];
    const float ab = p[0] + p[1], kt = ab / fj::zeps(p[1]) * t;
    const float c = fj::cosine(t), sn = fj::sine(t);
    ox += w * (ab * c - p[7] * fj::cosine(kt) + p[2] * c + s);
    oy += w * (ab * sn - p[8] * fj::sine(kt) + p[2] * sn + s);
}
