// @variation circlize2
// @id 1164
// @origin Fractorium 1.0
// @param circlize2_hole 0
// Squares to circles: a point on the square of half-width s (the larger of
// |x| and |y|) goes to the circle of radius w·(s + hole), at the angle its
// place along the square's perimeter gives, measured from the square's
// lower right corner, so equal lengths of perimeter get equal angles.
// Unlike circlize, the radius is s itself (no 4/π) and the hole is
// weighted too. At the origin (no square) Fractorium divides 0 by 0; here
// the half-width is taken as float epsilon there, giving the angle −π/4.

#include "shared/grids.h"

FJ_VARIATION(circlize2) {
    float side;
    const float along = fj::square_ring_place(in.x, in.y, side);
    const float r = w * (side + p[0]);
    const float a = (FJ_PI / 4.0f) * along / fj::zeps(side) - FJ_PI / 4.0f;
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
