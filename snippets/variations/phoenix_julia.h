// @variation phoenix_julia
// @id 1233
// @origin Fractorium 1.0
// @param phoenix_julia_power 2
// @param phoenix_julia_dist 1
// @param phoenix_julia_x_distort -0.5
// @param phoenix_julia_y_distort 0
// @random 1
// A julia of the given power taken of a stretched point: the angle is that
// of (x·(1 + x_distort), y·(1 + y_distort)) times dist/power, plus
// 2π·k/power with k = u·power truncated towards zero (u uniform: for a
// whole positive power one of its roots at random), the radius
// weight·r^(dist/power) of the unstretched point. As Fractorium computes
// it outside its flam3 compatibility mode (which draws k from 0..32766
// instead); power 0 is divided through float epsilon, as in Fractorium.
FJ_VARIATION(phoenix_julia) {
    const float power = fj::zeps(p[0]);
    const float inv = p[1] / power;
    const float k = (float)fj::int_like_x86(fj::rand01(rng) * p[0]);
    const float a = fj::arctan2(in.y * (p[3] + 1.0f), in.x * (p[2] + 1.0f)) * inv + k * (FJ_2PI / power);
    const float r = w * fj::power(in.r2, 0.5f * inv);
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
