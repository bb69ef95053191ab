// @variation circlecrop
// @id 1128
// @origin Fractorium 1.0
// @param circlecrop_radius 1
// @param circlecrop_x 0
// @param circlecrop_y 0
// @param circlecrop_scatter_area 0
// @param circlecrop_zero 1
// @random 1
// Keeps the disc of radius `radius` about (x, y): a point inside moves to
// c + w·(p − c), c the centre (so the centre itself is not weighted). A
// point outside goes to 0 when zero is 1, else onto the circle of radius
// radius + u·scatter_area/2 (u uniform, drawn for every point) in its own
// direction from the centre, again c + w·(that offset). scatter_area is
// clamped to [−1, 1] and zero to [0, 1], and only a zero of 1 crops, as
// Fractorium's truncation to int makes it. As Fractorium computes it
// outside its flam3 compatibility mode; in that mode a plain use that
// crops to 0 also drops the sum of the variations before it. The centre
// itself, outside a negative radius, has no direction and goes along +x.
FJ_VARIATION(circlecrop) {
    const float cx = p[1], cy = p[2];
    const float dx = in.x - cx, dy = in.y - cy;
    const float rad = sqrtf(dx * dx + dy * dy);
    const float scatter = fminf(fmaxf(p[3], -1.0f), 1.0f);
    const float rdc = p[0] + fj::rand01(rng) * 0.5f * scatter;
    if (!(rad > p[0])) {
        ox += w * dx + cx;
        oy += w * dy + cy;
    } else if (fminf(fmaxf(p[4], 0.0f), 1.0f) < 1.0f) {
        const float c = rad > 0.0f ? dx / rad : 1.0f, s = rad > 0.0f ? dy / rad : 0.0f;
        ox += w * rdc * c + cx;
        oy += w * rdc * s + cy;
    }
}
