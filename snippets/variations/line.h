// @variation line
// @id 1186
// @origin Fractorium 1.0
// @param line_delta 0
// @param line_phi 0
// @random 1
// @assign sum
// A uniform point of a segment from the origin, whatever the input: the
// segment of length w along the unit vector at azimuth π·delta and
// elevation π·phi, of which only x and y are kept, (cos π·delta,
// sin π·delta)·cos π·phi (Fractorium's z, the sine of the elevation, is
// not). As a pre_ or post_ use it adds to the point, as in Fractorium. The
// vector is a unit one already; Fractorium's normalising changes nothing
// beyond rounding.
FJ_VARIATION(line) {
    const float r = fj::rand01(rng) * w;
    const float flat = fj::cosine(FJ_PI * p[1]), az = FJ_PI * p[0];
    ox += fj::cosine(az) * flat * r;
    oy += fj::sine(az) * flat * r;
}
