// @variation rays3
// @id 1120
// @origin Fractorium 1.0
// @discards sum
// Rays from the axes: x becomes cos(r²)·r²/x and y becomes tan(r²)·r²/y,
// both scaled by 1/sqrt(cos(sin(r⁴)·sin(1/r⁴))) (the cosine's argument lies
// in [−1, 1], so the root is always real) and a tenth of the weight. A zero
// r⁴ or coordinate is replaced by float epsilon before dividing, as
// Fractorium does. As a plain use it drops what the variations before it added.
FJ_VARIATION(rays3) {
    const float sq = in.r2 * in.r2;
    const float u = 1.0f / sqrtf(fj::cosine(fj::sine(sq) * fj::sine(1.0f / fj::zeps(sq))));
    const float s = 0.1f * w * u * in.r2;
    ox += s * fj::cosine(in.r2) / fj::zeps(in.x);
    oy += s * fj::tangent(in.r2) / fj::zeps(in.y);
}
