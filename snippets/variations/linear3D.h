// @variation linear3D
// @id 1000
// @origin Fractorium 1.0 (x, y)
// Linear in x, y and z. flamejit keeps no z: Fractorium projects it only
// through its 3D camera, which the reader refuses, so the image is linear's.
FJ_VARIATION(linear3D) {
    ox += w * in.x;
    oy += w * in.y;
}
