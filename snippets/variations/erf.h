// @variation erf
// @id 1173
// @origin Fractorium 1.0
// The error function of each coordinate, times the weight: the plane
// squeezed into the square (−1, 1)², nearly linear (slope 2/√π) near the
// origin. erff is the C library's on the host and CUDA's on the device.
FJ_VARIATION(erf) {
    ox += w * erff(in.x);
    oy += w * erff(in.y);
}
