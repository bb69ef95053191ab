// @variation svf
// @id 1202
// @origin Fractorium 1.0
// @param svf_n 2
// The point of the unit circle at angle x, scaled by cos y·cos(n·y) and the
// weight: the view from above of a surface Fractorium also lifts to the
// height w·sin y·cos(n·y), which is dropped here (x and y do not depend on
// it).
FJ_VARIATION(svf) {
    const float k = w * fj::cosine(in.y) * fj::cosine(p[0] * in.y);
    ox += k * fj::cosine(in.x);
    oy += k * fj::sine(in.x);
}
