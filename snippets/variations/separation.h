// @variation separation
// @id 73
// @origin flam3 3.1.1
// @param separation_x 0
// @param separation_xinside 0
// @param separation_y 0
// @param separation_yinside 0
FJ_VARIATION(separation) {
    const float sx2 = p[0] * p[0], sy2 = p[2] * p[2];
    if (in.x > 0.0f) ox += w * (sqrtf(in.x * in.x + sx2) - in.x * p[1]);
    else ox -= w * (sqrtf(in.x * in.x + sx2) + in.x * p[1]);
    if (in.y > 0.0f) oy += w * (sqrtf(in.y * in.y + sy2) - in.y * p[3]);
    else oy -= w * (sqrtf(in.y * in.y + sy2) + in.y * p[3]);
}
