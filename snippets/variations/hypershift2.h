// @variation hypershift2
// @id 1113
// @origin Fractorium 1.0
// @param hypershift2_p 3
// @param hypershift2_q 7
// @random 1
// hypershift at a vertex of the hyperbolic {p, q} tiling: the disc is
// shrunk to the radius tanh(h/2), h half a tile's edge (cosh h =
// cos(π/p)/sin(π/q)), moved by the Möbius translation (z + s)/(1 + s·z)
// whose s = tanh(R/2) carries the centre to the tile's vertex at distance R
// (cosh R = cot(π/p)·cot(π/q)), then turned by (2k + 1)·π/p, k uniform
// below p, to one of the p vertices round the central tile. As in
// hypershift the weight scales only the translated part, w·(M − s) + s.
// p and q are kept at least 2 (Fractorium's limit). Where 1/p + 1/q ≥ 1/2
// there is no hyperbolic tiling and Fractorium's shift is NaN; here the
// variation adds nothing there, the limit as the tiling flattens (shift and
// radius both go to 0). z, which it scales, is not drawn.
FJ_VARIATION(hypershift2) {
    const float P = fmaxf(p[0], 2.0f), Q = fmaxf(p[1], 2.0f);
    const float a = FJ_PI / P, b = FJ_PI / Q;
    // v > 0 exactly where the tiling is hyperbolic.
    const float u = 0.5f * (FJ_PI_2 + a - b), v = 0.5f * (FJ_PI_2 - a - b);
    if (!(v > 0.0f)) return;
    // tanh²(R/2) = cos(a + b)/cos(a − b), and tanh²(h/2) = (cosh h − 1)/(cosh h + 1)
    // as a product of tangents, which does not cancel.
    const float s = sqrtf(fj::sine(2.0f * v) / fj::cosine(a - b));
    const float shrink = sqrtf(fj::tangent(u) * fj::tangent(v));
    const float fx = shrink * in.x, fy = shrink * in.y;
    const float dx = 1.0f + s * fx, dy = s * fy;
    const float k = w * (1.0f - s * s) / fj::zeps(dx * dx + dy * dy);
    const float X = k * (fx + s * (fx * fx + fy * fy)) + s, Y = k * fy;
    const float turn = (2.0f * floorf(fj::rand01(rng) * P) + 1.0f) * a;
    const float c = fj::cosine(turn), sn = fj::sine(turn);
    ox += c * X - sn * Y;
    oy += sn * X + c * Y;
}
