// @variation waves23
// @id 1097
// @origin Fractorium 1.0
// @param waves23_scalex 0.05
// @param waves23_scaley 0.05
// @param waves23_freqx 7
// @param waves23_freqy 13
// waves2 with sawtooth waves: f = the fractional part of freqx·y/2π, folded
// to 1/2 − f where it passes 1/2 (so rising from 0 to 1/2, then dropping to
// −1/2 and rising back to 0 each period), and x moves by scalex·f; likewise
// y with freqy, scaley and x.
FJ_VARIATION(waves23) {
    const float inv_2pi = 0.15915494309189533f;
    const float mx = in.y * (p[2] * inv_2pi), my = in.x * (p[3] * inv_2pi);
    float fx = mx - floorf(mx), fy = my - floorf(my);
    if (fx > 0.5f) fx = 0.5f - fx;
    if (fy > 0.5f) fy = 0.5f - fy;
    ox += w * (in.x + fx * p[0]);
    oy += w * (in.y + fy * p[1]);
}
