// @variation polar2
// @id 70
// @origin flam3 3.1.1
FJ_VARIATION(polar2) {
    const float k = w / FJ_PI;
    ox += k * in.theta;
    oy += 0.5f * k * logf(in.r2);
}
