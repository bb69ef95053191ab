// @variation shredlin
// @id 1005
// @origin Fractorium 1.0
// @param shredlin_xdistance 1
// @param shredlin_xwidth 0.5
// @param shredlin_ydistance 1
// @param shredlin_ywidth 0.5
// Cuts the plane into strips `distance` apart and narrows each to `width`
// of it, in x and in y.
FJ_VARIATION(shredlin) {
    const float xd = p[0], xw = p[1], yd = p[2], yw = p[3];
    const float xr = in.x / xd, yr = in.y / yd;
    const float xi = (float)fj::int_like_x86(xr), yi = (float)fj::int_like_x86(yr);
    const float xside = in.x < 0.0f ? 1.0f : 0.0f, yside = in.y < 0.0f ? 1.0f : 0.0f;
    ox += w * xd * ((xr - xi) * xw + xi + (0.5f - xside) * (1.0f - xw));
    oy += w * yd * ((yr - yi) * yw + yi + (0.5f - yside) * (1.0f - yw));
}
