// flamejit — every variation snippet against libflam3's own apply_xform.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The list of variations comes from the registry, never from this file. Each
// one is set up in flam3 through flam3's own XML parser (so a parameter name
// that is not flam3's exact XML spelling is ignored by flam3 and the comparison
// fails), run through prepare_precalc_flags, xform_precalc and apply_xform, and
// compared with the host build of our snippet fed the same pre-affine.
//
// Deterministic variations are compared point by point at 1e-4 relative to
// max(1, |q|). flam3 computes in double and we in float, so a point is only
// judged where flam3 itself is well-conditioned: moving the pre-affine result by
// four float ulps must change flam3's answer by less than a quarter of the
// tolerance, and so must moving any parameter or the weight by four ulps.
// Points that fail that (periodic functions of huge arguments, branch
// boundaries, cancellation) are counted and reported, and every variation must
// still have most of its points judged. Where flam3's point is bad (NaN, or
// beyond 1e10: flam3 replaces it), ours must be bad too, unless flam3 is good
// right beside it or ours is far off as well. Variations that draw random numbers are
// compared as distributions: a Kolmogorov–Smirnov distance (with the same small
// horizontal tolerance) on four projections of 10^5 outputs each.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "codegen/variation_registry.h"
#include "cpu/variation_table.h"
#include "fj_device.h"
#include "iterate/common.h"
#include "shared/flam3_overflow.h"
#include "shared/hashes.h"
#include "test_support.h"

extern "C" {
#include <flam3.h>
// Exported by libflam3 but not declared in its public header.
int prepare_precalc_flags(flam3_genome* cp);
void xform_precalc(flam3_genome* cp, int xi);
int apply_xform(flam3_genome* cp, int fn, double* p, double* q, randctx* rc);
}

namespace {

constexpr double kRelTol = 1e-4;

struct Setup {
    fj::Affine aff;                 // our pre-affine (floats, exact in both)
    float weight;
    std::vector<float> params;      // in registry order
    bool use_aliases = false;       // spell parameters by flam3's aliases
};

std::string fmt(float v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
    return buf;
}

// A one-xform flam3 genome built by flam3's parser from the same numbers.
class Flam3Xform {
public:
    Flam3Xform(const fj::VariationInfo& info, const Setup& s) {
        std::string xml = "<flame size=\"64 64\" center=\"0 0\" scale=\"10\"><xform weight=\"1\" color=\"0\" ";
        xml += info.name + "=\"" + fmt(s.weight) + "\" ";
        // A pre-variation only moves the point; linear makes the move visible.
        if (info.pre) xml += "linear=\"1\" ";
        for (size_t i = 0; i < info.params.size(); ++i) {
            std::string name = info.params[i].name;
            // Another renderer's spelling (Fractorium's Mobius_Re_A) is one flam3 ignores.
            if (s.use_aliases)
                for (const auto& [alias, target] : info.aliases)
                    if (target == info.params[i].name && !fj::test::other_renderers_alias(info.name, alias)) {
                        name = alias;
                        break;
                    }
            xml += name + "=\"" + fmt(s.params[i]) + "\" ";
        }
        // flam3 writes coefs as a d b e c f.
        const fj::Affine& m = s.aff;
        xml += "coefs=\"" + fmt(m.a) + " " + fmt(m.d) + " " + fmt(m.b) + " " + fmt(m.e) + " " +
               fmt(m.c) + " " + fmt(m.f) + "\"/></flame>";
        int n = 0;
        std::vector<char> text(xml.begin(), xml.end());
        text.push_back('\0');
        char name[] = "variations_test";
        cp_ = flam3_parse_xml2(text.data(), name, flam3_defaults_on, &n);
        ok_ = cp_ != nullptr && n == 1 && cp_->num_xforms == 1;
        if (ok_) ok_ = prepare_precalc_flags(cp_) == 0;
        if (ok_) xform_precalc(cp_, 0);
        // Inverse of the linear part, to move flam3's pre-affine result by a chosen step.
        const double det = double(m.a) * m.e - double(m.b) * m.d;
        inv_ok_ = std::fabs(det) > 1e-6;
        if (inv_ok_) {
            ia_ = m.e / det; ib_ = -m.b / det; id_ = -m.d / det; ie_ = m.a / det;
        }
        for (int i = 0; i < RANDSIZ; ++i) rc_.randrsl[i] = 0x9e3779b9u * (i + 1);
        irandinit(&rc_, 1);
    }
    ~Flam3Xform() {
        if (cp_) {
            clear_cp(cp_, flam3_defaults_on);
            std::free(cp_->xform);
            std::free(cp_);
        }
    }
    Flam3Xform(const Flam3Xform&) = delete;
    Flam3Xform& operator=(const Flam3Xform&) = delete;

