// @variation spiralwing
// @id 1085
// @origin Fractorium 1.0
// spherical's 1/r² scaling a point whose angle is x² and whose radius is
// sin(y²): w·(cos x², sin x²)·sin(y²)/r². Zeros count as float's epsilon.
FJ_VARIATION(spiralwing) {
    const float inv = 1.0f / fj::zeps(in.r2);
    const float c1 = fj::zeps(in.x * in.x), c2 = fj::zeps(in.y * in.y);
    const float s = w * inv * fj::sine(c2);
    ox += s * fj::cosine(c1);
    oy += s * fj::sine(c1);
}
