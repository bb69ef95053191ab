// @variation curl_sp
// @id 1151
// @origin Fractorium 1.0
// @param curl_sp_pow 1
// @param curl_sp_c1 0
// @param curl_sp_c2 0
// @param curl_sp_sx 0
// @param curl_sp_sy 0
// @param curl_sp_dc 0
// curl with "spread" and a power: each coordinate is first raised to pow
// keeping its sign (u = sign(x)·|x|^pow, v likewise), then, as in curl,
// q = 1 + c1·(u + iv) + c2·(u + iv)², except that each part of q − 1 is
// replaced by its length with sx (sy) and its own sign, sign(a)·√(a² + s²)
// (zero counting as negative); the result is (u + iv)·conj(q) divided by
// |q|^(2/pow), times the weight. With pow 1 and sx = sy = 0 it is curl.
// pow 0 is replaced by float epsilon, and a zero |q|^(2/pow) too, as in
// Fractorium. Where a coordinate is 0 and pow negative, the power is
// infinite and the result not a number, as in Fractorium: the map's limit
// there is the point at infinity, and the iteration treats it as the bad
// value it is. dc only changes the colour in Fractorium's flam3
// compatibility mode and does nothing here, as outside it.
FJ_VARIATION(curl_sp) {
    const float power = fj::zeps(p[0]), c1 = p[1], c2 = p[2], sx = p[3], sy = p[4];
    float u = in.x, v = in.y;
    if (power != 1.0f) {
        u = copysignf(fj::power(fabsf(u), power), u < 0.0f ? -1.0f : 1.0f);
        v = copysignf(fj::power(fabsf(v), power), v < 0.0f ? -1.0f : 1.0f);
    }
    const float a = c1 * u + c2 * (u * u - v * v), b = c1 * v + 2.0f * c2 * u * v;
    const float re = copysignf(sqrtf(a * a + sx * sx), a > 0.0f ? 1.0f : -1.0f) + 1.0f;
    const float im = copysignf(sqrtf(b * b + sy * sy), b > 0.0f ? 1.0f : -1.0f);
    const float q2 = re * re + im * im;
    const float s = w / fj::zeps(power != 1.0f ? fj::power(q2, 1.0f / power) : q2);
    ox += (u * re + v * im) * s;
    oy += (v * re - u * im) * s;
}
