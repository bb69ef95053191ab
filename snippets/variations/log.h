// @variation log
// @id 83
// @origin flam3 3.1.1
FJ_VARIATION(log) {
    ox += w * 0.5f * logf(in.r2);
    oy += w * in.phi;
}
