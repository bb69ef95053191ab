// @variation flatten
// @id 1001
// @origin Fractorium 1.0 (x, y)
// @assign sum
// Sets z to 0 and adds nothing to x and y. flamejit keeps no z, so all that
// is left is a variation of weight w that contributes nothing. As pre_ or
// post_ flatten Fractorium passes the point on unchanged: adding nothing to
// it is the same.
FJ_VARIATION(flatten) {
    (void)w;
    (void)ox;
    (void)oy;
}
