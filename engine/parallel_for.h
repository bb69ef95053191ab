// flamejit — work items shared out among threads.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace fj {

// Runs body(item, thread) for every item in [0, count) on up to `threads`
// threads (the caller's among them, as thread 0), each taking the next item
// as it comes free. The first exception a body throws is rethrown once the
// threads have stopped; items not begun by then are skipped.
template <typename Body>
void parallel_for(int count, int threads, Body body) {
    threads = std::max(1, std::min(threads, count));
    if (threads == 1) {
        for (int i = 0; i < count; ++i) body(i, 0);
        return;
    }
    std::atomic<int> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr failure;
    const auto work = [&](int t) {
        for (int i; !failed && (i = next.fetch_add(1)) < count;) {
            try {
                body(i, t);
            } catch (...) {
                if (!failed.exchange(true)) failure = std::current_exception();
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (auto& th : pool) th.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace fj
