// @variation pie
// @id 37
// @origin flam3 3.1.1
// @param pie_slices 6
// @param pie_rotation 0
// @param pie_thickness 0.5
// @random 3
// @assign sum
FJ_VARIATION(pie) {
    const float slices = p[0], rotation = p[1], thickness = p[2];
    const float sl = (float)fj::int_like_x86(fj::rand01(rng) * slices + 0.5f);
    const float a = rotation + FJ_2PI * (sl + fj::rand01(rng) * thickness) / slices;
    const float r = w * fj::rand01(rng);
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
