// @variation log
// @id 83
FJ_VARIATION(log) {
    ox += w * 0.5f * logf(in.r2);
    oy += w * in.phi;
}
