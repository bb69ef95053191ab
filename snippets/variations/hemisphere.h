// @variation hemisphere
// @id 1007
// @origin Fractorium 1.0 (x, y)
// The plane onto a hemisphere, seen from above: (x, y) / sqrt(x² + y² + 1).
// Fractorium's z (the height) shows only through its 3D camera, which the
// reader refuses.
FJ_VARIATION(hemisphere) {
    const float t = w / sqrtf(in.r2 + 1.0f);
    ox += in.x * t;
    oy += in.y * t;
}
