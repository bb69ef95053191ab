// @variation bisplit
// @id 1147
// @origin Fractorium 1.0
// Splits the plane into vertical bands by cot x and csc x:
// (cos y/tan x, −y/sin x), times a tenth of the weight. The tangent's
// argument is clamped to ±8388607 as Fractorium does for float; at x = 0,
// where Fractorium divides by zero, the zero tangent and sine are replaced
// by float epsilon.
FJ_VARIATION(bisplit) {
    const float k = 0.1f * w;
    ox += k / fj::zeps(fj::tangent(fminf(fmaxf(in.x, -8388607.0f), 8388607.0f))) * fj::cosine(in.y);
    oy += k / fj::zeps(fj::sine(in.x)) * -in.y;
}
