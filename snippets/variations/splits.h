// @variation splits
// @id 75
// @origin flam3 3.1.1
// @param splits_x 0
// @param splits_y 0
FJ_VARIATION(splits) {
    ox += w * (in.x >= 0.0f ? in.x + p[0] : in.x - p[0]);
    oy += w * (in.y >= 0.0f ? in.y + p[1] : in.y - p[1]);
}
