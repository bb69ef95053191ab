// @variation sigmoid
// @id 1035
// @origin Fractorium 1.0
// @param sigmoid_shiftx 1
// @param sigmoid_shifty 1
// Each coordinate through a logistic curve onto (-1, 1), steepness 5·shift
// (a shift inside (-1, 1) is inverted, its sign then flipping the curve;
// 0 flattens it), times |w|.
FJ_HD FJ_INLINE float fj_sigmoid_axis(float v, float shift) {
    float steep = shift, scale = 1.0f;
    if (shift < 1.0f && shift > -1.0f) {
        if (shift == 0.0f) {
            steep = FJ_FLT_EPSILON;
        } else {
            scale = shift < 0.0f ? -1.0f : 1.0f;
            steep = 1.0f / shift;
        }
    }
    const float d = 1.0f + expf(-5.0f * steep * v);
    return 2.0f * (scale / fj::zeps(d) - 0.5f);
}

FJ_VARIATION(sigmoid) {
    ox += fabsf(w) * fj_sigmoid_axis(in.x, p[0]);
    oy += fabsf(w) * fj_sigmoid_axis(in.y, p[1]);
}
