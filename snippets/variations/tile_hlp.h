// @variation tile_hlp
// @id 1003
// @origin Fractorium 1.0
// @param tile_hlp_width 1
// @random 1
// Shifts x by one tile width (times the weight) toward 0, with a probability
// that grows towards the tile's edges. For x < 0 Fractorium takes x + (int)x
// where the fraction would be x - (int)x; kept, as its images show it.
FJ_VARIATION(tile_hlp) {
    const float width = p[0];
    const float x = in.x / width;
    const bool positive = x > 0.0f;
    const float whole = (float)fj::int_like_x86(x);
    const float part = positive ? x - whole : x + whole;
    const float shift = fj::cosine(part * FJ_PI) < fj::rand11(rng) ? (positive ? -width * w : width * w) : 0.0f;
    ox += w * in.x + shift;
    oy += w * in.y;
}
