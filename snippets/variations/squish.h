// @variation squish
// @id 1089
// @origin Fractorium 1.0
// @param squish_power 2
// @random 1
// Every point lies on the square of half-width s = max(|x|, |y|); its
// position round the perimeter (8s long, from (s, 0) counterclockwise),
// plus a random whole number of laps below `power`, is divided by power, so
// the square is wound onto itself power times. Fractorium keeps power at 2
// or more, and on the last eighth of the perimeter mirrors y, as this does.
FJ_VARIATION(squish) {
    const float power = fmaxf(p[0], 2.0f);
    const float ax = fabsf(in.x), ay = fabsf(in.y);
    float s, q;
    if (ax > ay) {
        s = ax;
        q = in.x > 0.0f ? in.y : 4.0f * s - in.y;
    } else {
        s = ay;
        q = in.y > 0.0f ? 2.0f * s - in.x : 6.0f * s + in.x;
    }
    q = (q + 8.0f * s * floorf(power * fj::rand01(rng))) / power;
    float x, y;
    if (q <= s) {
        x = s;
        y = q;
    } else if (q <= 3.0f * s) {
        x = 2.0f * s - q;
        y = s;
    } else if (q <= 5.0f * s) {
        x = -s;
        y = 4.0f * s - q;
    } else if (q <= 7.0f * s) {
        x = q - 6.0f * s;
        y = -s;
    } else {
        x = s;
        y = 8.0f * s - q;
    }
    ox += w * x;
    oy += w * y;
}
