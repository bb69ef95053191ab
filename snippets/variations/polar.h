// @variation polar
// @id 5
FJ_VARIATION(polar) {
    ox += w * in.theta * (1.0f / FJ_PI);
    oy += w * (in.r - 1.0f);
}
