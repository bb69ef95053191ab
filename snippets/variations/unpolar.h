// @variation unpolar
// @id 1031
// @origin Fractorium 1.0
// polar's inverse: x read as an angle, y as a log radius, so the point goes
// to e^y·(sin x, cos x), times w/(2π).
FJ_VARIATION(unpolar) {
    const float r = expf(in.y) * (w / FJ_PI * 0.5f);
    ox += r * fj::sine(in.x);
    oy += r * fj::cosine(in.x);
}
