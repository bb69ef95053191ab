#!/usr/bin/env python3
# flamejit — writes the benchmark genomes in benchmarks/genomes/ (the project's own).
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Each genome stresses one thing (see benchmarks/genomes/README.md). They are
# written by this script so that their construction is on record; run it from
# the project root to regenerate them.
import colorsys
import math
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks", "genomes")


def palette(hue0, hue1, sat=0.8):
    """256 entries sweeping hue0→hue1 with a brightness ramp, as hex RGB."""
    rows, line = [], ""
    for i in range(256):
        t = i / 255.0
        r, g, b = colorsys.hsv_to_rgb((hue0 + (hue1 - hue0) * t) % 1.0, sat, 0.35 + 0.65 * math.sin(t * math.pi / 2))
        line += "%02X%02X%02X" % (int(r * 255), int(g * 255), int(b * 255))
        if i % 8 == 7:
            rows.append("      " + line)
            line = ""
    return '   <palette count="256" format="RGB">\n' + "\n".join(rows) + "\n   </palette>\n"


def rot(scale, degrees, tx, ty):
    a = math.radians(degrees)
    c, s = scale * math.cos(a), scale * math.sin(a)
    # flam3 writes coefs as "a d b e c f" for x' = a x + b y + c, y' = d x + e y + f.
    return "%.6g %.6g %.6g %.6g %.6g %.6g" % (c, s, -s, c, tx, ty)


def flame(name, xforms, hue, size="1920 1080", scale=300, center="0 0", extra="", final=""):
    head = ('<flame name="%s" version="flamejit" size="%s" center="%s" scale="%g" quality="50" '
            'brightness="4" gamma="4" vibrancy="1" estimator_radius="9" estimator_minimum="0" '
            'estimator_curve="0.4" filter="0.5" filter_shape="gaussian"%s>\n' % (name, size, center, scale, extra))
    body = "".join("   %s\n" % x for x in xforms) + ("   %s\n" % final if final else "")
    return head + body + palette(*hue) + "</flame>\n"


GENOMES = {
    # Three half-size linear maps: the Sierpinski triangle. Nearly free to
    # iterate, so atomics bound it; maximally contractive, so warps converge.
    "linear3": flame("linear3", [
        '<xform weight="1" color="0" linear="1" coefs="%s"/>' % rot(0.5, 0, -0.5, 0.433),
        '<xform weight="1" color="0.5" linear="1" coefs="%s"/>' % rot(0.5, 0, 0.5, 0.433),
        '<xform weight="1" color="1" linear="1" coefs="%s"/>' % rot(0.5, 0, 0, -0.433),
    ], (0.55, 0.95), scale=420, center="0 0"),
    # The classic four spherical xforms.
    "spherical4": flame("spherical4", [
        '<xform weight="0.25" color="0" spherical="1" coefs="%s"/>' % rot(0.8, 20, 0.7, 0.0),
        '<xform weight="0.25" color="0.33" spherical="1" coefs="%s"/>' % rot(0.8, -40, -0.6, 0.4),
        '<xform weight="0.25" color="0.66" spherical="1" coefs="%s"/>' % rot(0.7, 75, 0.1, -0.7),
        '<xform weight="0.25" color="1" spherical="1" coefs="%s"/>' % rot(0.5, 160, 0.0, 0.2),
    ], (0.0, 0.35), scale=260),
    # Eight xforms of costly variations (transcendentals, loops, parameters).
    "expensive8": flame("expensive8", [
        '<xform weight="0.15" color="0" julian="0.8" julian_power="5" julian_dist="0.7" coefs="%s"/>' % rot(0.7, 10, 0.3, 0.1),
        '<xform weight="0.1" color="0.15" juliascope="0.6" juliascope_power="3" juliascope_dist="1" coefs="%s"/>' % rot(0.6, -30, -0.4, 0.2),
        '<xform weight="0.15" color="0.3" bipolar="0.4" bipolar_shift="0.2" spherical="0.4" coefs="%s"/>' % rot(0.8, 45, 0.1, -0.3),
        '<xform weight="0.1" color="0.45" cpow="0.6" cpow_r="1.5" cpow_i="0.2" cpow_power="2" coefs="%s"/>' % rot(0.6, 90, 0.2, 0.4),
        '<xform weight="0.15" color="0.6" ngon="0.5" ngon_sides="5" ngon_power="3" ngon_circle="1" ngon_corners="2" coefs="%s"/>' % rot(0.9, -60, -0.2, -0.2),
        '<xform weight="0.1" color="0.75" wedge_sph="0.5" wedge_sph_angle="0.6" wedge_sph_count="3" wedge_sph_hole="0.1" wedge_sph_swirl="0.3" coefs="%s"/>' % rot(0.7, 120, 0.3, -0.1),
        '<xform weight="0.15" color="0.9" curl="0.5" curl_c1="0.4" curl_c2="0.1" sinusoidal="0.3" coefs="%s"/>' % rot(0.8, 200, 0.0, 0.3),
        '<xform weight="0.1" color="1" mobius="0.6" Re_A="1" Im_A="0.2" Re_B="0.1" Im_B="0" Re_C="-0.3" Im_C="0.1" Re_D="1" Im_D="0" coefs="%s"/>' % rot(0.6, -100, -0.3, -0.4),
    ], (0.6, 1.1), scale=260),
    # A filled frame: every cell is hit often (DE and the post-pass over a full grid).
    "dense": flame("dense", [
        '<xform weight="0.5" color="0" linear="0.6" sinusoidal="0.4" coefs="%s"/>' % rot(0.85, 30, 0.2, 0.0),
        '<xform weight="0.3" color="0.5" spherical="0.7" linear="0.3" coefs="%s"/>' % rot(0.9, -70, -0.3, 0.3),
        '<xform weight="0.2" color="1" swirl="0.5" linear="0.5" coefs="%s"/>' % rot(0.8, 140, 0.1, -0.4),
    ], (0.1, 0.5), scale=900),
    # Thin curves on an empty frame: few cells are ever hit.
    "sparse": flame("sparse", [
        '<xform weight="0.5" color="0" linear="1" coefs="%s"/>' % rot(0.97, 8, 0.05, 0.0),
        '<xform weight="0.5" color="1" linear="1" coefs="%s"/>' % rot(0.3, 0, 0.9, 0.0),
    ], (0.45, 0.75), scale=420, center="0.4 0.55"),
    # Xaos: transitions forbidden or boosted by the previous xform.
    "xaos": flame("xaos", [
        '<xform weight="0.3" color="0" spherical="0.8" linear="0.2" chaos="0 1 2 1" coefs="%s"/>' % rot(0.7, 25, 0.5, 0.0),
        '<xform weight="0.3" color="0.33" julia="0.7" chaos="1 0 1 3" coefs="%s"/>' % rot(0.8, -35, -0.4, 0.3),
        '<xform weight="0.2" color="0.66" linear="1" chaos="2 1 0 1" coefs="%s"/>' % rot(0.5, 90, 0.0, -0.5),
        '<xform weight="0.2" color="1" swirl="0.4" linear="0.6" chaos="1 1 1 0" coefs="%s"/>' % rot(0.6, 180, 0.2, 0.2),
    ], (0.8, 1.2), scale=280),
    # A final xform and post affines on every xform.
    "final-post": flame("final-post", [
        '<xform weight="0.4" color="0" linear="0.5" spherical="0.5" coefs="%s" post="%s"/>' % (rot(0.8, 15, 0.4, 0.0), rot(0.9, 10, 0.0, 0.1)),
        '<xform weight="0.3" color="0.5" julia="1" coefs="%s" post="%s"/>' % (rot(0.6, -50, -0.3, 0.3), rot(1.1, -20, 0.1, 0.0)),
        '<xform weight="0.3" color="1" horseshoe="0.6" linear="0.4" coefs="%s" post="%s"/>' % (rot(0.7, 110, 0.0, -0.4), rot(0.8, 45, -0.1, 0.0)),
    ], (0.3, 0.7), scale=280,
        final='<finalxform color="0.5" color_speed="0.2" linear="0.7" swirl="0.15" coefs="%s" post="%s"/>' % (rot(1.0, 0, 0, 0), rot(1.2, 5, 0, 0))),
}


