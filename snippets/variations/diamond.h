// @variation diamond
// @id 11
// @origin flam3 3.1.1
FJ_VARIATION(diamond) {
    ox += w * in.sina * fj::cosine(in.r);
    oy += w * in.cosa * fj::sine(in.r);
}
