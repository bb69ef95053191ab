// @variation loonie2
// @id 1225
// @origin Fractorium 1.0
// @param loonie2_sides 4
// @param loonie2_star 0
// @param loonie2_circle 0
// @param loonie2_power 4
// loonie, then circles made polygons: a point inside the unit circle is
// scaled by √(1/r² − 1) (outside it stays), and the result, at radius ρ, is
// moved onto the regular polygon of inradius ρ with `power` sides, one side
// facing the angle −π + 2π/power·k: a point at angle φ from the nearest
// such direction goes to angle φ' with tan φ' = 2·tan(π/power)·φ/(2π/power)
// and radius ρ/cos φ'. Times the weight. As Fractorium computes it outside
// its flam3 compatibility mode, where sides, star and circle (the shape of
// the original's polygon or star) are read but change nothing. power 0 is
// divided through float epsilon, as Fractorium.
FJ_VARIATION(loonie2) {
    const float alpha = FJ_2PI / fj::zeps(p[3]);
    const float k = in.r2 < 1.0f ? sqrtf(1.0f / fj::zeps(in.r2) - 1.0f) : 1.0f;
    const float nx = in.x * k, ny = in.y * k;
    const float rad = sqrtf(nx * nx + ny * ny);
    const float sector = (fj::arctan2(ny, nx) + FJ_PI) / alpha;
    const float whole = floorf(sector);
    const float frac = sector - whole;
    const bool upper = frac > 0.5f;
    const float part = upper ? 1.0f - frac : frac;
    const float tilt = atanf(part * 2.0f * fj::tangent(0.5f * alpha)) / alpha;
    const float scale = w * rad / fj::zeps(fj::cosine(tilt * alpha));
    const float ang = ((upper ? whole + 1.0f : whole) + (upper ? -tilt : tilt)) * alpha - FJ_PI;
    ox += scale * fj::cosine(ang);
    oy += scale * fj::sine(ang);
}
