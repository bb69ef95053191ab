// @variation barycentroid
// @id 1159
// @origin Fractorium 1.0
// @param barycentroid_a 1
// @param barycentroid_b 0
// @param barycentroid_c 0
// @param barycentroid_d 1
// The point's coordinates (u, v) in the basis (a, b), (c, d), found as
// barycentric coordinates are, from dot products, then each combined with
// the input: (sign(u)·√(u² + x²), sign(v)·√(v² + y²)), times the weight
// (sign 0 at 0). With the default basis u = x and v = y, so the point is
// scaled by √2. A degenerate basis (parallel vectors) divides by float
// epsilon instead of 0, as in Fractorium.
FJ_VARIATION(barycentroid) {
    const float a = p[0], b = p[1], c = p[2], d = p[3];
    const float d00 = a * a + b * b, d01 = a * c + b * d, d11 = c * c + d * d;
    const float d02 = a * in.x + b * in.y, d12 = c * in.x + d * in.y;
    const float inv = 1.0f / fj::zeps(d00 * d11 - d01 * d01);
    const float u = (d11 * d02 - d01 * d12) * inv, v = (d00 * d12 - d01 * d02) * inv;
    const float su = u > 0.0f ? 1.0f : (u < 0.0f ? -1.0f : 0.0f);
    const float sv = v > 0.0f ? 1.0f : (v < 0.0f ? -1.0f : 0.0f);
    ox += w * su * sqrtf(u * u + in.x * in.x);
    oy += w * sv * sqrtf(v * v + in.y * in.y);
}
