// @variation fan2
// @id 25
// @origin flam3 3.1.1
// @param fan2_x 0
// @param fan2_y 0
FJ_VARIATION(fan2) {
    const float dy = p[1];
    const float dx = FJ_PI * (p[0] * p[0] + FJ_EPS);
    const float dx2 = 0.5f * dx;
    const float t = in.theta + dy - dx * (float)fj::int_like_x86((in.theta + dy) / dx);
    const float a = t > dx2 ? in.theta - dx2 : in.theta + dx2;
    const float r = w * in.r;
    ox += r * fj::sine(a);
    oy += r * fj::cosine(a);
}
