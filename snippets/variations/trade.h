// @variation trade
// @id 1110
// @origin Fractorium 1.0
// @param trade_r1 1
// @param trade_d1 1
// @param trade_r2 1
// @param trade_d2 1
// Two discs trade places: the right one, radius r1 centred at c1 = r1 + d1
// on the x axis, and the left one, radius r2 centred at −c2 = −(r2 + d2).
// A point of the right half plane inside the right disc goes to the left
// disc, its offset from the centre mirrored left to right and scaled by
// r2/r1; a point of the left half plane (x ≤ 0) inside the left disc goes
// the other way, scaled by r1/r2; every other point stays. Done twice it is
// the identity. Fractorium keeps the radii at least its epsilon and the
// gaps d1, d2 at least 0 (so each disc stays on its own side); its polar
// round trip through atan2 is the mirrored offset itself.
FJ_VARIATION(trade) {
    const float r1 = fmaxf(p[0], FJ_FLT_EPSILON), r2 = fmaxf(p[2], FJ_FLT_EPSILON);
    const float c1 = r1 + fmaxf(p[1], 0.0f), c2 = r2 + fmaxf(p[3], 0.0f);
    float x = in.x, y = in.y;
    if (in.x > 0.0f) {
        const float dx = c1 - in.x;
        if (sqrtf(dx * dx + in.y * in.y) <= r1) {
            const float k = r2 / r1;
            x = k * dx - c2;
            y = k * in.y;
        }
    } else {
        const float dx = -c2 - in.x;
        if (sqrtf(dx * dx + in.y * in.y) <= r2) {
            const float k = r1 / r2;
            x = k * dx + c1;
            y = k * in.y;
        }
    }
    ox += w * x;
    oy += w * y;
}
