// @variation handkerchief
// @id 6
FJ_VARIATION(handkerchief) {
    const float k = w * in.r;
    ox += k * sinf(in.theta + in.r);
    oy += k * cosf(in.theta - in.r);
}
