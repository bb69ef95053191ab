// @variation rays1
// @id 1118
// @origin Fractorium 1.0
// @discards sum
// Rays from the axes: each coordinate becomes r²/that coordinate, scaled by
// u = 1/tan(r) + w·(2/π)² and the weight (so the weight enters twice, as in
// Fractorium). A zero tangent (r at a multiple of π, the origin included)
// or a zero coordinate is replaced by float epsilon before dividing; the
// tangent's argument is clamped to ±8388607 as Fractorium does for float.
// As a plain use it drops what the variations before it added.
FJ_VARIATION(rays1) {
    const float u = 1.0f / fj::zeps(fj::tangent(fminf(in.r, 8388607.0f))) + w * (4.0f / (FJ_PI * FJ_PI));
    const float s = w * u * in.r2;
    ox += s / fj::zeps(in.x);
    oy += s / fj::zeps(in.y);
}
