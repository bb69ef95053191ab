// @variation roundspher
// @id 1197
// @origin Fractorium 1.0
// The point shrunk by 1 + (2r/π)², times the weight twice: w²·z/(1 +
// (2r/π)²), nearly the identity near the origin and, far out, spherical's
// inversion (π²/4)·z/r². Fractorium forms it as a quotient of quotients
// through 1/r² (with float epsilon for a zero r²); that is equal wherever
// it is finite, and here it is also where r² is so small that 1/r² is
// infinite (and Fractorium's float build gives NaN).
FJ_VARIATION(roundspher) {
    const float k = w * w / (1.0f + in.r2 * (4.0f / (FJ_PI * FJ_PI)));
    ox += k * in.x;
    oy += k * in.y;
}
