// @variation julia
// @id 13
// @origin flam3 3.1.1
// @random 1
FJ_VARIATION(julia) {
    // flam3's w·sqrt(r)·(cos a, sin a), a = theta/2 (+ pi at random), without
    // the angle: cos theta = y/r and sin theta = x/r, so by the half-angle
    // identities sqrt(r)·cos(theta/2) = sqrt((r + y)/2) and sqrt(r)·sin(theta/2)
    // = sqrt((r - y)/2) with x's sign (theta/2 lies in [-pi/2, pi/2]). The
    // smaller of r ± y is taken as x²/(the larger): it does not cancel.
    const float larger = in.r + fabsf(in.y);
    const float smaller = larger > 0.0f ? in.x * in.x / larger : 0.0f;
    const float plus = in.y >= 0.0f ? larger : smaller;  // r + y
    const float minus = in.y >= 0.0f ? smaller : larger;  // r - y
    const float s = fj::rand_bit(rng) ? -w : w;
    ox += s * sqrtf(0.5f * plus);
    oy += s * copysignf(sqrtf(0.5f * minus), in.x);
}
