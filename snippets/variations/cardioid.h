// @variation cardioid
// @id 1029
// @origin Fractorium 1.0
// @param cardioid_a 1
// Along its ray, the point moves to radius w·sqrt(r² + sin(a·angle) + 1).
FJ_VARIATION(cardioid) {
    const float r = w * sqrtf(in.r2 + fj::sine(in.phi * p[0]) + 1.0f);
    const float d = fj::zeps(in.r);  // the origin stays put, as in Fractorium
    ox += r * (in.x / d);
    oy += r * (in.y / d);
}
