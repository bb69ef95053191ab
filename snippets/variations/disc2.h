// @variation disc2
// @id 49
// @origin flam3 3.1.1
// @param disc2_rot 0
// @param disc2_twist 0
FJ_VARIATION(disc2) {
    const float twist = p[1];
    const float timespi = p[0] * FJ_PI;
    float sinadd = fj::sine(twist), cosadd = fj::cosine(twist) - 1.0f;
    // Beyond a full turn flam3 scales the twist offsets instead of wrapping them.
    if (twist > FJ_2PI) {
        const float k = 1.0f + twist - FJ_2PI;
        cosadd *= k;
        sinadd *= k;
    }
    if (twist < -FJ_2PI) {
        const float k = 1.0f + twist + FJ_2PI;
        cosadd *= k;
        sinadd *= k;
    }
    const float t = timespi * (in.x + in.y);
    const float r = w * in.theta / FJ_PI;
    ox += (fj::sine(t) + cosadd) * r;
    oy += (fj::cosine(t) + sinadd) * r;
}
