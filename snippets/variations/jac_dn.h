// @variation jac_dn
// @id 1149
// @origin Fractorium 1.0
// @param jac_dn_k 0.5
// Jacobi's dn of the complex point, by the addition formula from real
// values: with s, c, d = sn, cn, dn(x | 1 − k) and s', c', d' = sn, cn,
// dn(y | k) (parameters, k clamped to [-1, 1] as Fractorium bounds it),
//   dn(z) = (d·c'·d' − i·k·s·c·s') / (c'² + k·s²·s'²).
// The textbook formula has 1 − k in both places where Fractorium has k, so
// this is the complex dn of parameter 1 − k only at the default k = 1/2;
// elsewhere it is Fractorium's variant, kept. A zero divisor (at the poles)
// gets float epsilon, as in Fractorium. Times the weight.

#include "shared/jacobi.h"

FJ_VARIATION(jac_dn) {
    const float k = fminf(fmaxf(p[0], -1.0f), 1.0f);
    float sx, cx, dx, sy, cy, dy;
    fj::jacobi_elliptic(in.x, k, sx, cx, dx);
    fj::jacobi_elliptic(in.y, 1.0f - k, sy, cy, dy);
    const float s = w / fj::zeps(sx * sx * sy * sy * k + cy * cy);
    ox += s * dx * cy * dy;
    oy -= s * k * cx * sx * sy;
}
