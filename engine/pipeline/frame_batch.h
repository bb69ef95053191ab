// flamejit — which frames a batch render owns, where each goes, and which are already done.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Frame N of an animation is genome time N (flam3-animate's convention) and
// is written to the output pattern formatted with N. A range A:B[:STEP]
// holds A, A+STEP, … up to and including B. Shard I/N (I counted from 0) is
// the I-th of N contiguous, near-equal slices of that list, so N independent
// jobs cover every frame exactly once with no coordination, and a slice's
// frames mostly share one kernel structure.
#pragma once

#include <string>
#include <vector>

namespace fj {

struct FrameRange {
    long long first = 0, last = 0, step = 1;
    std::vector<long long> frames() const;
};

struct Shard {
    long long index = 0, count = 1;
};

// At most this many frames in one range.
inline constexpr unsigned long long kMaxFrames = 100000000;

// FIRST..LAST by STEP; throws InputError, starting with `what`, for LAST <
// FIRST (an empty range), STEP < 1, or more than kMaxFrames frames.
FrameRange frame_range(long long first, long long last, long long step, const std::string& what);
// "A:B" or "A:B:STEP", the same way; InputError for malformed text too.
FrameRange parse_frame_range(const std::string& text);
// "I/N" with 0 ≤ I < N; throws InputError otherwise.
Shard parse_shard(const std::string& text);
std::vector<long long> shard_frames(const std::vector<long long>& frames, const Shard& shard);

// An output name pattern holds exactly one integer conversion (%d, %5d,
// %05d; "%%" is a literal %). Throws InputError otherwise.
void check_output_pattern(const std::string& pattern);
std::string format_output(const std::string& pattern, long long frame);

// Whether `path` is an image of this size that is whole, in the format its
// name gives: a PNG or JPEG that reads to its last row, an EXR whose line
// blocks all lie within it, a PPM with all its samples. A file cut short by
// a killed job is not complete.
bool image_complete(const std::string& path, int width, int height);

}  // namespace fj
