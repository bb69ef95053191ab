// @variation expo
// @id 1032
// @origin Fractorium 1.0
// @param expo_real -1
// @param expo_imaginary 1
// The complex power c^z of the constant c = real + i·imaginary, with the
// point as exponent z: e^(x·ln|c| − y·arg c) at the angle x·arg c + y·ln|c|.
FJ_VARIATION(expo) {
    const float m2 = p[0] * p[0] + p[1] * p[1];
    const float k = 0.5f * logf(fj::zeps(m2)), t = fj::arctan2(p[1], p[0]);
    const float r = w * expf(in.x * k - in.y * t), a = in.x * t + in.y * k;
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
