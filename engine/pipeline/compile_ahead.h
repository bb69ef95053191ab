// flamejit — the kernels of an animation's frames, or of a batch of stills,
// compiled before the render reaches them.
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
//
// A batch of stills (render with several flames or genome files) is the
// same on a GPU: at quality 1000 an H200 renders a 1080p frame in 0.1-0.3 s,
// while a new structure compiles in 0.1-0.5 s, so a batch of distinct
// genomes waits on NVRTC unless several of its kernels compile at once.
// Each still is prepared on a compile thread, in render order, and each
// kernel key compiled once.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
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
    // The same for stills: `flames` (in render order) as prepare_still
    // prepares them. The flames must outlive this object.
    CompileAhead(Renderer& renderer, std::vector<const Flame*> flames, const FrameOptions& options, int threads);
    CompileAhead(const CompileAhead&) = delete;
    CompileAhead& operator=(const CompileAhead&) = delete;
    // Lets the compiles under way finish, starts no more, and waits.
    ~CompileAhead();

    // Waits until every frame has been looked at and its kernel compiled.
    void wait();

    // Distinct kernels compiled (or found in the cache) ahead so far.
    size_t kernels() const;

private:
    // Item i's frame, or nothing where its kernel is known to be compiled
    // ahead already (called on the compile threads, without mutex_ held).
    using Prepare = std::function<std::optional<PreparedFrame>(size_t)>;
    CompileAhead(Renderer& renderer, size_t count, Prepare prepare, int threads);
    void work();

    Renderer& renderer_;
    const size_t count_;
    const Prepare prepare_;
    std::atomic<bool> stop_{false};
    mutable std::mutex mutex_;  // everything below
    size_t next_ = 0;           // the next item to look at
    std::set<std::vector<int>> signatures_;  // an animation's, as its frames are looked at
    std::set<std::string> keys_;             // the kernel keys taken up, compiled or not
    size_t compiled_ = 0;
    std::vector<std::thread> threads_;
};

}  // namespace fj
