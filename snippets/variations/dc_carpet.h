// @variation dc_carpet
// @id 1013
// @origin Fractorium 1.0
// @param dc_carpet_origin 0
// @random 2
// @color
// Direct colour from a random corner: the point moves by (±1, ±1), chosen
// at random, and goes through the xform's own affine, read as Fractorium
// reads it here (x' = a·x + b·y + e, y' = c·x + d·y + f). Corners on one
// diagonal halve the colour index; the others halve it, scaled by 1 + 0.2
// origin, and step it by 0.2·origin − 1, its magnitude wrapped into [0, 1).
FJ_VARIATION(dc_carpet) {
    const int sx = fj::rand_bit(rng) ? -1 : 1;
    const int sy = fj::rand_bit(rng) ? -1 : 1;
    const float x = in.x + (float)sx, y = in.y + (float)sy;
    const float diagonal = (float)(sx ^ sy);  // 0 or -2
    const float H = 0.1f * p[0], h = -H + (1.0f - diagonal) * H;
    ox += w * (in.aff->a * x + in.aff->b * y + in.aff->e);
    oy += w * (in.aff->c * x + in.aff->d * y + in.aff->f);
    color = fj::modulo(fabsf(color * 0.5f * (1.0f + h) + diagonal * (1.0f - h) * 0.5f), 1.0f);
}
