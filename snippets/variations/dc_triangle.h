// @variation dc_triangle
// @id 1014
// @origin Fractorium 1.0
// @param dc_triangle_scatter_area 0
// @param dc_triangle_zero_edges 0
// @random 2
// @color
// Direct colour in a triangle spanned by the xform's own affine, read as
// Fractorium reads it here: corner (e, f), edges (a, b) and (−c, −d). The
// point's barycentric coordinates (u, v) are clamped into the triangle; a
// point outside is then scattered back in by up to scatter_area (clamped to
// [−1, 1]), or sent to the corner when zero_edges is set (Fractorium rounds
// it to 0 or 1). The point becomes the triangle's point at (u, v) and the
// colour index u + v, its magnitude wrapped into [0, 1).

// Back onto the far edge u + v = 1, keeping the larger coordinate (at most 1).
FJ_HD FJ_INLINE void fj_dc_triangle_onto_far_edge(float& u, float& v) {
    if (u > v) {
        u = fminf(u, 1.0f);
        v = 1.0f - u;
    } else {
        v = fminf(v, 1.0f);
        u = 1.0f - v;
    }
}

FJ_VARIATION(dc_triangle) {
    const float ex = in.aff->a, ey = in.aff->b, fx = -in.aff->c, fy = -in.aff->d;
    const float cx = in.aff->e, cy = in.aff->f;
    const float px = in.x - cx, py = in.y - cy;
    const float ee = ex * ex + ey * ey, ef = ex * fx + ey * fy, ep = ex * px + ey * py;
    const float ff = fx * fx + fy * fy, fp = fx * px + fy * py;
    const float denom = ee * ff - ef * ef;
    float u = (ff * ep - ef * fp) / denom, v = (ee * fp - ef * ep) / denom;
    const float scatter = fminf(fmaxf(p[0], -1.0f), 1.0f);
    bool inside = false;
    float towards = 1.0f;
    if (u + v > 1.0f) {
        towards = -1.0f;
        fj_dc_triangle_onto_far_edge(u, v);
    } else if (u < 0.0f || v < 0.0f) {
        u = fminf(fmaxf(u, 0.0f), 1.0f);
        v = fminf(fmaxf(v, 0.0f), 1.0f);
    } else {
        inside = true;
    }
    if (!inside) {
        if (fminf(fmaxf(floorf(p[1] + 0.5f), 0.0f), 1.0f) != 0.0f) {
            u = v = 0.0f;
        } else {
            u = fminf(fmaxf(u + fj::rand01(rng) * scatter * towards, -1.0f), 1.0f);
            v = fminf(fmaxf(v + fj::rand01(rng) * scatter * towards, -1.0f), 1.0f);
            if (u + v > 1.0f && scatter > 0.0f) fj_dc_triangle_onto_far_edge(u, v);
        }
    }
    ox += w * (cx + u * ex + v * fx);
    oy += w * (cy + u * ey + v * fy);
    color = fj::modulo(fabsf(u + v), 1.0f);
}
