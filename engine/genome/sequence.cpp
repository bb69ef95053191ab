// flamejit — a sequence of control points: the checks and fix-ups flam3 makes before animating.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/sequence.h"

#include <algorithm>
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

// flam3 leaves the rotate of a flame after one of these interpolation types
// as it is.
bool keeps_next_rotate(const Flame& flame) {
    return flame.interpolation_type == AffineInterpolation::Old || flame.interpolation_type == AffineInterpolation::Older;
}

}  // namespace

void apply_sequence_fixups(std::vector<Flame>& flames, bool loop) {
    if (!loop && !flames.empty() && flames.front().interpolation == Interpolation::Smooth)
        flames.front().interpolation = Interpolation::Linear;
    if (!loop && flames.size() >= 2 && flames[flames.size() - 2].interpolation == Interpolation::Smooth)
        flames[flames.size() - 2].interpolation = Interpolation::Linear;
    for (size_t i = 1; i < flames.size(); ++i)
        if (!keeps_next_rotate(flames[i - 1])) unwrap_rotate(&flames[i].rotate, flames[i - 1].rotate);
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

std::vector<Flame> loop_keyframes(const std::vector<Flame>& flames, double period, const std::string& label) {
    const double span = flames.back().time - flames.front().time;
    const std::string loop_of = label + ": a loop of " + message_number(period) + " frames";
    if (!std::isfinite(period) || !(period > span) || !std::isfinite(flames.front().time + 3 * period))
        throw InputError(loop_of + " must be longer than its keyframes' span, " + message_number(span) + " (times " +
                         message_number(flames.front().time) + " to " + message_number(flames.back().time) +
                         "), so that the last keyframe has time to turn into the first again");
    const size_t padded = std::max(flames.front().xforms.size(), flames.back().xforms.size());
    if (padded > static_cast<size_t>(kMaxSequenceXforms))
        throw InputError(loop_of + ": " + describe(flames, flames.size() - 1) + " and " + describe(flames, 0) +
                         ", joined, cannot be padded to a common structure: " + std::to_string(padded) +
                         " xforms, the kernels take at most " + std::to_string(kMaxSequenceXforms));
    // Keyframe i of the endless sequence, i from -2: flame i mod n, whole
    // periods later.
    const long long n = static_cast<long long>(flames.size());
    std::vector<Flame> loop;
    for (long long i = -2; i < n + 2; ++i) {
        const long long turns = i >= 0 ? i / n : -((-i + n - 1) / n);
        Flame flame = flames[static_cast<size_t>(i - turns * n)];
        flame.time += static_cast<double>(turns) * period;
        loop.push_back(std::move(flame));
    }
    // The copies' rotates follow on from the flames' own (loop[2] to
    // loop[n + 1]): forwards after them, backwards before them.
    for (size_t i = static_cast<size_t>(n) + 2; i < loop.size(); ++i)
        if (!keeps_next_rotate(loop[i - 1])) unwrap_rotate(&loop[i].rotate, loop[i - 1].rotate);
    for (size_t i = 2; i-- > 0;)
        if (!keeps_next_rotate(loop[i])) unwrap_rotate(&loop[i].rotate, loop[i + 1].rotate);
    return loop;
}

double loop_time(double time, double first, double period) {
    double t = std::fmod(time - first, period);
    if (t < 0) t += period;
    return t < period ? first + t : first;  // a tiny negative rest rounds up to a whole period
}

}  // namespace fj
