// @variation hole
// @id 1027
// @origin Fractorium 1.0
// @param hole_a 1
// @param hole_inside 0
// Opens a hole at the centre whose radius grows with the angle:
// δ = (angle/π + 1)^a. Outside (inside 0): radius w·r + δ; inside (1):
// w·δ/(r + δ), every point pulled into the hole. Fractorium rounds inside
// to 0 or 1.
FJ_VARIATION(hole) {
    const float delta = fj::power(in.phi / FJ_PI + 1.0f, p[0]);
    const bool inside = fminf(fmaxf(floorf(p[1] + 0.5f), 0.0f), 1.0f) != 0.0f;
    const float r = inside ? w * delta / (in.r + delta) : w * in.r + delta;
    const float d = fj::zeps(in.r);  // the origin stays put, as in Fractorium
    ox += r * (in.x / d);
    oy += r * (in.y / d);
}
