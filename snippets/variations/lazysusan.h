// @variation lazysusan
// @id 65
// @origin flam3 3.1.1
// @param lazysusan_spin 0
// @param lazysusan_space 0
// @param lazysusan_twist 0
// @param lazysusan_x 0
// @param lazysusan_y 0
// flam3 uses the weight as the radius of the turning disc.
FJ_VARIATION(lazysusan) {
    const float spin = p[0], space = p[1], twist = p[2], cx = p[3], cy = p[4];
    const float x = in.x - cx, y = in.y + cy;
    const float r = sqrtf(x * x + y * y);
    if (r < w) {
        const float a = fj::arctan2(y, x) + spin + twist * (w - r);
        ox += w * r * fj::cosine(a) + cx;
        oy += w * r * fj::sine(a) - cy;
    } else {
        const float k = w * (1.0f + space / r);
        ox += k * x + cx;
        oy += k * y - cy;
    }
}
