// @variation dc_perlin
// @id 1170
// @origin Fractorium 1.0
// @param dc_perlin_shape 0
// @param dc_perlin_map 0
// @param dc_perlin_select_centre 0
// @param dc_perlin_select_range 1
// @param dc_perlin_centre 0.25
// @param dc_perlin_range 0.25
// @param dc_perlin_edge 0
// @param dc_perlin_scale 1
// @param dc_perlin_octaves 2
// @param dc_perlin_amps 2
// @param dc_perlin_freqs 2
// @param dc_perlin_z 0
// @param dc_perlin_select_bailout 10
// @color
// @random 3
// A blur coloured by fractal noise: a random point of a square (shape 0), a
// disc with a tent-shaped radius (1) or a disc (2), grown by `edge` and
// carried onto a surface by `map` (0 flat, 1 spherical inversion, 2 and 3
// softened inversions, 4 and 5 bubbles lifted in z), is weighted by
// octaves of simplex noise there; points whose noise, sharpened towards the
// shape's edge, falls outside the band select_centre ± select_range are
// drawn again, up to select_bailout more times. The point lands at
// weight·(x, y); its colour index becomes the fraction of centre +
// range·noise. The input point is not used. Each try draws 2 numbers
// (square) or 3 (discs).
// Integer parameters round to the nearest and are held to Fractorium's
// bounds (shape 0–2, map 0–5, octaves 1–5, bailout 2–1000), as are
// select_centre (±1) and select_range (0.1–2). Each octave scales x twice
// by freqs and leaves z alone, as Fractorium's octave loop does. The noise
// is fj::simplex_noise, not Fractorium's tables (see crackle): the same
// kind of picture, other values.

#include "shared/noise.h"

FJ_VARIATION(dc_perlin) {
    const int shape = (int)fminf(fmaxf(floorf(p[0] + 0.5f), 0.0f), 2.0f);
    const int map = (int)fminf(fmaxf(floorf(p[1] + 0.5f), 0.0f), 5.0f);
    const float select_centre = fminf(fmaxf(p[2], -1.0f), 1.0f), select_range = fminf(fmaxf(p[3], 0.1f), 2.0f);
    const float centre = p[4], range = p[5], edge = p[6], scale = p[7];
    const int octaves = (int)fminf(fmaxf(floorf(p[8] + 0.5f), 1.0f), 5.0f);
    const float amps = p[9], freqs = p[10], z = p[11];
    const int bailout = (int)fminf(fmaxf(floorf(p[12] + 0.5f), 2.0f), 1000.0f);
    // The band of accepted values, widened as Fractorium widens it.
    float bottom = fminf(select_centre - select_range, 0.75f);
    if (bottom < -2.0f) bottom = -3.0f;
    float top = fmaxf(select_centre + select_range, -0.75f);
    if (top > 3.0f) top = 3.0f;
    float vx, vy, noise, e;
    int tries = 0;
    do {
        float r;
        e = 0.0f;
        if (shape == 0) {
            vx = (1.0f + edge) * (fj::rand01(rng) - 0.5f);
            vy = (1.0f + edge) * (fj::rand01(rng) - 0.5f);
            r = fmaxf(fabsf(vx), fabsf(vy));
        } else {
            if (shape == 1) {
                r = fj::rand01(rng) + fj::rand01(rng);
                if (r > 1.0f) r = 2.0f - r;
                r *= 1.0f + edge;
            } else {
                r = (1.0f + edge) * fj::rand01(rng);
            }
            const float a = fj::rand01(rng) * FJ_2PI;
            vx = 0.5f * r * fj::sine(a);
            vy = 0.5f * r * fj::cosine(a);
        }
        if (r > 1.0f - edge) e = 0.5f * (r - 1.0f + edge) / edge;
        const float q = vx * vx + vy * vy;
        float nx = scale * vx, ny = scale * vy, nz = scale * z;
        if (map >= 1 && map <= 3) {
            const float inv = map == 1 ? 1.0f / fj::zeps(q) : 1.0f / (q + (map == 2 ? 0.5f : 0.25f));
            nx *= inv;
            ny *= inv;
        } else if (map >= 4) {
            const float lift = sqrtf(fabsf(0.25f - q));
            nz = scale * ((map == 4 ? lift : 2.0f * lift) + z);
        }
        noise = 0.0f;
        float amp = 1.0f;
        for (int o = 0; o < octaves; ++o) {
            noise += fj::simplex_noise(nx, ny, nz) / fj::zeps(amp);
            amp *= amps;
            nx *= freqs;
            ny *= freqs;
            nx *= freqs;
        }
        const float sharp = noise * (1.0f + 20.0f * e * e);
        e = noise > 0.0f ? sharp + 2.0f * e : sharp - 2.0f * e;
    } while ((e < bottom || e > top) && tries++ < bailout);
    ox += w * vx;
    oy += w * vy;
    const float col = centre + range * noise;
    color = col - floorf(col);
}
