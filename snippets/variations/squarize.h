// @variation squarize
// @id 1022
// @origin Fractorium 1.0
// Circles to squares: a point at radius r goes to the square of half-width
// r, at the place along its perimeter (counterclockwise from (r, 0)) that
// its angle in [0, 2π) gives, a distance of 4r·angle/π along it.
FJ_VARIATION(squarize) {
    const float r = in.r;
    const float a = in.phi < 0.0f ? in.phi + FJ_2PI : in.phi;
    const float s = 4.0f * r * a * (1.0f / FJ_PI);
    float x, y;
    if (s <= r) {
        x = r;
        y = s;
    } else if (s <= 3.0f * r) {
        x = 2.0f * r - s;
        y = r;
    } else if (s <= 5.0f * r) {
        x = -r;
        y = 4.0f * r - s;
    } else if (s <= 7.0f * r) {
        x = s - 6.0f * r;
        y = -r;
    } else {
        x = r;
        y = s - 8.0f * r;
    }
    ox += w * x;
    oy += w * y;
}
