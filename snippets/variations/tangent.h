// @variation tangent
// @id 42
FJ_VARIATION(tangent) {
    ox += w * sinf(in.x) / cosf(in.y);
    oy += w * tanf(in.y);
}