    bool ok() const { return ok_; }
    bool invertible() const { return inv_ok_; }

    // flam3's result at input (x, y); false where flam3 reports a bad value.
    bool apply(double x, double y, double& qx, double& qy) {
        double p[4] = {x, y, 0, 0}, q[4] = {0, 0, 0, 0};
        const int bad = apply_xform(cp_, 0, p, q, &rc_);
        qx = q[0];
        qy = q[1];
        return bad == 0 && std::isfinite(q[0]) && std::isfinite(q[1]);
    }
    // flam3's result with the pre-affine result moved by (dx, dy).
    bool apply_moved(double x, double y, double dx, double dy, double& qx, double& qy) {
        return apply(x + ia_ * dx + ib_ * dy, y + id_ * dx + ie_ * dy, qx, qy);
    }

private:
    flam3_genome* cp_ = nullptr;
    bool ok_ = false, inv_ok_ = false;
    double ia_ = 0, ib_ = 0, id_ = 0, ie_ = 0;
    randctx rc_{};
};

// Ours: pre-affine in float, then the snippet (pre-variations move the point).
void apply_ours(const fj::VariationInfo& info, fj::cpu::VariationFn fn, const Setup& s, float x, float y,
                fj::Rng& rng, float& ox, float& oy) {
    float tx, ty;
    fj::apply_affine(s.aff, x, y, tx, ty);
    const fj::VarIn in = fj::make_var_in(tx, ty, &s.aff);
    if (info.pre) {
        ox = tx;
        oy = ty;
    } else {
        ox = 0;
        oy = 0;
    }
    float color = 0.5f;  // flam3's variations leave the colour index alone
    fn(in, s.params.data(), s.weight, rng, ox, oy, color);
}

class Sampler {
public:
    explicit Sampler(unsigned seed) : gen_(seed) {}
    float uni(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen_); }
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(gen_) < p; }
    float sign() { return chance(0.5) ? 1.0f : -1.0f; }

    Setup setup(const fj::VariationInfo& info) {
        Setup s;
        const double kind = uni(0, 1);
        if (kind < 0.2) {
            s.aff = {1, 0, 0, 0, 1, 0};
        } else if (kind < 0.4) {
            s.aff = {uni(-1.5f, 1.5f), uni(-1.5f, 1.5f), 0, uni(-1.5f, 1.5f), uni(-1.5f, 1.5f), 0};
        } else {
            s.aff = {uni(-1.5f, 1.5f), uni(-1.5f, 1.5f), uni(-1, 1), uni(-1.5f, 1.5f), uni(-1.5f, 1.5f), uni(-1, 1)};
        }
        s.weight = sign() * uni(0.1f, 2.0f);
        for (const auto& p : info.params) {
            const double c = uni(0, 1);
            float v;
            if (c < 0.25) v = static_cast<float>(p.default_value);
            else if (c < 0.45) v = static_cast<float>(static_cast<int>(uni(-6, 7)));
            else v = uni(-3, 3);
            s.params.push_back(v);
        }
        s.use_aliases = !info.aliases.empty() && chance(0.5);
        return s;
    }

    // Input points: near zero, ordinary, large, and on the axes.
    void point(float& x, float& y) {
        const double c = uni(0, 1);
        if (c < 0.15) {
            x = uni(-1e-3f, 1e-3f);
            y = uni(-1e-3f, 1e-3f);
        } else if (c < 0.6) {
            x = uni(-2, 2);
            y = uni(-2, 2);
        } else if (c < 0.8) {
            x = sign() * std::exp(uni(std::log(5.0f), std::log(1000.0f)));
            y = sign() * std::exp(uni(std::log(5.0f), std::log(1000.0f)));
        } else {
            x = uni(-3, 3);
            y = uni(-3, 3);
            if (chance(0.5)) x = 0;
            else y = 0;
        }
    }

private:
    std::mt19937 gen_;
};

float ulp(double v) {
    const float f = static_cast<float>(std::fabs(v));
    return std::nextafter(f, INFINITY) - f;
}

