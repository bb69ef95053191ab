// @variation swirl3
// @id 1203
// @origin Fractorium 1.0
// @param swirl3_shift 0.5
// A logarithmic swirl: the point turned about the origin by shift·log r,
// times the weight, so that rays become equiangular spirals and circles
// stay. The origin, where Fractorium's turn is infinite and its result
// NaN, stays at 0 (the limit).
FJ_VARIATION(swirl3) {
    if (!(in.r > 0.0f)) return;
    const float t = logf(in.r) * p[0];
    const float c = fj::cosine(t), s = fj::sine(t);
    ox += w * (in.x * c - in.y * s);
    oy += w * (in.x * s + in.y * c);
}
