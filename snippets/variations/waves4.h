// @variation waves4
// @id 1095
// @origin Fractorium 1.0
// @param waves4_scalex 0.05
// @param waves4_scaley 0.05
// @param waves4_freqx 7
// @param waves4_freqy 13
// @param waves4_cont 0
// @param waves4_yfact 0.1
// waves2 whose x waves get a pseudo-random height per period: the period's
// index k = ⌊freqx·y/2π⌋ goes through the familiar shader hash, h = the
// fractional part (truncated towards zero, so in (-1, 1)) of
// 43758.5453·sin(12.9898·k + 78.233·k + 1 + 0.001·yfact·y), and x moves by
// scalex·h²·sin(freqx·y). cont (a whole number in [0, 1], rounded) 1 turns
// h into 1 where it exceeds 1/2 and 0 elsewhere. y moves by
// scaley·sin(freqy·x). The hash magnifies its sine's last bits 43758 times:
// which height a period gets depends on the float arithmetic, as it does in
// Fractorium (fj::hash_sine gives both backends the same; the argument
// follows Fractorium's order).

#include "shared/hashes.h"

FJ_VARIATION(waves4) {
    const float k = floorf(in.y * p[2] / FJ_2PI);
    const float h = fj::hashed_height(k, in.y, p[5], p[4]);
    ox += w * (in.x + fj::sine(in.y * p[2]) * h * h * p[0]);
    oy += w * (in.y + fj::sine(in.x * p[3]) * p[1]);
}
