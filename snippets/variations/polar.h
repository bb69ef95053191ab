// @variation polar
// @id 5
// @origin flam3 3.1.1
FJ_VARIATION(polar) {
    ox += w * in.theta * (1.0f / FJ_PI);
    oy += w * (in.r - 1.0f);
}