float nudge(float v, int ulps) {
    for (int i = 0; i < std::abs(ulps); ++i) v = std::nextafter(v, ulps > 0 ? INFINITY : -INFINITY);
    return v;
}

// The same xform with one parameter (or the weight) moved by a few float ulps.
std::vector<std::unique_ptr<Flam3Xform>> nudged_copies(const fj::VariationInfo& info, const Setup& s) {
    std::vector<std::unique_ptr<Flam3Xform>> out;
    for (int j = -1; j < static_cast<int>(s.params.size()); ++j) {
        for (int dir : {-4, 4}) {
            Setup t = s;
            float& v = j < 0 ? t.weight : t.params[j];
            if (v == 0) continue;
            v = nudge(v, dir);
            out.push_back(std::make_unique<Flam3Xform>(info, t));
        }
    }
    return out;
}

struct Counts {
    long tried = 0, flam3_bad = 0, off_scale = 0, ill_conditioned = 0, checked = 0, wrong = 0;
    long bad_alike = 0;  // flam3's bad points that are bad in ours too
    int empty_setups = 0;  // setups in which flam3 rejected (nearly) everything
};

void check_deterministic(const fj::VariationInfo& info, fj::cpu::VariationFn fn, Sampler& sampler, Counts& n) {
    constexpr int kSetups = 48, kPoints = 300;
    int reported = 0;
    for (int si = 0; si < kSetups; ++si) {
        const Setup s = sampler.setup(info);
        Flam3Xform flam(info, s);
        CHECK_MESSAGE(flam.ok(), info.name << ": flam3 did not accept the genome");
        if (!flam.ok()) {
            ++n.wrong;
            return;
        }
        const auto nudged = nudged_copies(info, s);
        fj::Rng rng = fj::make_rng(1234, si);
        // Ours at the points flam3 rejects: well-defined answers there mean
        // flam3 read other parameters than ours (a spelling it ignores).
        int rejected = 0, ours_defined = 0;
        for (int pi = 0; pi < kPoints; ++pi) {
            float x, y;
            sampler.point(x, y);
            ++n.tried;
            // Conditioning: flam3 at the pre-affine result moved by 4 float
            // ulps each way, and with a parameter or the weight moved by 4;
            // `each` takes whether flam3's point is good there, and the point.
            float tx, ty;
            fj::apply_affine(s.aff, x, y, tx, ty);
            const double sx = 4.0 * ulp(tx) + 4.0 * ulp(std::fabs(s.aff.a * x) + std::fabs(s.aff.b * y) + std::fabs(s.aff.c));
            const double sy = 4.0 * ulp(ty) + 4.0 * ulp(std::fabs(s.aff.d * x) + std::fabs(s.aff.e * y) + std::fabs(s.aff.f));
            const double steps[4][2] = {{sx, 0}, {-sx, 0}, {0, sy}, {0, -sy}};
            const auto moved = [&](auto each) {
                double mx = 0, my = 0;
                for (const auto& step : steps) {
                    const bool good = flam.apply_moved(x, y, step[0], step[1], mx, my);
                    each(good, mx, my);
                }
                for (const auto& copy : nudged) {
                    const bool good = copy->apply(x, y, mx, my);
                    each(good, mx, my);
                }
            };
            double qx, qy;
            if (!flam.apply(x, y, qx, qy)) {
                ++n.flam3_bad;
                ++rejected;
                float ox, oy;
                apply_ours(info, fn, s, x, y, rng, ox, oy);
                if (std::isfinite(ox) && std::isfinite(oy) && std::hypot(ox, oy) < 1e9) ++ours_defined;
                // flam3 replaces a bad point, so ours must be bad too: unless
                // flam3 is good right beside it (a threshold that float
                // cannot place), or ours is far off as well (a pole that
                // float's π places less exactly than double's).
                if (fj::is_bad_point(ox, oy)) {
                    ++n.bad_alike;
                    continue;
                }
                if (std::hypot(ox, oy) > 1e6) {
                    ++n.off_scale;
                    continue;
                }
                bool edge = !flam.invertible();
                moved([&](bool good, double, double) { edge = edge || good; });
                if (edge) {
                    ++n.ill_conditioned;
                } else {
                    ++n.wrong;
                    if (reported++ < 5)
                        MESSAGE(info.name << ": in (" << x << ", " << y << ") pre-affine (" << tx << ", " << ty
                                          << ") w " << s.weight << ": flam3's point is bad, ours (" << ox << ", "
                                          << oy << ")");
                }
                continue;
            }
            // Beyond 1e7 the point is far off any camera and flam3's value is set by
            // its EPS guards at poles (ngon, spherical at 0), which float's π cannot
            // place as exactly as double's; judging those would test EPS, not formulas.
            if (std::hypot(qx, qy) > 1e7) {
                ++n.off_scale;
                continue;
            }
            const double tol = kRelTol * std::max(1.0, std::hypot(qx, qy));
            bool ill = !flam.invertible();
            moved([&](bool good, double mx, double my) {
                ill = ill || !good || std::hypot(mx - qx, my - qy) > 0.25 * tol;
            });
            if (ill) {
                ++n.ill_conditioned;
                continue;
            }
            float ox, oy;
            apply_ours(info, fn, s, x, y, rng, ox, oy);
            ++n.checked;
            const double err = std::max(std::fabs(ox - qx), std::fabs(oy - qy));
            if (!(err <= tol)) {
                ++n.wrong;
                if (reported++ < 5)
                    MESSAGE(info.name << ": in (" << x << ", " << y << ") pre-affine (" << tx << ", " << ty
                                      << ") w " << s.weight << " params[0] "
                                      << (s.params.empty() ? 0.0f : s.params[0]) << ": flam3 (" << qx << ", "
                                      << qy << ") ours (" << ox << ", " << oy << ")");
            }
        }
        // A setup whose parameters leave the map undefined (a zero modulus,
        // mobius's C = D = 0) is rejected by flam3 everywhere, and must be by us.
        if (rejected > kPoints * 9 / 10) {
            ++n.empty_setups;
            CHECK_MESSAGE(ours_defined == 0, info.name << " setup " << si << ": flam3 rejects " << rejected << " of "
                                                       << kPoints << " points, ours defines " << ours_defined);
            if (ours_defined) ++n.wrong;
        }
    }
}

