// @variation rectangles
// @id 40
// @origin flam3 3.1.1
// @param rectangles_x 1
// @param rectangles_y 1
FJ_VARIATION(rectangles) {
    const float rx = p[0], ry = p[1];
    ox += w * (rx == 0.0f ? in.x : (2.0f * floorf(in.x / rx) + 1.0f) * rx - in.x);
    oy += w * (ry == 0.0f ? in.y : (2.0f * floorf(in.y / ry) + 1.0f) * ry - in.y);
}
