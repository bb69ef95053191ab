// @variation tanh
// @id 92
FJ_VARIATION(tanh) {
    const float d = 1.0f / (cosf(2.0f * in.y) + coshf(2.0f * in.x));
    ox += w * d * sinhf(2.0f * in.x);
    oy += w * d * sinf(2.0f * in.y);
}
