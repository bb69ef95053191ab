// @variation Truchet_hex_crop
// @id 1224
// @origin Fractorium 1.0
// @param Truchet_hex_crop_wd 0.2
// @param Truchet_hex_crop_mode 0
// @param Truchet_hex_crop_inv 0
// @param Truchet_hex_crop_seed 0
// @random 1
// Crops a hexagonal Truchet pattern out of the plane: the plane is cut into
// pointy-top hexagons of circumradius 1 (by rounding cube coordinates), and
// in each the point's nearest of three alternate corners (the first at 30°
// from the centre, or at 90° in a turned cell) is the centre of a band of
// radii 0.5 ± wd. A point on the band (with inv set: off the band) is
// moved, by mode: 0 to its hexagon's centre, 1 to the corner, 2 to the
// band's inner or outer edge (one draw, even odds) straight out from the
// corner. Every other point stays where it is. Times the weight. A cell is
// turned when seed is 1 and its cube coordinates X and Z are both even, or
// when seed is at least 2 and the shader hash (fj::shader_hash) of its
// centre is below 1/2. wd is held to [0, 5] and mode, inv and seed are
// whole numbers (mode held to [0, 2], inv to [0, 1]), as Fractorium stores
// them.

#include "shared/hashes.h"

FJ_VARIATION(Truchet_hex_crop) {
    const float wd = fminf(fmaxf(p[0], 0.0f), 5.0f);
    const float mode = fminf(fmaxf(floorf(p[1] + 0.5f), 0.0f), 2.0f);
    const bool inv = fminf(fmaxf(floorf(p[2] + 0.5f), 0.0f), 1.0f) != 0.0f;
    const float seed = floorf(p[3] + 0.5f);
    const float third = in.y / 3.0f;
    const float cx = 0.57735027f * in.x - third, cz = 2.0f * third, cy = -cx - cz;
    float rx = roundf(cx), ry = roundf(cy), rz = roundf(cz);
    const float ex = fabsf(rx - cx), ey = fabsf(ry - cy), ez = fabsf(rz - cz);
    if (ex > ey && ex > ez) {
        rx = -ry - rz;
    } else if (ey > ez) {
        ry = -rx - rz;
    } else {
        rz = -rx - ry;
    }
    // The centre is formed step by step: the shader hash magnifies its last bits.
    const float hx = fj::add_rn(fj::mul_rn(1.7320508f, rx), fj::mul_rn(0.8660254f, rz));
    const float hy = 1.5f * rz;
    float fx = in.x - hx, fy = in.y - hy;
    bool turned = false;
    if (seed == 1.0f) {
        turned = ((fj::int_like_x86(rx) | fj::int_like_x86(rz)) & 1) == 0;
    } else if (seed >= 2.0f) {
        turned = fj::shader_hash(hx, hy, seed) < 0.5f;
    }
    const float add = turned ? FJ_PI / 3.0f : 0.0f;
    const float angle = fj::arctan2(fy, fx) + FJ_PI / 6.0f - add;
    const float corner = floorf(angle * (1.5f / FJ_PI)) * (FJ_PI / 1.5f) + FJ_PI / 6.0f + add;
    const float x0 = fj::cosine(corner), y0 = fj::sine(corner);
    const float dist = sqrtf((fx - x0) * (fx - x0) + (fy - y0) * (fy - y0));
    const float outer = 0.5f + wd, inner = 0.5f - wd;
    const bool on_band = dist < outer && dist > inner;
    const bool off_band = dist > outer || dist < inner;
    if (inv ? off_band : on_band) {
        if (mode == 0.0f) {
            fx = 0.0f;
            fy = 0.0f;
        } else if (mode == 1.0f) {
            fx = x0;
            fy = y0;
        } else {
            const float out = fj::arctan2(fy - y0, fx - x0);
            const float d = fj::rand01(rng) < 0.5f ? outer : inner;
            fx = x0 + fj::cosine(out) * d;
            fy = y0 + fj::sine(out) * d;
        }
    }
    ox += (fx + hx) * w;
    oy += (fy + hy) * w;
}
