// @variation henon
// @id 1141
// @origin Fractorium 1.0
// @param henon_a 0.5
// @param henon_b 1
// One step of the Hénon map, (1 − a·x² + y, b·x), times the weight.
FJ_VARIATION(henon) {
    ox += w * (1.0f - p[0] * in.x * in.x + in.y);
    oy += w * p[1] * in.x;
}
