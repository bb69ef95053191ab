// @variation unicorngaloshen
// @id 1226
// @origin Fractorium 1.0
// @param unicorngaloshen_mult_x 1
// @param unicorngaloshen_mult_y 1
// @param unicorngaloshen_sine 0
// @param unicorngaloshen_sin_x_amplitude 1
// @param unicorngaloshen_sin_x_freq 0.1
// @param unicorngaloshen_sin_y_amplitude 2
// @param unicorngaloshen_sin_y_freq 0.2
// @param unicorngaloshen_mode 0
// A cubic over an elliptic radius: (fx·(x − y)·(x + my·y), fy·x·y) times
// w/√(mx·x² + my·y²), a homogeneous map of degree 1 (at mx = my = 1 and
// factors (1, 2), the complex square over the radius, z²/|z|).
// With sine at most 0 the factors are the two amplitudes; otherwise they
// are (1, 2) plus (ax·sin(π·fx·u), ay·sin(π·fy·v)), where (u, v) by mode is
// 0: (x, y); 1: (e^−x, e^−y); 2: (1/x, 1/y); 3: (ln|x|, ay·ln|y|) (the
// second amplitude twice over, as in Fractorium); 4: (atan2(x, y),
// atan2(y, x)). mode is held to [0, 4] and compared with 0, 1, 2, 3 as a
// real number. Where Fractorium gives NaN, this does something finite: the
// elliptic radius is taken of |mx·x² + my·y²| (negative multipliers), a
// logarithm of 0 is taken at float epsilon, and e^−x is capped at e^80
// (near float's limit, which π·freq times it would pass; the sine of such
// arguments is noise either way).
FJ_VARIATION(unicorngaloshen) {
    const float mx = p[0], my = p[1];
    const float r = w / fj::zeps(sqrtf(fabsf(in.y * in.y * my + mx * in.x * in.x)));
    float fx = p[3], fy = p[5];
    if (p[2] > 0.0f) {
        const float mode = fminf(fmaxf(p[7], 0.0f), 4.0f);
        float u, v;
        if (mode <= 0.0f) {
            u = in.x;
            v = in.y;
        } else if (mode <= 1.0f) {
            u = expf(fminf(-in.x, 80.0f));
            v = expf(fminf(-in.y, 80.0f));
        } else if (mode <= 2.0f) {
            u = 1.0f / fj::zeps(in.x);
            v = 1.0f / fj::zeps(in.y);
        } else if (mode <= 3.0f) {
            u = logf(fj::zeps(fabsf(in.x)));
            v = p[5] * logf(fj::zeps(fabsf(in.y)));
        } else {
            u = fj::arctan2(in.x, in.y);
            v = fj::arctan2(in.y, in.x);
        }
        fx = 1.0f + p[3] * fj::sine(u * FJ_PI * p[4]);
        fy = 2.0f + p[5] * fj::sine(v * FJ_PI * p[6]);
    }
    ox += fx * (in.x - in.y) * (in.x + my * in.y) * r;
    oy += fy * in.x * in.y * r;
}
