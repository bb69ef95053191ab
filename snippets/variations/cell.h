// @variation cell
// @id 58
// @origin flam3 3.1.1
// @param cell_size 1
// flam3 does the cell arithmetic in C ints; a zero size gives INT_MIN cells
// whose doubling wraps, and flames rely on the result, so do the same here.
FJ_VARIATION(cell) {
    const float size = p[0];
    const float inv = 1.0f / size;
    const fj::u32 cx = (fj::u32)fj::int_like_x86(floorf(in.x * inv));
    const fj::u32 cy = (fj::u32)fj::int_like_x86(floorf(in.y * inv));
    const float dx = in.x - (float)(int)cx * size, dy = in.y - (float)(int)cy * size;
    // Interleave the four quadrants' cells into one.
    const int x = (int)cx >= 0 ? (int)(2u * cx) : (int)(0u - (2u * cx + 1u));
    const int y = (int)cy >= 0 ? (int)(2u * cy) : (int)(0u - (2u * cy + 1u));
    ox += w * (dx + (float)x * size);
    oy -= w * (dy + (float)y * size);
}
