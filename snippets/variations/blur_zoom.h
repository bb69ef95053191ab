// @variation blur_zoom
// @id 1009
// @origin Fractorium 1.0
// @param blur_zoom_length 0
// @param blur_zoom_x 0
// @param blur_zoom_y 0
// @random 1
// A zoom blur: the point scaled by a random factor between 1 and 1 + length
// about a centre. As in Fractorium, that centre is (x, -y): blur_zoom_y
// enters with the opposite sign.
FJ_VARIATION(blur_zoom) {
    const float z = 1.0f + p[0] * fj::rand01(rng);
    ox += w * ((in.x - p[1]) * z + p[1]);
    oy += w * ((in.y + p[2]) * z - p[2]);
}
