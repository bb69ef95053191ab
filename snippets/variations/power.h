// @variation power
// @id 19
// @origin flam3 3.1.1
FJ_VARIATION(power) {
    const float k = w * fj::power(in.r, in.sina);
    ox += k * in.cosa;
    oy += k * in.sina;
}
