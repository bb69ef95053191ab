// @variation hex_modulus
// @id 1182
// @origin Fractorium 1.0
// @param hex_modulus_size 1
// The hexagonal counterpart of modulus: the plane is tiled by pointy-top
// hexagons of inradius |size| (one centred on the origin), and each point
// goes to its offset from the centre of its hexagon divided by size, times
// the weight, so every tile lands on the hexagon of inradius |weight| about
// the origin. The tile is found by rounding the point's cube coordinates
// and fixing the one that rounded furthest. A size of 0 becomes float
// epsilon, as in Fractorium.
FJ_VARIATION(hex_modulus) {
    const float sqrt3 = 1.732050808f, half_sqrt3 = 0.866025404f;
    const float scale = half_sqrt3 / fj::zeps(p[0]);
    // In units of the hexagon's circumradius. The point, its cube
    // coordinates and the centre are formed step by step, never fused: for a
    // small size they are large, and the offset is the point's difference
    // from the centre, whose last bits would otherwise differ between the
    // host and the device (and a rounding pick the other tile).
    const float X = fj::mul_rn(in.x, scale), Y = fj::mul_rn(in.y, scale);
    const float third = Y / 3.0f;
    const float cx = fj::add_rn(fj::mul_rn(sqrt3 / 3.0f, X), -third), cz = 2.0f * third, cy = -cx - cz;
    float rx = roundf(cx), rz = roundf(cz);
    const float ry = roundf(cy);
    const float dx = fabsf(rx - cx), dy = fabsf(ry - cy), dz = fabsf(rz - cz);
    // The three must sum to 0: recompute the one furthest from its rounding
    // (ry is not needed below, so its case changes nothing).
    if (dx > dy && dx > dz)
        rx = -ry - rz;
    else if (!(dy > dz))
        rz = -rx - ry;
    const float hx = fj::add_rn(fj::mul_rn(sqrt3, rx), fj::mul_rn(half_sqrt3, rz)), hy = fj::mul_rn(1.5f, rz);
    const float s = w / half_sqrt3;
    ox += (X - hx) * s;
    oy += (Y - hy) * s;
}
