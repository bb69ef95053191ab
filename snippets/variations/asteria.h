// @variation asteria
// @id 1158
// @origin Fractorium 1.0
// @param asteria_alpha 0
// @random 1
// A four-pointed star pinched out of the unit disc. The point is scaled by
// the weight first; outside the unit disc it stays. Inside, it is bent:
// with c, s = cos, sin(π·alpha), u = c·x + s·y and v = s·x + c·y,
// u becomes u·(1 − √(1 − (1 − |v|)²))/√(1 − v²), and (u, v) goes back
// through x = c·u + s·v, y = c·v − s·u. Inside the unit disc but also
// inside one of the unit circles about (±1, ±1), the point stays with
// probability 0.65 (one draw) instead. The first map is Fractorium's
// outside its flam3 compatibility mode (in that mode it is the rotation
// u = c·x − s·y). alpha wraps into [0, 1].
FJ_VARIATION(asteria) {
    const float alpha = fj::wrap_cyclic(p[0], 0.0f, 1.0f);
    const float s = fj::sine(FJ_PI * alpha), c = fj::cosine(FJ_PI * alpha);
    const float x = w * in.x, y = w * in.y;
    const float ex = fabsf(x) - 1.0f, ey = fabsf(y) - 1.0f;
    bool stay = !(x * x + y * y < 1.0f);
    if (!stay && ex * ex + ey * ey < 1.0f) stay = fj::rand01(rng) > 0.35f;
    if (stay) {
        ox += x;
        oy += y;
        return;
    }
    const float u = x * c + y * s, v = x * s + y * c;
    const float t = 1.0f - fabsf(v);
    const float nu = u / sqrtf(1.0f - v * v) * (1.0f - sqrtf(1.0f - t * t));
    ox += nu * c + v * s;
    oy += v * c - nu * s;
}
