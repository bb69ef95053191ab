// @variation perspective
// @id 30
// @origin flam3 3.1.1
// @param perspective_angle 0
// @param perspective_dist 0
FJ_VARIATION(perspective) {
    // Reduce the angle to one turn first so whole quarter turns stay exact.
    const float ang = fj::modulo(p[0], 4.0f) * FJ_PI_2, dist = p[1];
    // At distance 0 flam3 adds w·0·x·t, nothing, wherever t is finite. Its
    // sine, taken in double of angle·pi/2, is 0 only at angle 0; here every
    // whole turn (an angle a multiple of 4, reduced to 0) has a sine of
    // exactly 0, which would make t infinite and the sum NaN (a bad point)
    // where flam3's is nothing. Angle 0 and y = 0 stay NaN, as in flam3.
    if (dist == 0.0f && p[0] != 0.0f && in.y != 0.0f) return;
    const float t = 1.0f / (dist - in.y * fj::sine(ang));
    ox += w * dist * in.x * t;
    oy += w * dist * fj::cosine(ang) * in.y * t;
}
