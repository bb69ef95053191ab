// @variation Kaleidoscope
// @id 1082
// @origin Fractorium 1.0
// @param Kaleidoscope_pull 0
// @param Kaleidoscope_rotate 1
// @param Kaleidoscope_line_up 1
// @param Kaleidoscope_x 0
// @param Kaleidoscope_y 0
// The plane turned by 45° (with `rotate` scaling the point's own
// contribution), then split in two along y = 0: the upper half is pushed up
// by pull + line_up and moved by (x, y), the lower half pushed down by the
// same and not moved; x moves by line_up + x on both. As in Fractorium the
// weight does not scale the result.
FJ_VARIATION(Kaleidoscope) {
    (void)w;
    const float pull = p[0], rotate = p[1], line_up = p[2];
    const float c = 0.70710678118654752f;  // sin 45° and cos 45°
    const float tx = rotate * in.x * c - in.y * c, ty = rotate * in.y * c + in.x * c;
    ox += tx + line_up + p[3];
    oy += in.y > 0.0f ? ty + pull + line_up + p[4] : ty - pull - line_up;
}