def many_xforms(count):
    """`count` xforms of two variations each, round a ring: a genome of the
    size symmetry or a busy artist makes, for the compile's growth with the
    xform count (benchmarks/README.md, "Xforms as calls")."""
    pairs = [("julian", 'julian_power="3" julian_dist="1"'), ("spherical", ""), ("bipolar", 'bipolar_shift="0.3"'),
             ("swirl", ""), ("ngon", 'ngon_sides="5" ngon_power="2" ngon_circle="1" ngon_corners="1"'),
             ("sinusoidal", ""), ("curl", 'curl_c1="0.3" curl_c2="0.1"'), ("polar", ""), ("disc", ""),
             ("wedge_sph", 'wedge_sph_angle="0.5" wedge_sph_count="2" wedge_sph_hole="0.1" wedge_sph_swirl="0.2"'),
             ("heart", ""), ("cpow", 'cpow_r="1.2" cpow_i="0.1" cpow_power="2"'), ("horseshoe", ""),
             ("mobius", 'Re_A="1" Im_A="0.1" Re_B="0.2" Im_B="0" Re_C="-0.2" Im_C="0.1" Re_D="1" Im_D="0"'),
             ("ex", ""), ("juliascope", 'juliascope_power="2" juliascope_dist="1"'), ("bent", ""),
             ("waves", ""), ("fisheye", ""), ("popcorn", ""), ("exponential", ""), ("power", ""),
             ("cosine", ""), ("rings", "")]
    xforms = []
    for i in range(count):
        (a, pa), (b, pb) = pairs[i % len(pairs)], pairs[(i * 7 + 3) % len(pairs)]
        angle = 360.0 * i / count
        tx, ty = 0.6 * math.cos(math.radians(angle)), 0.6 * math.sin(math.radians(angle))
        params = " ".join(p for p in (pa, pb) if p)
        coefs = rot(0.45 + 0.15 * (i % 3) / 2, angle * 1.5, tx, ty)
        xforms.append('<xform weight="%.3g" color="%.3g" %s="0.5" %s="0.5"%s coefs="%s"/>' % (
            1.0 / count, i / (count - 1), a, b, " " + params if params else "", coefs))
    return flame("many%d" % count, xforms, (0.05, 0.6), scale=300)


# Not in the benchmark set (its phases take every genome of benchmarks/genomes):
# genomes for the compile path's studies.
COMPILE_GENOMES = {"many%d" % n: many_xforms(n) for n in (12, 24, 48)}

if __name__ == "__main__":
    for folder, genomes in ((OUT, GENOMES), (os.path.join(OUT, "compile"), COMPILE_GENOMES)):
        os.makedirs(folder, exist_ok=True)
        for name, text in genomes.items():
            path = os.path.join(folder, name + ".flam3")
            with open(path, "w") as f:
                f.write(text)
            print(os.path.relpath(path, os.path.join(OUT, "..", "..")))
