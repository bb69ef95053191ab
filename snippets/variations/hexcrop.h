// @variation hexcrop
// @id 1130
// @origin Fractorium 1.0
// @param hexcrop_scale_x 1
// @param hexcrop_scale_y 1
// @param hexcrop_center_x 0
// @param hexcrop_center_y 0
// @param hexcrop_dropoff 1e10
// @reads sum
// A hexagon crop. The point shifted by +(center_x, center_y) is tested
// against the hexagon with corners (±1/2, ±3/(2√2)) and (±√2, 0), scaled by
// (scale_x, scale_y), by counting crossings of a ray towards +x (edges
// taken half-open in y, so a point on the boundary belongs to one side).
// Inside, the shifted point times the weight is added; outside, the point
// goes to (dropoff, dropoff) whatever came before. As in Fractorium, a plain
// use keeps the sum of the variations before it for a point inside and
// replaces it outside, so it is read as a plain use only (which also keeps
// its pre_ and post_ uses out). With scale_y 0 the hexagon is flat and
// every point is outside.
FJ_VARIATION(hexcrop) {
    const float hx = 0.5f * p[0], wx = 1.41421356f * p[0], hy = 1.06066017f * p[1];
    const float vx[6] = {-hx, hx, wx, hx, -hx, -wx};
    const float vy[6] = {hy, hy, 0.0f, -hy, -hy, 0.0f};
    const float x = in.x + p[2], y = in.y + p[3];
    bool inside = false;
    for (int n = 0, j = 5; n < 6; j = n++) {
        if ((vy[n] <= y && y < vy[j]) || (vy[j] <= y && y < vy[n]))
            if (x < (vx[j] - vx[n]) * (y - vy[n]) / fj::zeps(vy[j] - vy[n]) + vx[n]) inside = !inside;
    }
    if (inside) {
        ox += w * x;
        oy += w * y;
    } else {
        ox = p[4];
        oy = p[4];
    }
}
