// @variation log_db
// @id 1234
// @origin Fractorium 1.0
// @param log_db_base 1
// @param log_db_fix_period 1
// @random 7
// The complex logarithm spread over several of its branches: x is
// weight·ln r / ln(e·base) (weight·ln r where base is not above float
// epsilon), y is weight·(angle + π·period·m) with period fix_period (1
// where fix_period is not above float epsilon) and m a random whole
// number: the sum of seven draws, each −2, −1, 1 or 2 with probability
// 1/10 and 0 with probability 6/10, each a draw of 0..9 as Fractorium
// makes it (the 32-bit number times 10, over 2^32) less 5, kept only when
// within 2 of 0. A base of 1/e, where ln(e·base) is 0 and Fractorium's x
// infinite, divides through float epsilon instead.
FJ_VARIATION(log_db) {
    const float denom = p[0] > FJ_FLT_EPSILON ? 0.5f / fj::zeps(logf(2.71828182845904523536f * p[0])) : 0.5f;
    const float period = p[1] > FJ_FLT_EPSILON ? FJ_PI * p[1] : FJ_PI;
    int m = 0;
    for (int i = 0; i < 7; ++i) {
        const int d = (int)(((fj::u64)fj::next_u32(rng) * 10u) >> 32) - 5;
        m += d >= -2 && d <= 2 ? d : 0;
    }
    ox += w * denom * logf(in.r2);
    oy += w * (in.phi + period * (float)m);
}
