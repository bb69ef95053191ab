// @variation flatten
// @id 1001
// @origin Fractorium 1.0 (x, y)
// Sets z to 0 and adds nothing to x and y. flamejit keeps no z, so all that
// is left is a variation of weight w that contributes nothing.
FJ_VARIATION(flatten) {
    (void)w;
    (void)ox;
    (void)oy;
}
