// @variation modulusx
// @id 1107
// @origin Fractorium 1.0
// @param modulusx_x 1
// @param modulusx_shift 0
// x + shift wrapped modulo 2·x_param into a band: [−X, X) for X > 0, or for
// X < 0 (fmod keeps the sign of its first argument, x + X + shift) into
// [|X|, 3|X|) where that argument is not negative and (−3|X|, −|X|] where
// it is. y is kept. A zero X leaves Fractorium dividing by zero; here the
// band takes its width-0 limit and x becomes 0.
FJ_VARIATION(modulusx) {
    const float band = p[0];
    if (band != 0.0f) {
        const float f = fj::modulo(in.x + band + p[1], 2.0f * band);
        ox += w * (f >= 0.0f ? f - band : f + band);
    }
    oy += w * in.y;
}
