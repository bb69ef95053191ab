// flamejit — a sequence of control points: the checks and fix-ups flam3 makes before animating.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/sequence.h"

#include <cmath>
#include <sstream>

#include "errors.h"

namespace fj {
namespace {

std::string describe(const std::vector<Flame>& flames, size_t i) {
    std::ostringstream out;
    out << "flame " << i;
    if (!flames[i].name.empty()) out << " \"" << flames[i].name << "\"";
    out << " (time " << flames[i].time << ")";
    return out.str();
}

// flam3 adds or takes whole turns until `rotate` lies within 180 degrees
// of the previous flame's, one turn a step. A rotate very many turns away,
// or so large that a turn is below its precision, would take as good as
// forever: those jump there in one step (the same angle to within the
// precision of their numbers), the rest step as flam3 does.
constexpr double kMaxStepTurns = 10000;
constexpr double kMaxStepRotate = 1099511627776.0;  // 2^40: a turn stays exact-ish

void unwrap_rotate(double* rotate, double previous) {
    if (std::fabs(*rotate - previous) > kMaxStepTurns * 360 || std::fabs(*rotate) > kMaxStepRotate ||
        std::fabs(previous) > kMaxStepRotate) {
        *rotate = previous + std::remainder(std::remainder(*rotate, 360.0) - std::remainder(previous, 360.0), 360.0);
        return;
    }
    while (*rotate < previous - 180) *rotate += 360;
    while (*rotate > previous + 180) *rotate -= 360;
}

}  // namespace

void apply_sequence_fixups(std::vector<Flame>& flames) {
    if (!flames.empty() && flames.front().interpolation == Interpolation::Smooth)
        flames.front().interpolation = Interpolation::Linear;
    if (flames.size() >= 2 && flames[flames.size() - 2].interpolation == Interpolation::Smooth)
        flames[flames.size() - 2].interpolation = Interpolation::Linear;
    for (size_t i = 1; i < flames.size(); ++i) {
        const AffineInterpolation prev = flames[i - 1].interpolation_type;
        if (prev == AffineInterpolation::Old || prev == AffineInterpolation::Older) continue;
        unwrap_rotate(&flames[i].rotate, flames[i - 1].rotate);
    }
}

SequenceCheck check_sequence(std::vector<Flame>& flames, const std::string& label) {
    if (flames.empty()) throw InputError(label + ": no flames to animate");
    SequenceCheck result;
    for (size_t i = 0; i < flames.size(); ++i) {
        if (!std::isfinite(flames[i].time))
            throw InputError(label + ": " + describe(flames, i) + ": time is not a finite number");
        if (flames[i].xforms.empty())
            throw InputError(label + ": " + describe(flames, i) + ": has no xforms to interpolate");
        if (i > 0 && !(flames[i].time > flames[i - 1].time))
            throw InputError(label + ": " + describe(flames, i) + " does not come after " + describe(flames, i - 1) +
                             ": keyframe times must strictly increase");
        if (i > 0) {
            // Padding gives both flames of a segment the larger xform count
            // (smooth segments look one further each way; the pairwise bound
            // covers them because it holds for every neighbour).
            const size_t padded = std::max(flames[i].xforms.size(), flames[i - 1].xforms.size());
            if (padded > static_cast<size_t>(kMaxSequenceXforms))
                throw InputError(label + ": " + describe(flames, i - 1) + " and " + describe(flames, i) +
                                 " cannot be padded to a common structure: " + std::to_string(padded) +
                                 " xforms, the kernels take at most " + std::to_string(kMaxSequenceXforms));
        }
        if (flames[i].width != flames[0].width || flames[i].height != flames[0].height) {
            flames[i].width = flames[0].width;
            flames[i].height = flames[0].height;
            ++result.resized;
        }
    }
    return result;
}

}  // namespace fj
