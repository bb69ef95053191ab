// flamejit — an animation's kernels compiled before its frames reach them.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A sequence of many keyframes (Electric Sheep loops and transitions, a
// cuburn flock) meets a new kernel structure every few frames, and each new
// one stopped the render for its NVRTC compile: 0.6-1.7 s against 10-20 ms
// for a frame (benchmarks/README.md, an H200's host). NVRTC compiles one
// kernel per thread, so a few threads that walk the frames in order, prepare
// one frame of each structure and compile its kernel keep ahead of the
// render from its start, and the render finds the kernels built.
//
// Frames of one structure are found without preparing every frame: the
// structure of an interpolated flame is its keyframe interval's (interpolate
// pads an interval's xforms and variations alike, interpolate.cpp), and a
// frame's kernel is the union of its time steps' structures with the
// palette mode of its centre (pipeline/frame_structure.h). So frames whose
// centres and steps fall in the same intervals share a kernel, and one frame
// per such signature is prepared and compiled, in the order the frames come.
#pragma once

#include <atomic>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "genome/flame.h"
#include "pipeline/prepared_frame.h"
#include "pipeline/renderer.h"

namespace fj {

// The keyframe intervals (as interpolate picks them: 0 before the first
// keyframe, the one ending there exactly on a keyframe) of a frame at `time`:
// its centre's, then every one its time steps fall in, ascending. Frames of
// equal signatures have one kernel key. Empty when the frame cannot be
// prepared (its error comes when it is rendered).
std::vector<int> structure_signature(const std::vector<Flame>& keyframes, double time, const FrameOptions& options);

class CompileAhead {
public:
    // Starts `threads` threads that compile, through `renderer`, one frame's
    // kernel per signature of `times` (frame times, in render order). The
    // keyframes and the renderer must outlive this object.
    CompileAhead(Renderer& renderer, const std::vector<Flame>& keyframes, std::vector<double> times,
                 const FrameOptions& options, int threads);
    CompileAhead(const CompileAhead&) = delete;
    CompileAhead& operator=(const CompileAhead&) = delete;
    // Lets the compiles under way finish, starts no more, and waits.
    ~CompileAhead();

    // Waits until every frame has been looked at and its kernel compiled.
    void wait();

    // Distinct kernels compiled (or found in the cache) ahead so far.
    size_t kernels() const;

private:
    void work();

    Renderer& renderer_;
    const std::vector<Flame>& keyframes_;
    const std::vector<double> times_;
    const FrameOptions options_;
    std::atomic<bool> stop_{false};
    mutable std::mutex mutex_;  // everything below
    size_t next_ = 0;           // the next frame of times_ to look at
    std::set<std::vector<int>> signatures_;
    std::set<std::string> kernels_;
    std::vector<std::thread> threads_;
};

}  // namespace fj
