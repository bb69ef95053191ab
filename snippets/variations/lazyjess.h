// @variation lazyjess
// @id 1087
// @origin Fractorium 1.0
// @param lazyjess_n 4
// @param lazyjess_spin 3.14159265358979
// @param lazyjess_space 0
// @param lazyjess_corner 1
// A regular n-gon (n at least 2; for 2, the band |x| < weight) whose inside
// is spun by `spin` about the origin: a point that the spin carries out of
// the polygon is mirrored in the x axis after being turned back and on by
// (corner − 1) slices. Points outside the polygon move out by `space` along
// their ray. As in Fractorium the polygon's size is the weight, and for n
// other than 2 the spun point's radius is scaled by the weight again when
// it is mirrored.

// Distance from the origin to the n-gon's edge at angle a (a + 2π ≥ 0).
FJ_HD FJ_INLINE float fj_lazyjess_edge(float a, float w, float vertex, float slice) {
    const float diff = fj::modulo(a + 0.5f * slice, slice);
    return w * 1.41421356237309505f * fj::sine(vertex) / fj::zeps(fj::sine(FJ_PI - diff - vertex));
}

FJ_VARIATION(lazyjess) {
    const float n = fmaxf(p[0], 2.0f), spin = p[1];
    const float vertex = FJ_PI * (n - 2.0f) / fj::zeps(2.0f * n), slice = FJ_2PI / fj::zeps(n);
    const float corner_turn = (p[3] - 1.0f) * slice;
    const float a = fj::arctan2(in.y, in.x);
    const bool inside = n == 2.0f ? fabsf(in.x) < w : in.r < fj_lazyjess_edge(a + FJ_2PI, w, vertex, slice);
    if (!inside) {
        const float s = w * (1.0f + p[2] / fj::zeps(in.r));
        ox += s * in.x;
        oy += s * in.y;
        return;
    }
    const float spun = a + spin + (n == 2.0f ? 0.0f : FJ_2PI);
    const float x = w * in.r * fj::cosine(spun), y = w * in.r * fj::sine(spun);
    float radius = in.r;
    bool stays;
    if (n == 2.0f) {
        stays = fabsf(x) < w;
    } else {
        radius = sqrtf(x * x + y * y);
        stays = radius < fj_lazyjess_edge(spun, w, vertex, slice);
    }
    if (stays) {
        ox += x;
        oy += y;
        return;
    }
    const float back = fj::arctan2(y, x) - spin + corner_turn + (n == 2.0f ? 0.0f : FJ_2PI);
    ox += w * radius * fj::cosine(back);
    oy -= w * radius * fj::sine(back);
}
