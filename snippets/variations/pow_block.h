// @variation pow_block
// @id 1231
// @origin Fractorium 1.0
// @param pow_block_numerator 3
// @param pow_block_denominator 2
// @param pow_block_root 1
// @param pow_block_correctn 1
// @param pow_block_correctd 1
// @random 1
// A rational power of the point, one of its branches at random: radius
// weight·r^power with power = numerator / (denominator·correctn/correctd),
// angle numerator·(angle + root·2π·k)/denominator with k = ⌊u·denominator⌋
// (u uniform; for a whole positive denominator a uniform choice of its
// branches, root scaling the turn between them). Divisions by a zero
// denominator, or by a zero denominator·correctn/correctd, go through
// float epsilon, as in Fractorium. correctd 0 gives the power 0 (the radius
// is the weight), Fractorium's value, also where denominator or correctn is
// 0 too and Fractorium's 0·∞ would be NaN.
FJ_VARIATION(pow_block) {
    const float num = p[0], den = p[1];
    const float power = p[4] != 0.0f ? num / fj::zeps(den * p[3] / p[4]) : 0.0f;
    const float inv_den = 1.0f / fj::zeps(den);
    const float k = floorf(fj::rand01(rng) * den);
    const float a = (in.phi * inv_den + p[2] * FJ_2PI * k * inv_den) * num;
    const float r = w * fj::power(in.r2, 0.5f * power);
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