// Largest vertical gap between the empirical distributions of a and b, where b
// may sit up to a relative 1e-4 to the right of a (float against double).
double tolerant_ks(std::vector<double>& a, std::vector<double>& b) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    auto below = [](const std::vector<double>& v, double t) {
        return static_cast<double>(std::upper_bound(v.begin(), v.end(), t) - v.begin()) / v.size();
    };
    double d = 0;
    for (int pass = 0; pass < 2; ++pass) {
        const auto& u = pass ? a : b;
        const auto& v = pass ? b : a;
        for (size_t i = 0; i < u.size(); i += 1 + u.size() / 4000) {
            const double t = u[i];
            const double slack = kRelTol * std::max(1.0, std::fabs(t));
            d = std::max(d, below(u, t) - below(v, t + slack));
        }
    }
    return d;
}

void check_random(const fj::VariationInfo& info, fj::cpu::VariationFn fn, Sampler& sampler, Counts& n) {
    constexpr int kSetups = 6, kSamples = 100000;
    constexpr double kMaxKs = 0.015;  // ≈ the 10^-6 critical value for two 10^5 samples
    for (int si = 0; si < kSetups; ++si) {
        const Setup s = sampler.setup(info);
        Flam3Xform flam(info, s);
        CHECK_MESSAGE(flam.ok(), info.name << ": flam3 did not accept the genome");
        if (!flam.ok()) {
            ++n.wrong;
            return;
        }
        float x = sampler.uni(-2, 2), y = sampler.uni(-2, 2);
        if (si == 0) x = 0;  // an axis
        std::vector<double> fx[4], ox[4];
        fj::Rng rng = fj::make_rng(99, si);
        for (int k = 0; k < kSamples; ++k) {
            ++n.tried;
            double qx, qy;
            if (flam.apply(x, y, qx, qy)) {
                const double v[4] = {qx, qy, qx + qy, qx - qy};
                for (int j = 0; j < 4; ++j) fx[j].push_back(v[j]);
            } else {
                ++n.flam3_bad;
            }
            float rx, ry;
            apply_ours(info, fn, s, x, y, rng, rx, ry);
            if (std::isfinite(rx) && std::isfinite(ry) && std::fabs(rx) < 1e10f && std::fabs(ry) < 1e10f) {
                const double v[4] = {rx, ry, double(rx) + ry, double(rx) - ry};
                for (int j = 0; j < 4; ++j) ox[j].push_back(v[j]);
            }
        }
        // Both sides must reject about the same share of samples.
        const double fkept = double(fx[0].size()) / kSamples, okept = double(ox[0].size()) / kSamples;
        CHECK_MESSAGE(std::fabs(fkept - okept) < 0.01,
                      info.name << " setup " << si << ": flam3 keeps " << fkept << ", ours " << okept);
        if (fkept < 0.5) {  // flam3 itself is mostly bad here: no distribution to compare
            ++n.empty_setups;
            continue;
        }
        n.checked += static_cast<long>(fx[0].size());
        if (ox[0].empty()) {
            ++n.wrong;
            continue;
        }
        static const char* const kProj[4] = {"x", "y", "x+y", "x-y"};
        for (int j = 0; j < 4; ++j) {
            const double d = tolerant_ks(ox[j], fx[j]);
            if (d > kMaxKs) {
                ++n.wrong;
                MESSAGE(info.name << " setup " << si << " at (" << x << ", " << y << ") w " << s.weight
                                  << ": KS distance of " << kProj[j] << " is " << d);
            }
        }
    }
}

}  // namespace

