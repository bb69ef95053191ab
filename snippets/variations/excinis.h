// @variation excinis
// @id 1211
// @origin Fractorium 1.0
// @param excinis_lengthscalar 1
// @param excinis_radiusFunc 0
// @param excinis_eps 0.1
// The square z² of the point, scaled by f(w/ρ), ρ = lengthscalar·r: with the
// default f (the identity) the angle doubles and the radius becomes
// w·r/lengthscalar. radiusFunc, held to [0, 5] as Fractorium bounds it,
// picks f by its whole part: 0 u, 1 cos u, 2 e^u, 3 log(|u| + |δ|), 4 and 5
// 1/(u + δ). Near the origin (|ρ| ≤ eps) ρ is pushed away by δ = ±eps, the
// sign of ρ; a ρ + δ of 0 is divided through float epsilon, as in
// Fractorium. The weight enters only through u, as in Fractorium. e^u
// overflows to infinity where u passes 88 (as in Fractorium's float build),
// and the renderer drops that point.
FJ_VARIATION(excinis) {
    const float rho = in.r * p[0];
    const float func = fminf(fmaxf(p[1], 0.0f), 5.0f);
    const float eps = p[2];
    const float delta = fabsf(rho) > eps ? 0.0f : (rho >= 0.0f ? eps : -eps);
    const float u = w / fj::zeps(rho + delta);
    float f;
    if (func < 1.0f)
        f = u;
    else if (func < 2.0f)
        f = fj::cosine(u);
    else if (func < 3.0f)
        f = expf(u);
    else if (func < 4.0f)
        f = logf(fabsf(u) + fabsf(delta));
    else
        f = 1.0f / fj::zeps(u + delta);
    ox += (in.x - in.y) * (in.x + in.y) * f;
    oy += 2.0f * in.x * in.y * f;
}
