// @variation flowerdb
// @id 1177
// @origin Fractorium 1.0
// @param flowerdb_petals 6
// @param flowerdb_petal_split 0
// @param flowerdb_petal_spread 1
// A flower: each ray from the origin scaled by
// |(spread + sin(petals·φ))·cos(petals·split·φ)|, φ its angle, which is
// largest (spread + 1 without a split) at the petals' tips; split cuts the
// petals along the cosine's zeros. Times the weight. Fractorium writes the
// point as r·cos φ, r·sin φ; here x and y themselves, the same.
FJ_VARIATION(flowerdb) {
    const float t = in.phi, petals = p[0];
    const float k = fabsf((p[2] + fj::sine(petals * t)) * fj::cosine(petals * p[1] * t));
    ox += w * k * in.x;
    oy += w * k * in.y;
}
