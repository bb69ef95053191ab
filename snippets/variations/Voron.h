// @variation Voron
// @id 1216
// @origin Fractorium 1.0
// @param Voron_K 0.99
// @param Voron_Step 0.25
// @param Voron_Num 1
// @param Voron_XSeed 3
// @param Voron_YSeed 7
// Voronoi cells: the plane is cut into squares `Step` across, each holding
// 1 + ⌊Num·h⌋ seed points (h a hash of the square, so 1 to Num + 1) at
// hashed places inside it; the point is pulled towards the nearest seed of
// its own and the eight neighbouring squares, to K·(point − seed) + seed,
// times the weight. A seed must be nearer than 20 to count; with none that
// near (a Step above about 5) the seed is the origin. The hash is the
// integer one of fj::grid_noise, of 19·m + 257·n + XSeed for the count and
// l + 64·m + 15·n + XSeed (l + 21·m + 33·n + YSeed) for seed l's x (y) in
// square (m, n). Num is a whole number in [1, 25], the seeds whole numbers,
// and a Step of 0 is float epsilon, as Fractorium stores them. The square's
// index is held to ±2^30 and the hash arguments wrap as unsigned integers:
// Fractorium's int overflows there (past 2^31 / 257 squares) and its float
// build rounds the seed's addition; within range both agree with this.

#include "shared/hashes.h"

FJ_VARIATION(Voron) {
    const float k = p[0];
    const float step = p[1] != 0.0f ? p[1] : FJ_FLT_EPSILON;
    const float num = fminf(fmaxf(floorf(p[2] + 0.5f), 1.0f), 25.0f);
    const fj::u32 xseed = (fj::u32)fj::int_like_x86(floorf(p[3] + 0.5f));
    const fj::u32 yseed = (fj::u32)fj::int_like_x86(floorf(p[4] + 0.5f));
    const float limit = 1073741824.0f;
    const int m = (int)fminf(fmaxf(floorf(in.x / step), -limit), limit);
    const int n = (int)fminf(fmaxf(floorf(in.y / step), -limit), limit);
    float nearest = 20.0f, sx = 0.0f, sy = 0.0f;
    for (int i = -1; i <= 1; ++i) {
        for (int j = -1; j <= 1; ++j) {
            const fj::u32 cm = (fj::u32)(m + i), cn = (fj::u32)(n + j);
            const int count = 1 + (int)floorf(num * fj::grid_noise(19u * cm + 257u * cn + xseed, 0u));
            for (int l = 0; l < count; ++l) {
                const fj::u32 ul = (fj::u32)l;
                const float px = (fj::grid_noise(ul + 64u * cm + 15u * cn + xseed, 0u) + (float)(m + i)) * step;
                const float py = (fj::grid_noise(ul + 21u * cm + 33u * cn + yseed, 0u) + (float)(n + j)) * step;
                const float dx = in.x - px, dy = in.y - py;
                const float d = sqrtf(dx * dx + dy * dy);
                if (d < nearest) {
                    nearest = d;
                    sx = px;
                    sy = py;
                }
            }
        }
    }
    ox += w * (k * (in.x - sx) + sx);
    oy += w * (k * (in.y - sy) + sy);
}
