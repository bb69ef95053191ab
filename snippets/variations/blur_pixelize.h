// @variation blur_pixelize
// @id 1056
// @origin Fractorium 1.0
// @param blur_pixelize_size 0.1
// @param blur_pixelize_scale 1
// @random 2
// Pixelation: the plane cut into square cells `size` wide, aligned with the
// origin; each point is replaced by a uniform point of a square `scale`
// cells wide centred on its own cell (scale 1: the cell itself), times the
// weight. Fractorium holds the size at FLT_EPSILON or more, which keeps the
// cell width from 0 or a negative; the same clamp is done here.
FJ_VARIATION(blur_pixelize) {
    const float size = fmaxf(p[0], FJ_FLT_EPSILON), scale = p[1];
    const float inv = 1.0f / size;
    const float cx = floorf(in.x * inv), cy = floorf(in.y * inv);
    const float v = w * size;
    ox += v * (cx + scale * (fj::rand01(rng) - 0.5f) + 0.5f);
    oy += v * (cy + scale * (fj::rand01(rng) - 0.5f) + 0.5f);
}
