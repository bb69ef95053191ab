// @variation boarders
// @id 56
// @origin flam3 3.1.1
// @random 1
FJ_VARIATION(boarders) {
    const float rx = rintf(in.x), ry = rintf(in.y);
    const float dx = in.x - rx, dy = in.y - ry;
    float nx, ny;
    if (fj::rand01(rng) >= 0.75f) {
        nx = dx * 0.5f + rx;
        ny = dy * 0.5f + ry;
    } else if (fabsf(dx) >= fabsf(dy)) {
        const float s = dx >= 0.0f ? 0.25f : -0.25f;
        nx = dx * 0.5f + rx + s;
        ny = dy * 0.5f + ry + s * dy / dx;
    } else {
        const float s = dy >= 0.0f ? 0.25f : -0.25f;
        ny = dy * 0.5f + ry + s;
        nx = dx * 0.5f + rx + s * dx / dy;
    }
    ox += w * nx;
    oy += w * ny;
}
