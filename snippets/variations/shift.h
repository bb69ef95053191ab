// @variation shift
// @id 1199
// @origin Fractorium 1.0
// @param shift_x 0
// @param shift_y 0
// @param shift_angle 0
// A translation, times the weight: the point moved by the mirror image
// (x, −y) of the shift, turned clockwise by angle degrees, that is by
// (c·x − s·y, −c·y − s·x) with c, s the angle's cosine and sine (so at
// angle 0 a positive shift_y moves points down, as in Fractorium).
FJ_VARIATION(shift) {
    const float a = p[2] * (FJ_PI / 180.0f);
    const float c = fj::cosine(a), s = fj::sine(a);
    ox += w * (in.x + c * p[0] - s * p[1]);
    oy += w * (in.y - c * p[1] - s * p[0]);
}
