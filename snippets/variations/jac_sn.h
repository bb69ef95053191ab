// @variation jac_sn
// @id 1150
// @origin Fractorium 1.0
// @param jac_sn_k 0.5
// Jacobi's sn of the complex point, by the addition formula from real
// values: with s, c, d = sn, cn, dn(x | 1 − k) and s', c', d' = sn, cn,
// dn(y | k) (parameters, k clamped to [-1, 1] as Fractorium bounds it),
//   sn(z) = (s·d' + i·c·d·s'·c') / (c'² + k·s²·s'²).
// The textbook divisor has 1 − k where Fractorium has k, so this is the
// complex sn of parameter 1 − k only at the default k = 1/2; elsewhere it is
// Fractorium's variant, kept. A zero divisor (at the poles) gets float
// epsilon, as in Fractorium. Times the weight.

#include "shared/jacobi.h"

FJ_VARIATION(jac_sn) {
    const float k = fminf(fmaxf(p[0], -1.0f), 1.0f);
    float sx, cx, dx, sy, cy, dy;
    fj::jacobi_elliptic(in.x, k, sx, cx, dx);
    fj::jacobi_elliptic(in.y, 1.0f - k, sy, cy, dy);
    const float s = w / fj::zeps(sx * sx * sy * sy * k + cy * cy);
    ox += s * sx * dy;
    oy += s * cx * dx * cy * sy;
}
