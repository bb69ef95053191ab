// @variation perspective
// @id 30
// @origin flam3 3.1.1
// @param perspective_angle 0
// @param perspective_dist 0
FJ_VARIATION(perspective) {
    // Reduce the angle to one turn first so whole quarter turns stay exact.
    const float ang = fj::modulo(p[0], 4.0f) * FJ_PI_2, dist = p[1];
    const float t = 1.0f / (dist - in.y * fj::sine(ang));
    ox += w * dist * in.x * t;
    oy += w * dist * fj::cosine(ang) * in.y * t;
}
