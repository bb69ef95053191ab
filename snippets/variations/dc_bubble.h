// @variation dc_bubble
// @id 1017
// @origin Fractorium 1.0
// @param dc_bubble_centerx 0
// @param dc_bubble_centery 0
// @param dc_bubble_scale 1
// @color
// @reads sum
// bubble, colouring by where the xform's sum stands once this use is added:
// its squared distance from (-centerx, -centery), over `scale` (1e-5 when
// 0), wrapped into [0, 1) by magnitude.
FJ_VARIATION(dc_bubble) {
    const float scale = p[2] == 0.0f ? 1e-5f : p[2];
    const float k = w / (in.r2 / 4.0f + 1.0f);
    ox += k * in.x;
    oy += k * in.y;
    const float dx = ox + p[0], dy = oy + p[1];
    color = fj::modulo(fabsf((dx * dx + dy * dy) / scale), 1.0f);
}
