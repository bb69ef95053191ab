// @variation diamond
// @id 11
// @origin flam3 3.1.1
FJ_VARIATION(diamond) {
    ox += w * in.sina * cosf(in.r);
    oy += w * in.cosa * sinf(in.r);
}
