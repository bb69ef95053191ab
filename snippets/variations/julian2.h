// @variation julian2
// @id 1025
// @origin Fractorium 1.0
// @param julian2_a 1
// @param julian2_b 0
// @param julian2_c 0
// @param julian2_d 1
// @param julian2_e 0
// @param julian2_f 0
// @param julian2_power 2
// @param julian2_dist 1
// @random 1
// julian after an affine of its own: (x, y) → (a·x + b·y + e, c·x + d·y + f),
// then a random one of the |power| roots (as Fractorium outside its flam3
// compatibility mode: the root index is |power| times a uniform number,
// truncated, so a fractional power adds a partial root). A power of 0 reads
// as 2.
FJ_VARIATION(julian2) {
    const float power = p[6] == 0.0f ? 2.0f : p[6];
    const float x = p[0] * in.x + p[1] * in.y + p[4];
    const float y = p[2] * in.x + p[3] * in.y + p[5];
    const float r = w * fj::power(x * x + y * y, p[7] / power / 2.0f);
    const float root = (float)(int)(fabsf(power) * fj::rand01(rng));
    const float a = (fj::arctan2(y, x) + root * FJ_2PI) / power;
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
