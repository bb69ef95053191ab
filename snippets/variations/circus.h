// @variation circus
// @id 1038
// @origin Fractorium 1.0
// @param circus_scale 1
// Along its ray, a point inside the unit circle moves by scale, one outside
// by 1/scale.
FJ_VARIATION(circus) {
    const float r = in.r <= 1.0f ? in.r * p[0] : in.r * (1.0f / p[0]);
    const float d = fj::zeps(in.r);  // the origin stays put, as in Fractorium
    ox += w * r * (in.x / d);
    oy += w * r * (in.y / d);
}
