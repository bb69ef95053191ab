// @variation rays
// @id 44
// @origin flam3 3.1.1
// @random 1
// flam3 uses the weight inside the formula here.
FJ_VARIATION(rays) {
    const float a = w * fj::rand01(rng) * FJ_PI;
    const float r = w / (in.r2 + FJ_EPS);
    const float t = w * fj::tangent(a) * r;
    ox += t * fj::cosine(in.x);
    oy += t * fj::sine(in.y);
}
