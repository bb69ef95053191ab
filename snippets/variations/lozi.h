// @variation lozi
// @id 1142
// @origin Fractorium 1.0
// @param lozi_a 0.5
// @param lozi_b 1
// One step of the Lozi map, the piecewise-linear Hénon map:
// (1 − a·|x| + y, b·x), times the weight.
FJ_VARIATION(lozi) {
    ox += w * (1.0f - p[0] * fabsf(in.x) + in.y);
    oy += w * p[1] * in.x;
}
