// @variation deltaa
// @id 1171
// @origin Fractorium 1.0
// The point as seen from the foci (±1, 0): its radius becomes the ratio of
// its distances to (−1, 0) and to (1, 0), its angle half the signed angle
// the segment between the foci subtends at it (so the image lies in the
// right half plane, above the axis for points above it). Times the weight.
// The angle comes from one atan2 of (z − 1)·conj(z + 1) instead of
// Fractorium's difference of two, which cancels far from the foci; the two
// agree everywhere but at the focus (−1, 0), whose radius 0 hides it. At
// the focus (1, 0) the distance divided by is float epsilon instead of 0,
// as Fractorium guards its other divisions.
FJ_VARIATION(deltaa) {
    const float ratio = hypotf(in.y, in.x + 1.0f) / fj::zeps(hypotf(in.y, in.x - 1.0f));
    const float half = 0.5f * fj::arctan2(2.0f * in.y, (in.x - 1.0f) * (in.x + 1.0f) + in.y * in.y);
    ox += w * ratio * fj::cosine(half);
    oy += w * ratio * fj::sine(half);
}
