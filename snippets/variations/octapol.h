// @variation octapol
// @id 1131
// @origin Fractorium 1.0
// @param octapol_polarweight 0
// @param octapol_radius 1
// @param octapol_s 0.5
// @param octapol_t 0.5
// @reads sum
// An octagon of the point scaled by 0.15, q = 0.15·p: |s| the side of its
// central square, |t| how far the octagon reaches beyond it. In the central
// disc of radius |s|·|radius|/√2 the point is blended towards its polar
// coordinates (angle, radius) by polarweight·log((r/R)²); in one of the
// four corner triangles it is kept; anywhere else it is cropped. Each
// result is then added to q itself, times the weight: w·q + w·(the blend,
// q or 0). A cropped point also drops the sum of the variations before it
// (a plain use; Fractorium's pre_ and post_ uses replace the point anyway),
// so it is read as a plain use only. Fractorium's four side rectangles of
// the octagon are given their corners in an order that leaves them empty,
// or a segment where s or t is 0, and so are they here. At the origin, in
// the disc, the log is −∞ and Fractorium's blend 0·∞; this takes the blend
// as 0 (both ends of it are 0 there).
FJ_HD FJ_INLINE bool fj_octapol_rect(float lx, float ly, float hx, float hy, float x, float y) {
    return x >= lx && y >= ly && x <= hx && y <= hy;
}

// Strictly inside the triangle a, b, c by barycentric coordinates, as
// Fractorium tests it (a degenerate triangle holds nothing).
FJ_HD FJ_INLINE bool fj_octapol_tri(float ax, float ay, float bx, float by, float cx, float cy, float x, float y) {
    const float v0x = cx - ax, v0y = cy - ay, v1x = bx - ax, v1y = by - ay, v2x = x - ax, v2y = y - ay;
    const float d00 = v0x * v0x + v0y * v0y, d01 = v0x * v1x + v0y * v1y, d02 = v0x * v2x + v0y * v2y;
    const float d11 = v1x * v1x + v1y * v1y, d12 = v1x * v2x + v1y * v2y;
    const float den = d00 * d11 - d01 * d01;
    if (den == 0.0f) return false;
    const float u = (d11 * d02 - d01 * d12) / den, v = (d00 * d12 - d01 * d02) / den;
    return u + v < 1.0f && u > 0.0f && v > 0.0f;
}

FJ_VARIATION(octapol) {
    const float x = 0.15f * in.x, y = 0.15f * in.y;
    const float s = fabsf(p[2]), t = fabsf(p[3]), h = 0.5f * s, st = h + t;
    const float rad = 0.707106781f * s * fabsf(p[1]);
    float bx = 0.0f, by = 0.0f;
    bool crop = false;
    const float r = sqrtf(x * x + y * y);
    if (rad > 0.0f && r <= rad) {
        // log((r/R)²) as 2·log(r/R): the square underflows first.
        const float k = r > 0.0f ? 2.0f * logf(r / rad) * p[0] : 0.0f;
        bx = w * (x + (fj::arctan2(y, x) - x) * k);
        by = w * (y + (r - y) * k);
    } else if (fabsf(x) <= st && fabsf(y) <= st) {
        // Corners: A (−h, h+t), B (h, h+t), C (t, h), D (t, −h), E (h, −h−t),
        // F (−h, −h−t), G (−t, −h), H (−t, h); I (−h, h), J (h, h),
        // K (−h, −h), L (h, −h) those of the central square.
        const bool hit = fj_octapol_rect(-t, h, -h, -h, x, y) || fj_octapol_rect(h, h, t, -h, x, y) ||
                         fj_octapol_rect(-h, h + t, h, h, x, y) || fj_octapol_rect(-h, -h, h, -h - t, x, y) ||
                         fj_octapol_tri(-h, h, -h, h + t, -t, h, x, y) || fj_octapol_tri(h, h, h, h + t, t, h, x, y) ||
                         fj_octapol_tri(h, -h, t, -h, h, -h - t, x, y) ||
                         fj_octapol_tri(-h, -h, -h, -h - t, -t, -h, x, y);
        if (hit) {
            bx = w * x;
            by = w * y;
        } else {
            crop = true;
        }
    } else {
        crop = true;
    }
    if (crop) {
        ox = 0.0f;
        oy = 0.0f;
    }
    ox += bx + w * x;
    oy += by + w * y;
}
