// @variation modulusy
// @id 1108
// @origin Fractorium 1.0
// @param modulusy_y 1
// @param modulusy_shift 0
// modulusx across the other axis: y + shift wrapped modulo 2·y_param into
// [−Y, Y) for Y > 0, into [|Y|, 3|Y|) or (−3|Y|, −|Y|] by the sign of
// y + Y + shift for Y < 0; x is kept. A zero Y (Fractorium's division by
// zero) gives the band's width-0 limit, y = 0.
FJ_VARIATION(modulusy) {
    const float band = p[0];
    if (band != 0.0f) {
        const float f = fj::modulo(in.y + band + p[1], 2.0f * band);
        oy += w * (f >= 0.0f ? f - band : f + band);
    }
    ox += w * in.x;
}
