// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_writer.h"

#include <algorithm>

#include "atomic_file.h"
#include "sidecar.h"

namespace fj::cli {

ImageWriter::ImageWriter(size_t depth, int threads) : depth_(depth) {
    for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { loop(); });
}

ImageWriter::~ImageWriter() {
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
    }
    changed_.notify_all();
    for (std::thread& t : threads_) t.join();
}

void ImageWriter::push(Job job) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return queue_.size() < depth_ || failure_; });
    if (failure_) std::rethrow_exception(failure_);
    queue_.push_back(std::move(job));
    changed_.notify_all();
}

void ImageWriter::drain() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return (queue_.empty() && busy_ == 0) || failure_; });
    if (failure_) std::rethrow_exception(failure_);
}

void ImageWriter::loop() {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [&] { return !queue_.empty() || closed_; });
            if (queue_.empty()) return;
            job = std::move(queue_.front());
            queue_.pop_front();
            ++busy_;
        }
        try {
            write_image(job.path, *job.image, job.png, job.linear);
            if (!job.sidecar.empty()) write_file_atomically(sidecar_path(job.path), job.sidecar);
            if (job.written) job.written();
        } catch (...) {
            std::lock_guard lock(mutex_);
            if (!failure_) failure_ = std::current_exception();
        }
        {
            std::lock_guard lock(mutex_);
            --busy_;
        }
        changed_.notify_all();
    }
}

}  // namespace fj::cli
