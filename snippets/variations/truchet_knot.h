// @variation truchet_knot
// @id 1218
// @origin Fractorium 1.0
// @random 2
// A woven lattice of bars: the input picks its unit square (⌊x⌋, ⌊y⌋), and
// the output is a uniform point of a bar 0.5 wide and 1.3 long centred on
// the square's lower-left corner, upright where ⌊x⌋ + ⌊y⌋ is even and lying
// where it is odd, times the weight.
FJ_VARIATION(truchet_knot) {
    const float cx = floorf(in.x), cy = floorf(in.y);
    const float across = (fj::rand01(rng) - 0.5f) * 0.5f;
    const float lengthwise = (fj::rand01(rng) * 2.0f - 1.0f) * 0.65f;
    const float parity = fabsf(cx + cy);
    const bool odd = parity - 2.0f * floorf(parity * 0.5f) >= 0.5f;
    ox += w * (cx + (odd ? -lengthwise : across));
    oy += w * (cy + (odd ? across : lengthwise));
}
