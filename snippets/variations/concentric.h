// @variation concentric
// @id 1114
// @origin Fractorium 1.0
// @param concentric_radius 1
// @param concentric_density 10
// @param concentric_R_blur 0
// @random 3
// @assign sum
// @discards sum
// Rings: a uniform point of the circle of radius radius·⌊u·density⌋/density
// (u uniform in [0, 1): for a whole density, each of its levels alike),
// widened when R_blur is not 0 by (2·sqrt(v) − 1)·R_blur, v uniform
// (outer side more often); times the weight. Fractorium keeps density
// away from 0 (below 1e-6 in size it becomes epsilon, signed, which gives
// the single ring at 0). Its rings also step down in z by level, blurred by
// Z_blur, which a flat image never shows. As a plain use it drops what the
// variations before it in the xform added, as Fractorium's does; its pre_
// and post_ uses add.
// @ignored concentric_Z_blur
FJ_VARIATION(concentric) {
    float density = p[1];
    if (fabsf(density) < 1e-6f) density = density < 0.0f ? -FJ_FLT_EPSILON : FJ_FLT_EPSILON;
    const float level = floorf(fj::rand01(rng) * density) / density;
    const float angle = fj::rand01(rng) * FJ_2PI;
    float r = level * p[0];
    if (p[2] != 0.0f) r += (sqrtf(fj::rand01(rng)) * 2.0f - 1.0f) * p[2];
    ox += w * r * fj::cosine(angle);
    oy += w * r * fj::sine(angle);
}
