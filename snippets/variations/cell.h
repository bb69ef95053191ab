// @variation cell
// @id 58
// @param cell_size 1
FJ_VARIATION(cell) {
    const float size = p[0];
    const float inv = 1.0f / size;
    float x = floorf(in.x * inv), y = floorf(in.y * inv);
    const float dx = in.x - x * size, dy = in.y - y * size;
    // Interleave the four quadrants' cells into one.
    x = x >= 0.0f ? 2.0f * x : -(2.0f * x + 1.0f);
    y = y >= 0.0f ? 2.0f * y : -(2.0f * y + 1.0f);
    ox += w * (dx + x * size);
    oy -= w * (dy + y * size);
}
