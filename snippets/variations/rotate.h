// @variation rotate
// @id 1196
// @origin Fractorium 1.0
// @param rotate_angle 0
// The point turned counter-clockwise about the origin by angle degrees,
// times the weight.
FJ_VARIATION(rotate) {
    const float a = p[0] * (FJ_PI / 180.0f);
    const float c = fj::cosine(a), s = fj::sine(a);
    ox += w * (in.x * c - in.y * s);
    oy += w * (in.x * s + in.y * c);
}
