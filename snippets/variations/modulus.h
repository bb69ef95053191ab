// @variation modulus
// @id 68
// @origin flam3 3.1.1
// @param modulus_x 0
// @param modulus_y 0
FJ_VARIATION(modulus) {
    const float mx = p[0], my = p[1];
    float nx = in.x, ny = in.y;
    if (in.x > mx) nx = -mx + fj::modulo(in.x + mx, 2.0f * mx);
    else if (in.x < -mx) nx = mx - fj::modulo(mx - in.x, 2.0f * mx);
    if (in.y > my) ny = -my + fj::modulo(in.y + my, 2.0f * my);
    else if (in.y < -my) ny = my - fj::modulo(my - in.y, 2.0f * my);
    ox += w * nx;
    oy += w * ny;
}
