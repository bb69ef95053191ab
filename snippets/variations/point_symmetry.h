// @variation point_symmetry
// @id 1192
// @origin Fractorium 1.0
// @param point_symmetry_centre_x 0.15
// @param point_symmetry_centre_y 0.5
// @param point_symmetry_order 3
// @random 1
// order-fold rotational symmetry about the centre (centre_x, centre_y):
// the point's offset from the centre, times the weight, is turned clockwise
// by 2π·k/order for a random k = ⌊order·u⌋ (u uniform) and added to the
// centre, which is not weighted. order need not be whole; 0 becomes float
// epsilon in the divisor, as in Fractorium.
FJ_VARIATION(point_symmetry) {
    const float order = p[2];
    const float angle = floorf(fj::rand01(rng) * order) * (FJ_2PI / fj::zeps(order));
    const float dx = (in.x - p[0]) * w, dy = (in.y - p[1]) * w;
    const float c = fj::cosine(angle), s = fj::sine(angle);
    ox += p[0] + dx * c + dy * s;
    oy += p[1] + dy * c - dx * s;
}
