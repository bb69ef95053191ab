// @variation blur_circle
// @id 1053
// @origin Fractorium 1.0
// @random 2
// @assign sum
// A uniform disc of radius |weight|, whatever the input. A uniform point of
// the square [-1, 1)² is carried to the disc ring by ring: its square ring
// (half-width = the larger of |x| and |y|) becomes the circle of that radius,
// and its place along the ring's perimeter the same fraction of a turn. Both
// are area-preserving up to a constant, so the disc is filled evenly. The
// centre of the square (probability 2^-48) has no ring: a half-width of
// FLT_EPSILON there gives the origin instead of 0/0.
FJ_VARIATION(blur_circle) {
    const float x = fj::rand11(rng), y = fj::rand11(rng);
    const float ax = fabsf(x), ay = fabsf(y);
    const float half = fmaxf(ax, ay);
    const float h = fj::zeps(half);
    // Position on the ring in eighths of a turn, counter-clockwise from the
    // lower corner of the right edge: right edge 0-2, top 2-4, left 4-6,
    // bottom 6-8.
    float eighths;
    if (ax >= ay)
        eighths = x >= 0.0f ? 1.0f + y / h : 5.0f - y / h;
    else
        eighths = y >= 0.0f ? 3.0f - x / h : 7.0f + x / h;
    const float a = 0.25f * FJ_PI * (eighths - 1.0f);
    const float r = w * half;
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
