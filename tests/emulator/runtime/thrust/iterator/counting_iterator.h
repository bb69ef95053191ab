// flamejit — Thrust's counting_iterator as engine/post/post_cuda.cu uses it on the host (runtime/cuda_runtime.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace thrust {

template <class T>
class counting_iterator {
public:
    explicit counting_iterator(T first) : first_(first) {}
    T operator[](long long i) const { return static_cast<T>(first_ + i); }

private:
    T first_;
};

}  // namespace thrust