TEST_CASE("variations: every snippet matches libflam3's apply_xform") {
    const auto& reg = fj::VariationRegistry::standard();
    REQUIRE(!reg.all().empty());
    Sampler sampler(20240601);
    for (const auto& info : reg.all()) {
        if (!info.from_flam3()) continue;  // libflam3 has only its own (fractorium_test has the others)
        const fj::cpu::VariationEntry* entry = fj::cpu::find_variation(info.name);
        CHECK_MESSAGE(entry, info.name << " has no host function");
        if (!entry) continue;
        Counts n;
        const bool random = info.random_draws > 0;
        if (random) check_random(info, entry->fn, sampler, n);
        else check_deterministic(info, entry->fn, sampler, n);
        std::printf("%-16s %-13s tried %7ld  flam3-bad %6ld (bad alike %6ld)  off-scale %5ld  ill-conditioned %6ld  "
                    "checked %7ld  wrong %ld  empty setups %d\n",
                    info.name.c_str(), random ? "distribution" : "pointwise", n.tried, n.flam3_bad, n.bad_alike,
                    n.off_scale, n.ill_conditioned, n.checked, n.wrong, n.empty_setups);
        CHECK_MESSAGE(n.wrong == 0, info.name << ": " << n.wrong << " mismatches");
        // A variation must not pass by having every point excused, nor by
        // flam3 rejecting most of them (modulus, zero in about half its setups,
        // keeps about half its points).
        CHECK_MESSAGE(n.checked >= (n.tried - n.flam3_bad - n.off_scale) / 2,
                      info.name << ": only " << n.checked << " of " << n.tried - n.flam3_bad - n.off_scale
                                << " points judged");
        CHECK_MESSAGE(n.checked >= n.tried / 4, info.name << ": only " << n.checked << " of " << n.tried
                                                          << " points judged, flam3 rejected " << n.flam3_bad);
    }
}

