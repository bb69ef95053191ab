// @variation shredrad
// @id 1232
// @origin Fractorium 1.0
// @param shredrad_n 4
// @param shredrad_width 0.5
// The plane cut into sectors of angle α = 2π/n, each squeezed towards a
// line through it, at the same radius; times the weight. The angle is
// k·α − π + width·(angle + 3π − k·α) with k = (angle + 3π)/α + ½
// truncated towards zero, as Fractorium's int conversion truncates: for a
// positive n, sector k is centred on angle k·α − π (one on the negative x
// axis for a whole n) and a point θ from that centre goes to width·θ from
// it; a negative n truncates the other way and so also turns each sector
// by (1 − width)·α. width is held to [−1, 1] and an n below 1e-6 in size
// becomes float epsilon (signed), as Fractorium stores them. The angle is
// Fractorium's (k + width·fraction)·α − π − width·α/2 rearranged, which
// for a small n cancels two terms of size α and keeps no digits (there
// the whole plane is one sector, and the angle here width·(angle + 3π) − π).
FJ_VARIATION(shredrad) {
    float n = p[0];
    if (fabsf(n) < 1e-6f) n = n < 0.0f ? -FJ_FLT_EPSILON : FJ_FLT_EPSILON;
    const float width = fminf(fmaxf(p[1], -1.0f), 1.0f);
    const float alpha = FJ_2PI / n;
    const float turn = in.phi + 3.0f * FJ_PI;
    const float k = (float)fj::int_like_x86((turn + 0.5f * alpha) / alpha);
    const float a = k * alpha - FJ_PI + width * (turn - k * alpha);
    const float r = w * in.r;
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
