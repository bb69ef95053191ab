// @variation lens
// @id 1185
// @origin Fractorium 1.0
// The complex square halved, times the weight: (x² − y², 2xy)/2, which
// doubles every angle about the origin and squares the distance.
FJ_VARIATION(lens) {
    ox += 0.5f * (in.x * in.x - in.y * in.y) * w;
    oy += in.x * in.y * w;
}
