// @variation waves42
// @id 1098
// @origin Fractorium 1.0
// @param waves42_scalex 0.05
// @param waves42_scaley 0.05
// @param waves42_freqx 7
// @param waves42_freqy 13
// @param waves42_cont 0
// @param waves42_yfact 0.1
// @param waves42_freqx2 1
// waves4 with bands of its own width: the hashed index is k = ⌊freqx2·y⌋
// instead of the wave's period. h = the fractional part (truncated towards
// zero, so in (-1, 1)) of 43758.5453·sin(12.9898·k + 78.233·k + 1 +
// 0.001·yfact·y); x moves by scalex·h²·sin(freqx·y), y by
// scaley·sin(freqy·x). cont (a whole number in [0, 1], rounded) 1 turns h
// into 1 where it exceeds 1/2 and 0 elsewhere. The hash magnifies its
// sine's last bits 43758 times: which height a band gets depends on the
// float arithmetic, as in Fractorium (fj::hash_sine gives both backends
// the same; the argument follows Fractorium's order).

#include "shared/hashes.h"

FJ_VARIATION(waves42) {
    const float k = floorf(in.y * p[6]);
    const float h = fj::hashed_height(k, in.y, p[5], p[4]);
    ox += w * (in.x + fj::sine(in.y * p[2]) * h * h * p[0]);
    oy += w * (in.y + fj::sine(in.x * p[3]) * p[1]);
}
