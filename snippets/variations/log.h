// @variation log
// @id 83
// @origin flam3 3.1.1
// Fractorium's log takes the logarithm's base; flam3's is e.
// @ignored log_base 2.718281828459045
FJ_VARIATION(log) {
    ox += w * 0.5f * logf(in.r2);
    oy += w * in.phi;
}
