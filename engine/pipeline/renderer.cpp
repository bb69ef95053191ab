// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/renderer.h"

#include <chrono>
#include <fstream>

#include "codegen/param_layout.h"
#include "codegen/stitcher.h"
#include "cpu/cpu_backend.h"
#include "cuda/cuda_backend.h"
#include "errors.h"
#include "post/post_plan.h"

namespace fj {

bool parse_backend_choice(const std::string& text, BackendChoice* out) {
    if (text == "auto") *out = BackendChoice::Auto;
    else if (text == "cuda") *out = BackendChoice::Cuda;
    else if (text == "cpu") *out = BackendChoice::Cpu;
    else return false;
    return true;
}

Renderer::Renderer(const RenderOptions& options) : options_(options) {
    std::string why_not;
    const bool want_cuda = options.backend != BackendChoice::Cpu;
    if (want_cuda && cuda_available(&why_not)) {
        CudaBackendOptions cuda;
        cuda.device = options.device;
        cuda.arch = options.kernel.arch;
        backend_ = make_cuda_backend(cuda);
    } else if (options.backend == BackendChoice::Cuda) {
        throw std::runtime_error("CUDA backend requested but unavailable: " + why_not);
    } else {
        if (want_cuda) fallback_reason_ = why_not;
        backend_ = make_cpu_backend({options.threads});
    }
    backend_name_ = backend_->name();
}

Renderer::~Renderer() = default;

RenderResult Renderer::render(const Flame& flame) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto& registry = VariationRegistry::standard();
    FramePlan plan;
    try {
        plan = plan_frame(flame, options_.quality);
    } catch (const std::runtime_error& e) {
        throw InputError(e.what());
    }
    const KernelKey key = make_kernel_key(flame, options_.kernel);
    const ParamLayout layout = make_param_layout(key, registry);
    std::vector<float> params;
    try {
        params = pack_params(flame, key, layout, plan.world_to_cell);
    } catch (const std::runtime_error& e) {
        throw InputError(e.what());
    }
    if (!options_.emit_cu.empty()) {
        std::ofstream out(options_.emit_cu);
        out << stitch_kernel(key, layout, registry, SnippetSource::standard());
        if (!out) throw std::runtime_error("cannot write " + options_.emit_cu);
    }

    backend_->begin_frame(plan);
    IterationRequest req;
    req.flame = &flame;
    req.key = &key;
    req.layout = &layout;
    req.params = &params;
    req.plan = &plan;
    req.samples = plan.samples;
    req.seed = options_.seed;
    req.progress = options_.progress;
    RenderResult result;
    result.stats = backend_->iterate(req);
    PostPlan post = make_post_plan(flame, plan);
    post.transparent = options_.transparent;
    result.image = backend_->post_process(post);
    result.backend = backend_name_;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

}  // namespace fj
