// @variation rays2
// @id 1119
// @origin Fractorium 1.0
// @discards sum
// Rays from the axes: each coordinate becomes r²/that coordinate, scaled by
// sec(r²·tan(1/r²)) and a tenth of the weight. A zero r² or coordinate is
// replaced by float epsilon before dividing, as Fractorium does. As a plain
// use it drops what the variations before it added.
FJ_VARIATION(rays2) {
    const float u = 1.0f / fj::cosine(in.r2 * fj::tangent(1.0f / fj::zeps(in.r2)));
    const float s = 0.1f * w * u * in.r2;
    ox += s / fj::zeps(in.x);
    oy += s / fj::zeps(in.y);
}
