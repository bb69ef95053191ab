// @variation curl
// @id 39
// @origin flam3 3.1.1
// @param curl_c1 1
// @param curl_c2 0
FJ_VARIATION(curl) {
    const float c1 = p[0], c2 = p[1];
    const float re = 1.0f + c1 * in.x + c2 * (in.x * in.x - in.y * in.y);
    const float im = c1 * in.y + 2.0f * c2 * in.x * in.y;
    const float k = w / (re * re + im * im);
    ox += (in.x * re + in.y * im) * k;
    oy += (in.y * re - in.x * im) * k;
}
