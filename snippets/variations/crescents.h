// @variation crescents
// @id 1079
// @origin Fractorium 1.0
// (sin x, cos x) scaled by sin²x·(cosh y + 1), times the weight.
FJ_VARIATION(crescents) {
    const float s = fj::sine(in.x), c = fj::cosine(in.x);
    float sh, ch;
    fj::sinh_cosh(in.y, sh, ch);
    const float k = w * (ch + 1.0f) * s * s;
    ox += k * s;
    oy += k * c;
}
