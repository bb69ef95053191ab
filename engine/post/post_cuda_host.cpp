// flamejit — post_process_cuda: turns a PostPlan into a CudaPostJob and runs it.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <chrono>
#include <vector>

#include "post/post_cpu.h"
#include "post/post_cuda.h"
#include "post/post_cuda_launch.h"
#include "post/post_params.h"

namespace fj {

namespace {

// The plan's values as the nvcc-compiled half reads them; `radius` keeps the
// splat radii the job points at.
CudaPostJob make_job(const PostPlan& plan, std::vector<int>& radius) {
    check_post_plan(plan);
    CudaPostJob job;
    job.width = plan.width;
    job.height = plan.height;
    job.supersample = plan.supersample;
    job.hist_width = plan.hist_width;
    job.hist_height = plan.hist_height;
    job.de_offset = plan.de_offset;
    job.filter_top = plan.filter_top();
    job.k1 = static_cast<float>(plan.k1);
    job.k2 = static_cast<float>(plan.k2);
    job.density_estimation = uses_density_estimation(plan);
    job.select = density_select(plan);
    for (double h : plan.density.widths) radius.push_back(de_splat_radius(static_cast<float>(h)));
    job.bank_coefs = plan.density.coefs.data();
    job.bank_coef_count = plan.density.coefs.size();
    job.bank_radius = radius.data();
    job.kernel_count = plan.density.kernel_count;
    job.filter_coefs = plan.filter.coefs.data();
    job.filter_width = plan.filter.width;
    job.tone = tone_params<double>(plan);
    job.tone.curves = nullptr;  // a host pointer; the device gets its own copy
    job.curves = plan.curves.empty() ? nullptr : plan.curves.data();
    job.earlyclip = plan.earlyclip;
    job.linear = plan.linear;
    job.compact = plan.compact_cells;
    return job;
}

}  // namespace

ImageF post_process_cuda(const PostPlan& plan, const CudaFrameBuffers& buffers, void* stream,
                         PostStats* stats) {
    auto start = std::chrono::steady_clock::now();
    std::vector<int> radius;
    const CudaPostJob job = make_job(plan, radius);
    ImageF img;
    img.width = plan.width;
    img.height = plan.height;
    img.rgba.resize(size_t(4) * plan.width * plan.height);
    CudaPostTotals totals;
    run_post_cuda(job, CudaPostBuffers{buffers.accum, buffers.counts, buffers.passes}, stream, img.rgba.data(),
                  &totals);
    if (stats) {
        stats->nonempty_cells = totals.visited_cells;
        stats->alpha_sum = totals.alpha_sum;
        stats->density_estimation = job.density_estimation;
        stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return img;
}

void scale_pass_cuda(const PostPlan& plan, const CudaFrameBuffers& buffers, void* stream) {
    std::vector<int> radius;
    const CudaPostJob job = make_job(plan, radius);
    run_scale_pass_cuda(job, CudaPostBuffers{buffers.accum, buffers.counts, buffers.passes}, stream);
}

ImageF post_process_cuda(const PostPlan& plan, const float* d_accum, void* stream,
                         PostStats* stats) {
    return post_process_cuda(plan, CudaFrameBuffers{d_accum, nullptr, nullptr}, stream, stats);
}

ImageF post_process_cuda(const PostPlan& plan, const float* d_accum, void* stream) {
    return post_process_cuda(plan, d_accum, stream, nullptr);
}

}  // namespace fj
