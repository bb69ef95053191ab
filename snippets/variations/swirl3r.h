// @variation swirl3r
// @id 1204
// @origin Fractorium 1.0
// @param swirl3r_shift 0.5
// @param swirl3r_min 0.5
// @param swirl3r_max 1
// swirl3 (the point turned about the origin by shift·log r) confined to
// the annulus between the radii min and max: within radius min the turn
// stays shift·log min and beyond max shift·log max, so those parts only
// turn rigidly (a limit of 0 turns by 0). Times the weight. min and
// max are kept at least 0 and may come in either order, as in Fractorium.
// The origin, whose turn with min 0 is infinite in Fractorium (and its
// result NaN), stays at 0 (the limit).
FJ_VARIATION(swirl3r) {
    if (!(in.r > 0.0f)) return;
    const float shift = p[0], a = fmaxf(p[1], 0.0f), b = fmaxf(p[2], 0.0f);
    const float lo = fminf(a, b), hi = fmaxf(a, b);
    float t;
    if (in.r < lo)
        t = logf(lo) * shift;  // lo > r > 0
    else if (in.r > hi)
        t = hi > 0.0f ? logf(hi) * shift : 0.0f;
    else
        t = logf(in.r) * shift;
    const float c = fj::cosine(t), s = fj::sine(t);
    ox += w * (in.x * c - in.y * s);
    oy += w * (in.x * s + in.y * c);
}
