// @variation mcarpet
// @id 1111
// @origin Fractorium 1.0
// @param mcarpet_x 0
// @param mcarpet_y 0
// @param mcarpet_twist 0
// @param mcarpet_tilt 0
// The point pulled into the disc of radius 2 as z/(1 + |z|²/4) (the
// stereographic squeeze), its coordinates scaled by x and y, plus a sheet
// bent by twist and tilted: (1 − twist·x² + y, tilt·x); all times the
// weight.
FJ_VARIATION(mcarpet) {
    const float squeeze = w / (0.25f * in.r2 + 1.0f);
    ox += in.x * squeeze * p[0] + w * (1.0f - p[2] * in.x * in.x + in.y);
    oy += in.y * squeeze * p[1] + w * p[3] * in.x;
}
