// @variation circlecrop2
// @id 1129
// @origin Fractorium 1.0
// @param circlecrop2_inner 0.5
// @param circlecrop2_outer 1
// @param circlecrop2_zero 1
// Keeps the annulus between the radii inner and outer (either order),
// times the weight. A point outside it goes to 0 unless zero is 0 (zero is
// clamped to [0, 1]; any other value crops); with zero 0 it goes to the
// outer circle at w·outer·(sin φ, cos φ), φ its angle: Fractorium puts the
// sine in x, so the circle point is the point's direction mirrored in the
// line y = x, and so does this. The origin's angle is 0 (it lands on +y).
FJ_VARIATION(circlecrop2) {
    const float lo = fminf(p[0], p[1]), hi = fmaxf(p[0], p[1]);
    if (in.r > hi || in.r < lo) {
        if (fminf(fmaxf(p[2], 0.0f), 1.0f) == 0.0f) {
            const float k = w * hi;
            ox += in.r > 0.0f ? k * in.y / in.r : 0.0f;
            oy += in.r > 0.0f ? k * in.x / in.r : k;
        }
    } else {
        ox += w * in.x;
        oy += w * in.y;
    }
}
