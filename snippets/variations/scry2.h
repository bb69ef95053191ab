// @variation scry2
// @id 1198
// @origin Fractorium 1.0
// @param scry2_power 4
// The plane folded into polygons: a point at distance r goes to distance
// 1/(r² + 1) (the origin itself to 0), and each such circle becomes the
// regular polygon with `power` sides and that inradius whose sides'
// midpoints lie on the rays at π + 2πk/power. Along a side the angle is
// remapped by its tangent, so points evenly spread on the circle are
// evenly spread along the sides. Times the weight. The angle is the
// input's own (Fractorium takes it from the shrunk point, the same but
// where that underflows to 0). A zero power becomes float epsilon in the
// divisor, as in Fractorium.
FJ_VARIATION(scry2) {
    const float sector = FJ_2PI / fj::zeps(p[0]);
    const float rad = in.r / fj::zeps(in.r * (in.r2 + 1.0f));
    // The angle from the −x axis in sectors, split at the nearest ray.
    const float at = (in.phi + FJ_PI) / sector;
    const float base = floorf(at), frac = at - base;
    const bool back = frac > 0.5f;
    const float off = back ? 1.0f - frac : frac;
    const float ray = back ? base + 1.0f : base;
    const float a = atanf(off * fj::tangent(0.5f * sector) * 2.0f);
    const float k = w * rad / fj::cosine(a);
    const float ang = ray * sector + (back ? -a : a) - FJ_PI;
    ox += k * fj::cosine(ang);
    oy += k * fj::sine(ang);
}
