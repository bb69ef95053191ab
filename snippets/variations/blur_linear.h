// @variation blur_linear
// @id 1055
// @origin Fractorium 1.0
// @param blur_linear_length 0
// @param blur_linear_angle 0
// @random 1
// A motion blur: the point smeared a uniform distance in [0, length) along
// the direction `angle` (radians), all of it times the weight. Fractorium
// wraps the angle into [0, 2π] and precomputes its sine and cosine; the
// angle is used only through those, which already repeat every turn, so it
// is not wrapped here (float's 2π is inexact and would shift large angles).
FJ_VARIATION(blur_linear) {
    const float d = p[0] * fj::rand01(rng);
    ox += w * (in.x + d * fj::cosine(p[1]));
    oy += w * (in.y + d * fj::sine(p[1]));
}
