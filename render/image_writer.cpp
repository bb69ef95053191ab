// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_writer.h"

#include "atomic_file.h"
#include "image/exr_io.h"
#include "sidecar.h"

namespace fj::cli {

ImageWriter::ImageWriter(size_t depth) : depth_(depth), thread_([this] { loop(); }) {}

ImageWriter::~ImageWriter() {
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
    }
    changed_.notify_all();
    thread_.join();
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
    changed_.wait(lock, [&] { return (queue_.empty() && !busy_) || failure_; });
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
            busy_ = true;
        }
        try {
            if (is_exr_path(job.path))
                write_exr(job.path, job.image, job.png, job.linear);
            else
                write_png(job.path, job.image, job.png);
            if (!job.sidecar.empty()) write_file_atomically(sidecar_path(job.path), job.sidecar);
        } catch (...) {
            std::lock_guard lock(mutex_);
            if (!failure_) failure_ = std::current_exception();
        }
        {
            std::lock_guard lock(mutex_);
            busy_ = false;
        }
        changed_.notify_all();
    }
}

}  // namespace fj::cli