// shared/flam3_overflow.h's thresholds: from each on, flam3's double
// arithmetic overflows into a bad point and ours must be bad too; at the
// float before it both are good. Both signs, and other coordinates apart.
TEST_CASE("variations: bad points where flam3's double overflows, from the float where it begins") {
    struct Edge {
        const char* name;
        bool on_y;  // the threshold is on y (else x)
        float from;
    };
    const Edge edges[] = {
        {"tan", true, FJ_FLAM3_COSH_2V_OVERFLOW},   {"tan", true, -FJ_FLAM3_COSH_2V_OVERFLOW},
        {"cot", true, FJ_FLAM3_COSH_2V_OVERFLOW},   {"cot", true, -FJ_FLAM3_COSH_2V_OVERFLOW},
        {"tanh", false, FJ_FLAM3_COSH_2V_OVERFLOW}, {"tanh", false, -FJ_FLAM3_COSH_2V_OVERFLOW},
        {"coth", false, FJ_FLAM3_COSH_2V_OVERFLOW}, {"coth", false, -FJ_FLAM3_COSH_2V_OVERFLOW},
        {"sec", true, FJ_FLAM3_COSH_OVERFLOW},      {"sec", true, -FJ_FLAM3_COSH_OVERFLOW},
        {"csc", true, FJ_FLAM3_COSH_OVERFLOW},      {"csc", true, -FJ_FLAM3_COSH_OVERFLOW},
        {"sech", false, FJ_FLAM3_COSH_OVERFLOW},    {"sech", false, -FJ_FLAM3_COSH_OVERFLOW},
        {"csch", false, FJ_FLAM3_COSH_OVERFLOW},    {"csch", false, -FJ_FLAM3_COSH_OVERFLOW},
        {"foci", false, FJ_FLAM3_EXP_OVERFLOW},     {"foci", false, -FJ_FLAM3_COSH_OVERFLOW},
    };
    for (const Edge& e : edges) {
        const fj::VariationInfo* info = fj::VariationRegistry::standard().by_name(e.name);
        const fj::cpu::VariationEntry* entry = fj::cpu::find_variation(e.name);
        REQUIRE((info && entry));
        Setup s;
        s.aff = {1, 0, 0, 0, 1, 0};
        s.weight = 0.8f;
        Flam3Xform flam(*info, s);
        REQUIRE(flam.ok());
        const float before = std::nextafter(e.from, 0.0f);
        for (const float other : {0.0f, 0.3f, -1.7f, 3.0f})
            for (const float v : {e.from, before}) {
                const bool past = v == e.from;
                const float x = e.on_y ? other : v, y = e.on_y ? v : other;
                double qx, qy;
                CHECK_MESSAGE(flam.apply(x, y, qx, qy) == !past,
                              e.name << " at (" << fmt(x) << ", " << fmt(y) << "): flam3's point is "
                                     << (past ? "good" : "bad"));
                fj::Rng rng{1};
                float ox, oy;
                apply_ours(*info, entry->fn, s, x, y, rng, ox, oy);
                CHECK_MESSAGE(fj::is_bad_point(ox, oy) == past,
                              e.name << " at (" << fmt(x) << ", " << fmt(y) << "): ours (" << ox << ", " << oy << ")");
            }
    }
}

// perspective at distance 0: flam3 adds w·0·x·t, nothing, wherever its t is
// finite, which in double is everywhere but at angle 0 or y = 0 (the sine of
// a whole turn, angle 4·k, is not 0 in double, but is after the snippet's
// reduction); both give a bad point there. The random setups above seldom
// draw these angles with distance 0.
TEST_CASE("variations: perspective at distance 0 adds nothing where flam3 adds nothing") {
    const fj::VariationInfo* info = fj::VariationRegistry::standard().by_name("perspective");
    const fj::cpu::VariationEntry* entry = fj::cpu::find_variation("perspective");
    REQUIRE((info && entry));
    std::mt19937 gen(5);
    std::uniform_real_distribution<float> coordinate(-3.0f, 3.0f);
    int compared = 0;
    for (float angle : {2.0f, 4.0f, -2.0f, 6.0f, 1.0f, 0.5f, 0.0f}) {
        Setup s;
        s.aff = {1, 0, 0, 0, 1, 0};
        s.weight = 0.8f;
        s.params = {angle, 0.0f};
        Flam3Xform flam(*info, s);
        REQUIRE(flam.ok());
        for (int i = 0; i < 50; ++i) {
            const float x = coordinate(gen), y = i == 0 ? 0.0f : coordinate(gen);
            double qx, qy;
            const bool flam3_good = flam.apply(x, y, qx, qy);
            fj::Rng rng{1};
            float ox, oy;
            apply_ours(*info, entry->fn, s, x, y, rng, ox, oy);
            const bool ours_good = std::isfinite(ox) && std::isfinite(oy);
            CHECK_MESSAGE(ours_good == flam3_good, "angle " << angle << " at (" << fmt(x) << ", " << fmt(y) << ")");
            if (flam3_good && ours_good) {
                CHECK(std::fabs(ox - qx) <= 1e-6);
                CHECK(std::fabs(oy - qy) <= 1e-6);
                ++compared;
            }
        }
    }
    CHECK(compared == 6 * 49);
}

