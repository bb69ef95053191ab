// @variation ovoid
// @id 1189
// @origin Fractorium 1.0
// @param ovoid_x 1
// @param ovoid_y 1
// spherical (inversion in the unit circle, z/r²) with its x and y stretched
// by ovoid_x and ovoid_y, times the weight. A zero r² (the origin) becomes
// float epsilon, as in Fractorium.
FJ_VARIATION(ovoid) {
    const float s = w / fj::zeps(in.r2);
    ox += in.x * s * p[0];
    oy += in.y * s * p[1];
}
