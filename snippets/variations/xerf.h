// @variation xerf
// @id 1236
// @origin Fractorium 1.0
// erf's squeeze near the axes, inversion far out: each coordinate v with
// |v| < 2 becomes erf(v), one with |v| ≥ 2 becomes v/r² (r² = x² + y²: the
// point's z, which Fractorium adds to r², is 0 here). Times the weight.
// erff is the C library's on the host and CUDA's on the device.
FJ_VARIATION(xerf) {
    ox += w * (fabsf(in.x) >= 2.0f ? in.x / in.r2 : erff(in.x));
    oy += w * (fabsf(in.y) >= 2.0f ? in.y / in.r2 : erff(in.y));
}