// The angle every theta/phi-reading variation starts from. The reference is
// atan2 in double, which the float result must meet within 2 ulp of itself;
// the special values must be atan2's exactly, signs of zero included.
TEST_CASE("arctan2: within 2 ulp of atan2, with atan2's zeros, infinities and NaN") {
    std::mt19937_64 gen(7);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::uniform_int_distribution<std::uint32_t> bits;
    auto any_float = [&] {
        for (;;) {
            const std::uint32_t b = bits(gen);
            float f;
            std::memcpy(&f, &b, sizeof f);
            if (std::isfinite(f)) return f;
        }
    };
    double worst = 0.0;
    for (int i = 0; i < 2000000; ++i) {
        const bool wide = i % 2 != 0;
        const float y = wide ? any_float() : unit(gen), x = wide ? any_float() : unit(gen);
        const double exact = std::atan2(static_cast<double>(y), static_cast<double>(x));
        const float rounded = static_cast<float>(exact);
        if (std::fabs(rounded) < 1e-30f) continue;  // subnormal results: checked below
        const double ulp = std::nextafter(std::fabs(rounded), INFINITY) - std::fabs(rounded);
        const double err = std::fabs(static_cast<double>(fj::arctan2(y, x)) - exact) / ulp;
        if (err > worst) worst = err;
        if (err > 2.0) {
            FAIL_CHECK("arctan2(" << fmt(y) << ", " << fmt(x) << ") is " << err << " ulp off");
            break;
        }
    }
    MESSAGE("worst error " << worst << " ulp");

    const float inf = INFINITY, tiny = 1e-45f;
    const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, tiny, -tiny, 3e38f, -3e38f, inf, -inf};
    for (float y : specials)
        for (float x : specials) {
            const float want = static_cast<float>(std::atan2(static_cast<double>(y), static_cast<double>(x)));
            const float got = fj::arctan2(y, x);
            const bool same = got == want && std::signbit(got) == std::signbit(want);
            const bool close = std::fabs(got - want) <= 2.0f * (std::nextafter(std::fabs(want), inf) - std::fabs(want));
            CHECK_MESSAGE((want == 0.0f ? same : close),
                          "arctan2(" << fmt(y) << ", " << fmt(x) << ") = " << fmt(got) << ", atan2 " << fmt(want));
        }
    for (float v : {0.0f, 1.0f, inf, -inf}) {
        CHECK(std::isnan(fj::arctan2(NAN, v)));
        CHECK(std::isnan(fj::arctan2(v, NAN)));
    }
}

// fj::modulo's device path (fj_device.h) takes the integer part of the
// quotient from the fast division, which may be one off it either way, and
// remainder_near must still give fmod's exact remainder. Here the quotient is
// the true one (from the remainder, in double, where it is exact) and each
// neighbour, over divisors of every normal magnitude the device path takes
// and dividends up to 2^22 divisors, many of them next to a multiple of the
// divisor, where a division rounds to the wrong integer.
TEST_CASE("remainder_near: fmodf's exact remainder from the quotient's integer part or either neighbour") {
    std::mt19937_64 gen(11);
    std::uniform_int_distribution<int> exponent(-126, 125), nudge(-3, 3);
    std::uniform_real_distribution<float> mantissa(1.0f, 2.0f), below(0.0f, 4194304.0f);
    std::uniform_int_distribution<std::uint32_t> multiple(0, 4194303);
    auto bits_of = [](float f) {
        std::uint32_t b;
        std::memcpy(&b, &f, sizeof b);
        return b;
    };
    int checked = 0, wrong = 0;
    for (int i = 0; i < 1000000; ++i) {
        const float ay = std::ldexp(mantissa(gen), exponent(gen));
        float ax = i % 2 ? static_cast<float>(static_cast<double>(ay) * multiple(gen)) : ay * below(gen);
        for (int n = nudge(gen); n != 0; n += n > 0 ? -1 : 1) ax = std::nextafter(ax, n > 0 ? INFINITY : 0.0f);
        if (!(ax < 4194304.0f * ay) || !std::isfinite(ax)) continue;
        const float want = std::fmod(ax, ay);
        const double q = std::round((static_cast<double>(ax) - want) / ay);
        for (double d : {-1.0, 0.0, 1.0}) {
            if (q + d < 0) continue;
            const float got = fj::remainder_near(ax, ay, static_cast<float>(q + d));
            ++checked;
            if (bits_of(got) != bits_of(want) && ++wrong <= 5)
                FAIL_CHECK("remainder_near(" << fmt(ax) << ", " << fmt(ay) << ", " << q + d << ") = " << fmt(got)
                                             << ", fmodf " << fmt(want));
        }
    }
    CHECK(checked > 2500000);
    CHECK(wrong == 0);
}

