// @variation collideoscope
// @id 1092
// @origin Fractorium 1.0
// @param collideoscope_a 0
// @param collideoscope_num 1
// A kaleidoscope of 2·num wedges of angle π/num: within each wedge the
// angle is shifted by π·a/num and wrapped to stay in the wedge, alternate
// wedges shifted the opposite way, the lower half plane a mirror of the
// upper; the radius is scaled by the weight.
FJ_VARIATION(collideoscope) {
    const float num = fj::zeps(p[1]);
    const float wedge = FJ_PI / num, shift = FJ_PI * p[0] / num;
    const float phi = in.phi;
    const float mirror = phi >= 0.0f ? 1.0f : -1.0f;
    const float up = phi * mirror;  // the angle folded into the upper half plane
    const int k = fj::int_like_x86(up * (num / FJ_PI));
    // Even wedges (counted away from the positive x axis) shift forwards,
    // odd ones back.
    const bool forwards = (k & 1) == 0;
    const float a = mirror * ((float)k * wedge + fj::modulo((forwards ? shift : -shift) + up, wedge));
    const float r = w * in.r;
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
