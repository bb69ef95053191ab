// @variation escher
// @id 63
// @origin flam3 3.1.1
// @param escher_beta 0
FJ_VARIATION(escher) {
    const float vc = 0.5f * (1.0f + fj::cosine(p[0])), vd = 0.5f * fj::sine(p[0]);
    const float lnr = 0.5f * logf(in.r2);
    const float m = w * expf(vc * lnr - vd * in.phi);
    const float n = vc * in.phi + vd * lnr;
    ox += m * fj::cosine(n);
    oy += m * fj::sine(n);
}