// The host's sinh, cosh and tan, which the trigonometric variations use, against
// the double functions: errors in ulps of the rounded exact value, over every
// magnitude where the results are finite floats (sinh and cosh overflow past
// 89.4 as floats do), and the special values as the C functions give them.
TEST_CASE("sinh_cosh and tangent: within 4, 2.5 and 2 ulp of sinh, cosh and tan, with their special values") {
    const auto ulps = [](float got, double exact) {
        const float rounded = static_cast<float>(std::fabs(exact));
        return std::fabs(static_cast<double>(got) - exact) / (std::nextafter(rounded, INFINITY) - rounded);
    };
    std::mt19937_64 gen(11);
    std::uniform_real_distribution<double> exponent(-40.0, std::log2(89.4));
    double worst_sinh = 0.0, worst_cosh = 0.0, worst_tan = 0.0;
    for (int i = 0; i < 1000000; ++i) {
        float x = static_cast<float>(std::exp2(exponent(gen)));
        if (i % 2 != 0) x = -x;
        float s, c;
        fj::sinh_cosh(x, s, c);
        const double xd = x;
        worst_sinh = std::max(worst_sinh, ulps(s, std::sinh(xd)));
        worst_cosh = std::max(worst_cosh, ulps(c, std::cosh(xd)));
        worst_tan = std::max(worst_tan, ulps(fj::tangent(x), std::tan(xd)));
    }
    MESSAGE("worst errors: sinh " << worst_sinh << ", cosh " << worst_cosh << ", tan " << worst_tan << " ulp");
    CHECK(worst_sinh <= 4.0);
    CHECK(worst_cosh <= 2.5);
    CHECK(worst_tan <= 2.0);

    const float inf = INFINITY;
    float s, c;
    for (float x : {0.0f, -0.0f, 1e-45f, -1e-45f}) {
        fj::sinh_cosh(x, s, c);
        CHECK_MESSAGE((s == x && std::signbit(s) == std::signbit(x) && c == 1.0f), "sinh_cosh(" << fmt(x) << ")");
    }
    for (float x : {89.5f, -89.5f, inf, -inf}) {
        fj::sinh_cosh(x, s, c);
        CHECK_MESSAGE((s == std::sinh(x) && c == inf), "sinh_cosh(" << fmt(x) << ") = " << fmt(s) << ", " << fmt(c));
    }
    fj::sinh_cosh(NAN, s, c);
    CHECK((std::isnan(s) && std::isnan(c)));
    CHECK(fj::tangent(-0.0f) == 0.0f);
    CHECK(std::signbit(fj::tangent(-0.0f)));
    CHECK(std::isnan(fj::tangent(inf)));
    CHECK(std::isnan(fj::tangent(NAN)));
}

// The sine behind fj::hash_sine: its bits are what the hash magnifies, so
// it must be sin within a few ulps wherever the hashing variations reach
// (the device's sameness is by construction: every step rounded alone).
TEST_CASE("stable_sin: within 2.5 ulp of sin up to 10^5, as absolute error near its zeros") {
    std::mt19937_64 gen(12);
    std::uniform_real_distribution<double> exponent(-20.0, std::log2(1e5));
    double worst = 0.0;
    for (int i = 0; i < 1000000; ++i) {
        float a = static_cast<float>(std::exp2(exponent(gen)));
        if (i % 2 != 0) a = -a;
        const double exact = std::sin(static_cast<double>(a));
        // Measured against an ulp of 1 where the result is below 1/4: the
        // reduction's error is absolute, and that is what the hash sees.
        const float scale = static_cast<float>(std::max(std::fabs(exact), 0.25));
        const double ulp = std::nextafter(scale, INFINITY) - scale;
        worst = std::max(worst, std::fabs(static_cast<double>(fj::stable_sin(a)) - exact) / ulp);
    }
    MESSAGE("worst error " << worst << " ulp");
    CHECK(worst <= 2.5);
    CHECK(fj::stable_sin(0.0f) == 0.0f);
    // The hash's sine: its fractional part moves by a third of its range
    // when the argument moves by a millionth of a radian.
    CHECK(fj::hash_sine(1.0f) == doctest::Approx(43758.5453 * std::sin(1.0)).epsilon(1e-6));
    CHECK(std::fabs(fj::hash_sine(1.0f) - fj::hash_sine(1.000001f)) > 0.01);
}
