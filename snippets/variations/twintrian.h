// @variation twintrian
// @id 47
// @origin flam3 3.1.1
// @random 1
// @also TwinTrian
// flam3 uses the weight inside the formula here. Fractorium's TwinTrian
// is the same formula under another name.
FJ_VARIATION(twintrian) {
    const float r = fj::rand01(rng) * w * in.r;
    const float s = fj::sine(r), c = fj::cosine(r);
    float diff = log10f(s * s) + c;
    // flam3 replaces a bad value (log of zero) by -30.
    if (!(diff == diff) || diff > 1e10f || diff < -1e10f) diff = -30.0f;
    ox += w * in.x * diff;
    oy += w * in.x * (diff - s * FJ_PI);
}
