// @variation curvature
// @id 1206
// @origin Fractorium 1.0
// Polar coordinates turned inside out: x becomes w/r and y the angle φ,
// which Fractorium does not weight (nor does this). Circles about the
// origin become vertical segments of height 2π, nearer the y axis the
// larger they are. A zero r (the origin) becomes float epsilon, as in
// Fractorium.
FJ_VARIATION(curvature) {
    ox += w / fj::zeps(in.r);
    oy += in.phi;
}
