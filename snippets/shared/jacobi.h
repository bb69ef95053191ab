// flamejit — Jacobi's elliptic functions of a real argument, for the jac_*
// variations.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Device code under fj_device.h's rules, included by the snippets that use
// it; a generated kernel holds it once, ahead of them.
#pragma once

#include "fj_device.h"

namespace fj {

// Jacobi's elliptic functions sn, cn and dn of a real u, for Fractorium's
// jac_* variations, which give the parameter m = k² (k the modulus) by its
// complement mc = 1 − m, any real number. Descending Landen (Gauss)
// transformations carry m towards 0: with k' = √mc, the next level has
// modulus k₁ = (1 − k')/(1 + k') = m/(1 + k')² (the second form does not
// cancel for small m), complementary modulus k₁' = 2√k'/(1 + k') (formed
// from k', so it does not round to 0 when mc is tiny), and the argument
// divided by 1 + k₁. The parameter roughly squares at each level; once it is
// below 1e-8 the functions are sin, cos and 1 to float precision. Climbing
// back, each level gives, with t = k₁·sn²,
//   sn ← (1 + k₁)·sn/(1 + t),  cn ← cn·dn/(1 + t),  dn ← (1 − t)/(1 + t),
// the last being the textbook (dn² − 1 + k₁)/(1 + k₁ − dn²) with
// dn² = 1 − k₁²·sn² put in, which keeps it from cancelling. The identities
// are analytic in m, so they hold for negative m too (k' > 1, k₁ < 0).
// m > 1 (mc < 0) goes through the reciprocal modulus: sn(u|m) =
// sn(u√m | 1/m)/√m, with cn and dn trading places. mc = 0 is the limit
// tanh, sech, sech. Ten levels cover every float mc (the smallest
// positive one needs eight); the loops have fixed bounds so that the device
// can keep the moduli in registers.
FJ_HD FJ_INLINE void jacobi_elliptic(float u, float mc, float& sn, float& cn, float& dn) {
    if (mc == 0.0f) {
        float sh, ch;
        sinh_cosh(u, sh, ch);
        sn = tanhf(u);
        cn = 1.0f / ch;
        dn = cn;
        return;
    }
    const bool reciprocal = mc < 0.0f;
    float m = 1.0f - mc, kp2 = mc, root = 1.0f;
    if (reciprocal) {
        root = sqrtf(m);
        u *= root;
        kp2 = -mc / m;
        m = 1.0f / m;
    }
    const int kLevels = 10;
    float k[kLevels];
    int levels = 0;
    float kp = sqrtf(kp2);
    for (int i = 0; i < kLevels; ++i) {
        if (fabsf(m) < 1e-8f) break;
        const float q = 1.0f + kp;
        k[i] = m / (q * q);
        u /= 1.0f + k[i];
        kp = 2.0f * sqrtf(kp) / q;
        m = k[i] * k[i];
        levels = i + 1;
    }
    float s = fj::sine(u), c = fj::cosine(u), d = 1.0f;
    for (int i = kLevels - 1; i >= 0; --i) {
        if (i >= levels) continue;
        const float t = k[i] * s * s, den = 1.0f + t;
        const float ns = (1.0f + k[i]) * s / den;
        c = c * d / den;
        d = (1.0f - t) / den;
        s = ns;
    }
    if (reciprocal) {
        sn = s / root;
        cn = d;
        dn = c;
    } else {
        sn = s;
        cn = c;
        dn = d;
    }
}

}  // namespace fj
