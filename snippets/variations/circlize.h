// @variation circlize
// @id 1028
// @origin Fractorium 1.0
// @param circlize_hole 0
// Squares to circles: a point on the square of half-width s (the larger of
// |x| and |y|) goes to the circle of radius 4·w·s/π + hole, at the angle its
// place along the square's perimeter gives, the perimeter measured from the
// square's lower right corner.

#include "shared/grids.h"

FJ_VARIATION(circlize) {
    float side;
    const float along = fj::square_ring_place(in.x, in.y, side);
    const float r = w / (FJ_PI / 4.0f) * side + p[0];
    const float a = (FJ_PI / 4.0f) * along / side - FJ_PI / 4.0f;
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
