// @variation cylinder2
// @id 1117
// @origin Fractorium 1.0
// x squeezed into (−1, 1) as x/sqrt(x² + 1) (the sine of its arctangent:
// the plane seen wrapped round a cylinder), y kept; times the weight.
// hypotf keeps x² from overflowing for huge x, where the result is ±1.
FJ_VARIATION(cylinder2) {
    ox += w * (in.x / hypotf(in.x, 1.0f));
    oy += w * in.y;
}
