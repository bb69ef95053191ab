// @variation loonie3
// @id 1187
// @origin Fractorium 1.0
// loonie on another disc: inside the disc of diameter |w| that touches the
// origin from the right, (x − |w|/2)² + y² < w²/4 (where s = r²/x is below
// |w|), a point is scaled by w·√(w²/s² − 1); every other point is only
// weighted. The scale is 0 on the disc's rim and grows towards the origin.
// As in Fractorium, points with x at most float epsilon count as outside.
FJ_VARIATION(loonie3) {
    const float w2 = w * w;
    float s2 = 2.0f * w2;
    if (in.x > FJ_FLT_EPSILON) {
        const float s = in.r2 / in.x;
        s2 = s * s;
    }
    const float k = s2 < w2 ? w * sqrtf(w2 / s2 - 1.0f) : w;
    ox += k * in.x;
    oy += k * in.y;
}
