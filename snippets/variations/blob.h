// @variation blob
// @id 23
// @origin flam3 3.1.1
// @param blob_low 0
// @param blob_high 1
// @param blob_waves 1
FJ_VARIATION(blob) {
    const float low = p[0], high = p[1], waves = p[2];
    const float r = in.r * (low + (high - low) * (0.5f + 0.5f * fj::sine(waves * in.theta)));
    ox += w * in.sina * r;
    oy += w * in.cosa * r;
}
