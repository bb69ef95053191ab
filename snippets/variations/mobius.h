// @variation mobius
// @id 98
// @origin flam3 3.1.1
// @param mobius_re_a 0
// @param mobius_im_a 0
// @param mobius_re_b 0
// @param mobius_im_b 0
// @param mobius_re_c 0
// @param mobius_im_c 0
// @param mobius_re_d 0
// @param mobius_im_d 0
// @alias Re_A mobius_re_a
// @alias Im_A mobius_im_a
// @alias Re_B mobius_re_b
// @alias Im_B mobius_im_b
// @alias Re_C mobius_re_c
// @alias Im_C mobius_im_c
// @alias Re_D mobius_re_d
// @alias Im_D mobius_im_d
// Fractorium's Mobius is the same map under its own names (written with every
// parameter; where one is missing Fractorium takes 1 for Re_A and Re_D).
// @also Mobius
// @alias Mobius_Re_A mobius_re_a
// @alias Mobius_Im_A mobius_im_a
// @alias Mobius_Re_B mobius_re_b
// @alias Mobius_Im_B mobius_im_b
// @alias Mobius_Re_C mobius_re_c
// @alias Mobius_Im_C mobius_im_c
// @alias Mobius_Re_D mobius_re_d
// @alias Mobius_Im_D mobius_im_d
// (A z + B) / (C z + D) with z = x + i y.
FJ_VARIATION(mobius) {
    const float re_u = p[0] * in.x - p[1] * in.y + p[2];
    const float im_u = p[0] * in.y + p[1] * in.x + p[3];
    const float re_v = p[4] * in.x - p[5] * in.y + p[6];
    const float im_v = p[4] * in.y + p[5] * in.x + p[7];
    const float k = w / (re_v * re_v + im_v * im_v);
    ox += k * (re_u * re_v + im_u * im_v);
    oy += k * (im_u * re_v - re_u * im_v);
}
