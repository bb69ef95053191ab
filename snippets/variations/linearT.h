// @variation linearT
// @id 1084
// @origin Fractorium 1.0
// @param linearT_powX 1
// @param linearT_powY 1
// linear with each coordinate raised to its own power, its sign kept (0
// counts as positive).
FJ_VARIATION(linearT) {
    ox += w * copysignf(fj::power(fabsf(in.x), p[0]), in.x < 0.0f ? -1.0f : 1.0f);
    oy += w * copysignf(fj::power(fabsf(in.y), p[1]), in.y < 0.0f ? -1.0f : 1.0f);
}
