// flamejit — images (PNG, EXR, JPEG or PPM by the path's extension) encoded
// and written on threads of their own, so that the next image renders meanwhile
// (render with several images, animate). Encoding a 1080p PNG takes longer
// than rendering a frame of a short animation on a GPU, so animate encodes
// several at once.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "image/image_stream.h"

namespace fj::cli {

class ImageWriter {
public:
    struct Job {
        std::string path;
        std::shared_ptr<const ImageF> image;  // shared by the jobs of one image's files
        ImageOptions png;  // bits, text and the rest, for every format
        bool linear = false;  // an EXR of a post-pass with PostPlan::linear
        std::string sidecar;  // when not empty, written to sidecar_path(path) once the image is
        std::function<void()> written;  // when set, called on the writer's thread once both are written
    };

    // At most `depth` images wait, so memory stays bounded when writing is
    // slower than rendering; `threads` write at once.
    ImageWriter(size_t depth, int threads);
    // Writes what is queued, then stops; call drain() first to see failures.
    ~ImageWriter();
    ImageWriter(const ImageWriter&) = delete;
    ImageWriter& operator=(const ImageWriter&) = delete;

    // Blocks while the queue is full; rethrows an earlier write failure.
    void push(Job job);
    // Waits for every queued image; rethrows a write failure.
    void drain();

private:
    void loop();

    size_t depth_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Job> queue_;
    int busy_ = 0;  // threads writing an image
    bool closed_ = false;
    std::exception_ptr failure_;
    std::vector<std::thread> threads_;  // last: they start once the rest exists
};

}  // namespace fj::cli
