// @variation blur_heart
// @id 1162
// @origin Fractorium 1.0
// @param blur_heart_p 0.5
// @param blur_heart_a -0.6
// @param blur_heart_b 0.7
// @random 2
// @assign sum
// A heart-shaped blur, whatever the input: a uniform point (x, y) of the
// square [-1, 1)² has y clamped towards the curve
// (a·|x|^p ± b·√|1 − x²| − a)/(|a| + |b|), the sign that of y (the upper
// curve caps y from above, the lower from below), times the weight. Points
// beyond the curve pile up on it rather than being redrawn, as in
// Fractorium. A zero |a| + |b| becomes float epsilon, as in Fractorium;
// |x| is kept at least float epsilon, where Fractorium's 0^p is infinite
// for negative p.
FJ_VARIATION(blur_heart) {
    const float x = 2.0f * (fj::rand01(rng) - 0.5f);
    float y = 2.0f * (fj::rand01(rng) - 0.5f);
    const float a = p[1], b = p[2];
    const float side = y < 0.0f ? -1.0f : 1.0f;
    const float edge = (a * fj::power(fmaxf(fabsf(x), FJ_FLT_EPSILON), p[0]) + side * b * sqrtf(fabsf(1.0f - x * x)) - a) /
                       fj::zeps(fabsf(a) + fabsf(b));
    y = side > 0.0f ? fminf(y, edge) : fmaxf(y, edge);
    ox += w * x;
    oy += w * y;
}
