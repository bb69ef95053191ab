// @variation starblur
// @id 1058
// @origin Fractorium 1.0
// @param starblur_power 5
// @param starblur_range 0.4016228317
// @random 2
// @assign sum
// A filled star of `power` points, whatever the input: tips at radius
// |weight|, the corners between them at range·|weight|, tip 0 pointing down.
// A point of its outline is drawn uniformly by length (each of the 2·power
// half-edges alike), then moved towards the centre by the square root of a
// uniform number. Fractorium precomputes the star's shape per flame; it is
// worked out here per call. The inverse sines are clamped and their
// divisions guarded, so that float rounding near a right angle, or a
// half-edge of length 0, gives no NaN; a power of 0 has no star and adds
// nothing.

// asin(num / den), within its domain; 0 when den is 0 (then num is 0 too).
FJ_HD FJ_INLINE float fj_starblur_asin(float num, float den) {
    return den != 0.0f ? asinf(fminf(fmaxf(num / den, -1.0f), 1.0f)) : 0.0f;
}

FJ_VARIATION(starblur) {
    const float power = p[0], range = p[1];
    if (power == 0.0f) return;
    // Tip T at radius 1, the next corner C at radius `range` half a point
    // further round: `edge` is |TC| and `corner` the angle at T between the
    // centre and C.
    const float half_point = FJ_PI / power;
    const float edge = sqrtf(fmaxf(1.0f + range * range - 2.0f * range * fj::cosine(half_point), 0.0f));
    const float corner = fj_starblur_asin(fj::sine(half_point) * range, edge);
    // Which half-edge (truncated as C's int conversion does, for negative
    // powers too), and how far along it from its tip.
    const float f = fj::rand01(rng) * power * 2.0f;
    const float half_edge = truncf(f);
    const float along = (f - half_edge) * edge;
    // Law of cosines: the outline point's radius; law of sines: its angle
    // from its tip, added after the tip on odd half-edges, before on even.
    const float rim = sqrtf(fmaxf(1.0f + along * along - 2.0f * along * fj::cosine(corner), 0.0f));
    const float off = fj_starblur_asin(fj::sine(corner) * along, rim);
    const float tip = FJ_2PI / power * truncf(0.5f * half_edge);
    const float a = fj::modulo(half_edge, 2.0f) != 0.0f ? tip + off : tip - off;
    const float r = w * rim * sqrtf(fj::rand01(rng));
    // A quarter turn clockwise: (cos(a − π/2), sin(a − π/2)).
    ox += r * fj::sine(a);
    oy -= r * fj::cosine(a);
}
