// flamejit — every variation on the device equals its host build (label "gpu").
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The kernel is the switch kernel's dispatch (codegen/switch_kernel.h: every
// variation behind a switch on its id) plus a thin entry point: thread i
// evaluates case i. It is compiled with the engine's compiler (NVRTC, the
// renderer's options, so fused multiply-adds and CUDA's libm are what a
// render uses) and launched through the engine's driver wrapper. Where no
// device works, the compile, the launch and the comparison skip with the
// reason printed, and the host's side (cases, conditioning) still runs: CI
// compiles the same dispatch with NVRTC in variation_kernels_test's switch
// kernel (a minute of CPU each time it is compiled), and this kernel whole,
// entry point included, under emulated_gpu_variations_test.
//
// Cases: the pre-affine point (near 0, ordinary, large, on an axis), the
// xform's affine (waves, popcorn, rings, fan read it), a weight and random
// parameters, as tests/variations_test.cpp draws them. The host computes the
// pre-affine point and sends it, so both sides start from identical floats.
// Random variations draw from fj::Rng streams seeded alike on both sides
// (make_rng(seed, case)); the draws are integers, so they match bit for bit.
//
// Direct-colour variations (@color) also change the colour index; the case
// carries one in [0, 1) and the index they leave is compared as a third
// component of the result.
//
// Property: |device − host| ≤ 1e-5 · max(1, |host|) per component, where the
// host result is well conditioned: moving any non-zero input (point, weight,
// parameters, affine) by four float ulps moves the host result by less than
// a quarter of that tolerance. Device and host libm differ by a few ulps and
// the device fuses multiply-adds; at ill-conditioned points (cancellation,
// branch edges, periodic functions of huge arguments) that is amplified
// without either side being wrong, so such cases are counted and skipped,
// and each variation must still have at least half of its cases judged. The
// same rule covers bad values: where the host result and all its neighbours
// are bad (NaN or beyond 1e10), the device's must be bad too. A variation
// that needs a looser tolerance gets an entry in kTolerance with the reason
// (ripple and the vibrations so far). A parameter whose fractional values
// leave no case well conditioned is drawn whole instead (kWholeParam, with
// the reason), and one that the variation holds at a floor where its
// result is rounding alone is drawn above the floor (kFloorParam). Where
// the result hangs on the last bits of the angle the host derives from the
// point (φ, θ), which the device's atan2f and the host's fj::arctan2 each
// round within a few ulps but not alike, the conditioning also moves that
// angle by four ulps (kAngleMoved, with the reason).
//
// Beside the variations, device forms the host does not share: fj_device.h's
// sine, cosine and fmod against CUDA's library, and the camera's cell
// (iterate/common.h camera_xy) against a double sum.
#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "codegen/snippet_source.h"
#include "codegen/stitch_parts.h"
#include "codegen/switch_kernel.h"
#include "cpu/variation_table.h"
#include "cuda/compiler.h"
#include "cuda/cuda_backend.h"
#include "cuda/driver_api.h"
#include "cuda/nvrtc_api.h"
#include "fj_device.h"
#include "iterate/common.h"
#include "test_support.h"

namespace {

constexpr double kRelTol = 1e-5;
constexpr int kCasesPerVariation = 1024;
constexpr unsigned long long kSeed = 0x5eed2026ull;

// Variation name → relative tolerance, where 1e-5 cannot hold; with the reason.
const std::map<std::string, double> kTolerance = {
    // ripple's wave has slope 5·frequency·|y| and an amplitude multiplied by
    // its phase squared (2π·phase − π is not held to [0, 1] as a blend
    // would be): at ordinary points and parameters its result moves by tens
    // of times the relative change of its input, so at 1e-5 more than half
    // its cases are too ill-conditioned to judge.
    {"ripple", 4e-5},
    // vibration moves the point by amp·sin(2π·freq·d + …) twice: its slope,
    // |amp|·2π·|freq| per unit of d, is tens at ordinary parameters (amp
    // and freq up to 3 or 7), so at 1e-5 most cases are too ill-conditioned
    // to judge, as with ripple.
    {"vibration", 4e-5},
    // vibration2 is vibration with each wave's direction, turn, phase and
    // amplitude also moved by a·cos(2π·f·d): four more slopes per wave, of
    // |a|·2π·|f| (tens at the sampler's parameters; the phase's divided by
    // freq too). At 4e-5 more than half its cases are too ill-conditioned
    // to judge; at 1e-4 two in five.
    {"vibration2", 1e-4},
};

// Parameters drawn as whole numbers, and not moved when judging a case's
// conditioning (a whole number is exact on both sides), where otherwise too
// few cases would be well conditioned; with the reason.
const std::map<std::string, std::set<int>> kWholeParam = {
    // 2π·k/power with k up to 32766: four ulps of a fractional power turn
    // the angle by up to a tenth of a radian. The same draw turns hypertile2
    // by 2π·k/p and cpow2 by 2π·k/divisor.
    {"juliaq", {0}},
    {"hypertile2", {0}},
    {"cpow2", {2}},
    // cpow3 turns by 2π·k/divisor the same way.
    {"cpow3", {2}},
    // Below |power| 1 the root is any 24-bit number k (2π·k/power), and
    // the julia's radius r^(1/power) grows fast enough to put the waves'
    // sines at huge arguments.
    {"wavesn", {6}},
    // Truncated to whole numbers: a whole draw (the default 2 among them)
    // sits on the truncation's edge, where a four-ulp move changes the power.
    {"waves22", {6, 7}},
    // The root index is a random 24-bit integer modulo re: four ulps of a
    // fractional re move that residue by up to N·4ulp/re, several whole
    // units, and so turn the angle 2π·k/re anywhere.
    {"Juliac", {0}},
    // hex_truchet's shader hash magnifies its argument's last bits 43758
    // times: a fractional side moves the cell's lattice point and a
    // fractional seed the hash's argument by ulps that turn the hash into any
    // value, so the cell's rotation flips.
    {"hex_truchet", {1, 2}},
    // hex_rand's shader hash likewise: fractional x and y move the drawn
    // lattice point, and a fractional seed the hash's argument, by ulps
    // that turn the hash, and so the hexagon's size and presence, into any
    // value.
    {"hex_rand", {0, 1, 5}},
    // dust hashes its cell's coordinates modulo density over density: four
    // ulps of a fractional density move them by ulps the hash magnifies
    // 43758 times.
    {"dust", {0}},
};

// Parameters a variation holds at a floor (with the floor) where its result
// is then decided by rounding, and four-ulp moves sample that too sparsely
// to tell (a held parameter does not move at all); with the reason. They
// are drawn by their magnitude, and as their default where that is at the
// floor or below.
const std::map<std::string, std::map<int, float>> kFloorParam = {
    // target2 holds size at least float epsilon: bands 6e-8 wide, finer
    // than the rounding of the band index t (its ulp is up to 2.4e-7), so
    // the band, and with it the turn (even or odd), is t's last bits, which
    // the device's logf and its fused multiply-adds round otherwise.
    {"target2", {{2, FLT_EPSILON}}},
    // crackle holds cellsize at least 0.0001: cells 5e-5 wide, on a disc of
    // radius about 1 whose random point is placed to 6e-8, a thousandth of
    // a cell, by sinf and cosf of a random angle, which the device rounds
    // otherwise and the test cannot move; |l|^power magnifies that where
    // power is negative.
    {"crackle", {{0, 0.0001f}}},
};

// Variations whose conditioning also moves φ and θ (off the axes, where
// both sides' atan2 is exact), with the reason: four ulps of the point move
// φ by far less than an ulp of φ where the point is far out and near the
// axes (an ulp of φ near ±π is 2.4e-7, while moving x by four ulps at
// (−800, 6) moves φ by 2e-9), so the host alone cannot show it.
const std::set<std::string> kAngleMoved = {
    // The julia's angle is φ/power at radius weight·r^(1/power), tens far
    // out, and the waves' sines multiply that by their frequency again:
    // an ulp of φ near ±π moves the result by more than the tolerance.
    "wavesn",
    // re 0 is held at float epsilon, so the angle is φ/epsilon: an ulp of
    // φ turns the point anywhere.
    "Juliac",
    // The point's place in its sector, ξ, is (φ + π)/α's fraction; near a
    // sector's edge the secant and the rounding's power of 2ξ magnify an
    // ulp of φ beyond the tolerance.
    "smartshape",
};

bool whole_param(const std::string& variation, size_t k) {
    const auto it = kWholeParam.find(variation);
    return it != kWholeParam.end() && it->second.count(static_cast<int>(k)) != 0;
}

// The floor parameter k of the variation is held at, or 0 if none.
float param_floor(const std::string& variation, size_t k) {
    const auto it = kFloorParam.find(variation);
    if (it == kFloorParam.end()) return 0.0f;
    const auto at = it->second.find(static_cast<int>(k));
    return at == it->second.end() ? 0.0f : at->second;
}

// One case as the kernel reads it (floats): the pre-affine point, the weight,
// the affine, the starting sum (the point itself for a pre-variation, else
// 0), the colour index, then the parameters (up to synth's 35).
constexpr int kTx = 0, kTy = 1, kW = 2, kAff = 3, kOx = 9, kOy = 10, kC = 11, kParams = 12, kMaxParams = 35;
constexpr int kCaseFloats = kParams + kMaxParams;

// What a variation leaves: the sum it added to and the colour index.
struct Result {
    float x, y, c;
};

const char* kEntryPoint = R"(
// ---- test entry point: thread i applies variation ids[i] to case i.
extern "C" __global__ void fj_eval_variations(const int* __restrict__ ids, const float* __restrict__ cases,
                                              float* __restrict__ out, unsigned long long seed, int count) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const float* c = cases + (size_t)i * FJ_CASE_FLOATS;
    const fj::Affine aff = {c[3], c[4], c[5], c[6], c[7], c[8]};
    const fj::VarIn in = fj::make_var_in(c[0], c[1], &aff);
    fj::Rng rng = fj::make_rng(seed, (unsigned long long)i);
    float ox = c[9], oy = c[10], color = c[11];
    fj_apply_variation(ids[i], in, c + 12, c[2], rng, ox, oy, color);
    out[3 * i] = ox;
    out[3 * i + 1] = oy;
    out[3 * i + 2] = color;
}
)";

struct Case {
    const fj::VariationInfo* info;
    fj::cpu::VariationFn fn;
    float v[kCaseFloats];
};

float nudge(float v, int ulps) {
    for (int i = 0; i < std::abs(ulps); ++i) v = std::nextafter(v, ulps > 0 ? INFINITY : -INFINITY);
    return v;
}

// Moves of the angles the host derives from the point, in ulps.
struct Turn {
    int phi = 0, theta = 0;
};

// The host build of the snippet, on exactly what the kernel gets (but for
// a turn of the derived angles).
Result host_eval(const Case& c, const float* v, int index, Turn turn = {}) {
    const fj::Affine aff = {v[kAff], v[kAff + 1], v[kAff + 2], v[kAff + 3], v[kAff + 4], v[kAff + 5]};
    fj::VarIn in = fj::make_var_in(v[kTx], v[kTy], &aff);
    in.phi = nudge(in.phi, turn.phi);
    in.theta = nudge(in.theta, turn.theta);
    fj::Rng rng = fj::make_rng(kSeed, static_cast<unsigned long long>(index));
    Result r{v[kOx], v[kOy], v[kC]};
    c.fn(in, v + kParams, v[kW], rng, r.x, r.y, r.c);
    return r;
}

// The largest difference over the components: the colour index counts too.
double difference(const Result& a, const Result& b) {
    return std::max({std::fabs(double(a.x) - b.x), std::fabs(double(a.y) - b.y), std::fabs(double(a.c) - b.c)});
}

class Sampler {
public:
    explicit Sampler(unsigned seed) : gen_(seed) {}
    float uni(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen_); }
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(gen_) < p; }
    float sign() { return chance(0.5) ? 1.0f : -1.0f; }

    void fill(const fj::VariationInfo& info, float* v) {
        const double c = uni(0, 1);
        if (c < 0.15) {
            v[kTx] = uni(-1e-3f, 1e-3f);
            v[kTy] = uni(-1e-3f, 1e-3f);
        } else if (c < 0.6) {
            v[kTx] = uni(-2, 2);
            v[kTy] = uni(-2, 2);
        } else if (c < 0.8) {
            v[kTx] = sign() * std::exp(uni(std::log(5.0f), std::log(1000.0f)));
            v[kTy] = sign() * std::exp(uni(std::log(5.0f), std::log(1000.0f)));
        } else {
            v[kTx] = chance(0.5) ? 0.0f : uni(-3, 3);
            v[kTy] = v[kTx] == 0.0f ? uni(-3, 3) : 0.0f;
        }
        v[kW] = sign() * uni(0.1f, 2.0f);
        for (int k = 0; k < 6; ++k) v[kAff + k] = uni(-1.5f, 1.5f);
        v[kOx] = info.pre ? v[kTx] : 0.0f;
        v[kOy] = info.pre ? v[kTy] : 0.0f;
        v[kC] = uni(0, 1);
        for (int k = 0; k < kMaxParams; ++k) v[kParams + k] = 0.0f;
        for (size_t k = 0; k < info.params.size(); ++k) {
            const double d = uni(0, 1);
            float p;
            if (d < 0.25) p = static_cast<float>(info.params[k].default_value);
            else if (d < 0.45) p = static_cast<float>(static_cast<int>(uni(-6, 7)));
            else p = uni(-3, 3);
            if (whole_param(info.name, k)) p = std::round(p);
            if (const float floor = param_floor(info.name, k); floor > 0.0f)
                p = std::fabs(p) > floor ? std::fabs(p) : static_cast<float>(info.params[k].default_value);
            v[kParams + k] = p;
        }
    }

private:
    std::mt19937 gen_;
};

enum class Verdict { Judge, BadBoth, Ill };

// The error allowed at a host result: relative to the point's size, at least
// absolute (the colour index lies in [0, 1]).
double tolerance(const Case& c, const Result& h) {
    const auto it = kTolerance.find(c.info->name);
    const double rel = it == kTolerance.end() ? kRelTol : it->second;
    return rel * std::max(1.0, std::hypot(double(h.x), double(h.y)));
}

// Whether the host's answer at case `index` is stable under four-ulp moves
// of every non-zero input the variation may read.
Verdict condition(const Case& c, int index, const Result& h, double tol) {
    const bool bad = fj::is_bad_point(h.x, h.y);
    const int inputs[] = {kTx, kTy, kW, kAff, kAff + 1, kAff + 2, kAff + 3, kAff + 4, kAff + 5, kC};
    std::vector<int> which(std::begin(inputs), std::end(inputs));
    for (size_t k = 0; k < c.info->params.size(); ++k)
        if (!whole_param(c.info->name, k))  // exact on both sides
            which.push_back(kParams + static_cast<int>(k));
    for (int at : which) {
        // Zero is exact on both sides and often a case of its own (an axis,
        // a parameter that switches a branch off): it is not moved.
        if (c.v[at] == 0.0f) continue;
        for (int dir : {-4, 4}) {
            float v[kCaseFloats];
            std::copy(c.v, c.v + kCaseFloats, v);
            v[at] = nudge(v[at], dir);
            if (c.info->pre && (at == kTx || at == kTy)) {
                v[kOx] = v[kTx];
                v[kOy] = v[kTy];
            }
            const Result m = host_eval(c, v, index);
            if (fj::is_bad_point(m.x, m.y) != bad) return Verdict::Ill;
            if (!bad && difference(m, h) > 0.25 * tol) return Verdict::Ill;
        }
    }
    if (kAngleMoved.count(c.info->name) && c.v[kTx] != 0.0f && c.v[kTy] != 0.0f) {
        for (const Turn turn : {Turn{-4, 0}, Turn{4, 0}, Turn{0, -4}, Turn{0, 4}}) {
            const Result m = host_eval(c, c.v, index, turn);
            if (fj::is_bad_point(m.x, m.y) != bad) return Verdict::Ill;
            if (!bad && difference(m, h) > 0.25 * tol) return Verdict::Ill;
        }
    }
    return bad ? Verdict::BadBoth : Verdict::Judge;
}

std::string device_arch(CUdevice device) {
    int major = 0, minor = 0;
    CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
    CU_CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
    return "sm_" + std::to_string(major) + std::to_string(minor);
}

// A kernel's module loaded on device 0 (its primary context current) and the
// device buffers allocated for it, all released when it goes.
class Loaded {
public:
    Loaded(const fj::CompiledKernel& kernel, const char* entry) {
        CU_CHECK(cuDeviceGet(&device_, 0));
        CU_CHECK(cuDevicePrimaryCtxRetain(&context_, device_));
        try {
            CU_CHECK(cuCtxSetCurrent(context_));
            CU_CHECK(cuModuleLoadData(&module_, kernel.cubin.data()));
            CU_CHECK(cuModuleGetFunction(&function_, module_, entry));
        } catch (...) {
            release();
            throw;
        }
    }
    ~Loaded() { release(); }
    Loaded(const Loaded&) = delete;
    Loaded& operator=(const Loaded&) = delete;

    CUfunction function() const { return function_; }
    // A device buffer holding `bytes` copied from `from` (or left as it is).
    CUdeviceptr buffer(size_t bytes, const void* from = nullptr) {
        CUdeviceptr p = 0;
        CU_CHECK(cuMemAlloc(&p, bytes));
        buffers_.push_back(p);
        if (from) CU_CHECK(cuMemcpyHtoDAsync(p, from, bytes, nullptr));
        return p;
    }

private:
    void release() {
        const fj::DriverApi& api = fj::cuda_driver();
        for (CUdeviceptr p : buffers_) api.cuMemFree(p);
        buffers_.clear();
        if (module_) api.cuModuleUnload(module_);
        module_ = nullptr;
        if (context_) api.cuDevicePrimaryCtxRelease(device_);
        context_ = nullptr;
    }
    CUdevice device_ = 0;
    CUcontext context_ = nullptr;
    CUmodule module_ = nullptr;
    CUfunction function_ = nullptr;
    std::vector<CUdeviceptr> buffers_;
};

// Runs the kernel on device 0 and returns 3 floats per case (Result).
std::vector<float> run_on_device(const fj::CompiledKernel& kernel, const std::vector<int>& ids,
                                 const std::vector<float>& cases) {
    Loaded loaded(kernel, "fj_eval_variations");
    std::vector<float> out(ids.size() * 3);
    CUdeviceptr d_ids = loaded.buffer(ids.size() * sizeof(int), ids.data());
    CUdeviceptr d_cases = loaded.buffer(cases.size() * sizeof(float), cases.data());
    CUdeviceptr d_out = loaded.buffer(out.size() * sizeof(float));
    unsigned long long seed = kSeed;
    int count = static_cast<int>(ids.size());
    void* args[] = {&d_ids, &d_cases, &d_out, &seed, &count};
    const unsigned int block = 128, grid = (static_cast<unsigned int>(count) + block - 1) / block;
    CU_CHECK(cuLaunchKernel(loaded.function(), grid, 1, 1, block, 1, 1, 0, nullptr, args, nullptr));
    CU_CHECK(cuMemcpyDtoHAsync(out.data(), d_out, out.size() * sizeof(float), nullptr));
    CU_CHECK(cuStreamSynchronize(nullptr));
    return out;
}

struct Counts {
    int tried = 0, bad_both = 0, ill = 0, checked = 0, wrong = 0;
    double worst = 0;  // largest error / allowed error among judged cases
};

}  // namespace

TEST_CASE("gpu variations: every variation on the device equals the host snippet (1e-5 relative)") {
    if (!fj::test::nvrtc_present()) return;
    const auto& registry = fj::VariationRegistry::standard();
    REQUIRE(registry.all().size() >= 99);

    // Cases, and the host's answers and their conditioning, first: this part
    // needs no device.
    Sampler sampler(20260522);
    std::vector<Case> cases;
    for (const fj::VariationInfo& info : registry.all()) {
        const fj::cpu::VariationEntry* entry = fj::cpu::find_variation(info.name);
        CHECK_MESSAGE(entry, info.name << " has no host function");
        CHECK_MESSAGE(info.params.size() <= static_cast<size_t>(kMaxParams),
                      info.name << " has " << info.params.size() << " parameters, a case holds " << kMaxParams);
        if (!entry || info.params.size() > static_cast<size_t>(kMaxParams)) continue;
        for (int k = 0; k < kCasesPerVariation; ++k) {
            Case c{&info, entry->fn, {}};
            sampler.fill(info, c.v);
            cases.push_back(c);
        }
    }
    const int n = static_cast<int>(cases.size());
    std::vector<int> ids(n);
    std::vector<float> packed(static_cast<size_t>(n) * kCaseFloats);
    std::vector<Result> host(n);
    std::vector<Verdict> verdicts(n);
    std::map<std::string, Counts> counts;
    for (int i = 0; i < n; ++i) {
        const Case& c = cases[i];
        ids[i] = c.info->id;
        std::copy(c.v, c.v + kCaseFloats, packed.begin() + static_cast<size_t>(i) * kCaseFloats);
        host[i] = host_eval(c, c.v, i);
        verdicts[i] = condition(c, i, host[i], tolerance(c, host[i]));
        Counts& k = counts[c.info->name];
        ++k.tried;
        k.bad_both += verdicts[i] == Verdict::BadBoth;
        k.ill += verdicts[i] == Verdict::Ill;
    }
    // The sampler must leave most cases judgeable, or the comparison below means little.
    for (const fj::VariationInfo& info : registry.all()) {
        const Counts& k = counts[info.name];
        CHECK_MESSAGE(k.ill <= (k.tried - k.bad_both) / 2,
                      info.name << ": " << k.ill << " of " << k.tried - k.bad_both << " cases ill-conditioned");
    }

    auto print_table = [&] {
        for (const fj::VariationInfo& info : registry.all()) {
            const Counts& k = counts[info.name];
            std::printf("%-16s tried %5d  bad on both %5d  ill-conditioned %5d  judged %5d  wrong %d  worst %.3f of tol\n",
                        info.name.c_str(), k.tried, k.bad_both, k.ill, k.checked, k.wrong, k.worst);
        }
    };
    if (std::string why; !fj::cuda_available(&why)) {
        print_table();
        fj::test::missing_devices("no working CUDA device for the device's compile and comparison (" + why + ")");
        return;
    }
    CUdevice d;
    CU_CHECK(cuDeviceGet(&d, 0));
    const std::string arch = device_arch(d);
    fj::CompileRequest request;
    request.source = fj::switch_dispatch_source(registry, fj::SnippetSource::standard()) + "#define FJ_CASE_FLOATS " +
                     std::to_string(kCaseFloats) + "\n" + kEntryPoint;
    request.arch = arch;
    request.entry = "fj_eval_variations";
    request.name = "gpu_variations_test.cu";
    const fj::CompiledKernel kernel =
        fj::compile_kernel(request, "gpu-variations-" + arch, fj::test::scratch_dir("gpu-variations-failed"));
    REQUIRE(!kernel.cubin.empty());
    CHECK(kernel.registers > 0);
    CHECK(kernel.log.find("warning") == std::string::npos);
    MESSAGE("evaluation kernel for " << arch << ": " << kernel.registers << " registers, " << kernel.compile_ms
                                     << " ms to compile");

    const std::vector<float> dev = run_on_device(kernel, ids, packed);
    std::map<std::string, int> reported;
    for (int i = 0; i < n; ++i) {
        const Case& c = cases[i];
        Counts& k = counts[c.info->name];
        const Result d{dev[3 * i], dev[3 * i + 1], dev[3 * i + 2]}, h = host[i];
        if (verdicts[i] == Verdict::Ill) continue;
        ++k.checked;
        bool ok;
        if (verdicts[i] == Verdict::BadBoth) {
            ok = fj::is_bad_point(d.x, d.y);
        } else {
            const double tol = tolerance(c, h), err = difference(d, h);
            ok = err <= tol;
            k.worst = std::max(k.worst, err / tol);
        }
        if (!ok) {
            ++k.wrong;
            if (reported[c.info->name]++ < 3)
                MESSAGE(c.info->name << " case " << i << ": point (" << c.v[kTx] << ", " << c.v[kTy] << ") w "
                                     << c.v[kW] << " p0 " << c.v[kParams] << ": host (" << h.x << ", " << h.y
                                     << ", colour " << h.c << ") device (" << d.x << ", " << d.y << ", colour "
                                     << d.c << ")");
        }
    }
    print_table();
    for (const fj::VariationInfo& info : registry.all()) {
        const Counts& k = counts[info.name];
        CHECK_MESSAGE(k.wrong == 0, info.name << ": " << k.wrong << " device results differ from the host");
    }
}

// fj_device.h writes out the short path of CUDA's sinf and cosf (|x| <
// 105615; larger arguments call the library) so that NVRTC does not inline
// the whole library function at every call. This checks the claim that the
// result is the library's bit for bit, over every float: case i is the
// float of bits i, and differs where fj::sine or fj::cosine differs from
// sinf or cosf (two NaNs count as equal). CI compiles the kernel; the
// comparison needs a device.
const char* kTrigCase = R"(
__device__ bool fj_case_differs(unsigned long long i) {
    const float x = __uint_as_float((unsigned int)i);
    const float s = fj::sine(x), c = fj::cosine(x), ls = sinf(x), lc = cosf(x);
    return !((__float_as_uint(s) == __float_as_uint(ls) || (s != s && ls != ls)) &&
             (__float_as_uint(c) == __float_as_uint(lc) || (c != c && lc != lc)));
}
)";

// Compiles fj_device.h, then the snippets named in `snippets`, then
// `case_function`, which defines `__device__ bool fj_case_differs(unsigned
// long long i)`: whether case i finds fj:: differing from its reference.
// Runs it on device 0 for cases 0 to `cases` − 1 (4096 blocks of 256
// threads, each taking cases in turn), counting the cases that differ and
// the smallest of them (below 2^32). Without a device it only compiles (for
// sm_90) and says so, and counts nothing.
const char* kCountDifferences = R"(
extern "C" __global__ void fj_count_differences(unsigned long long cases, unsigned long long* __restrict__ differ,
                                                unsigned int* __restrict__ first_differ) {
    const unsigned long long threads = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long local = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < cases; i += threads)
        if (fj_case_differs(i)) {
            ++local;
            atomicMin(first_differ, (unsigned int)i);
        }
    if (local) atomicAdd(differ, local);
}
)";

struct Differences {
    unsigned long long count = 0;
    unsigned int first = 0xffffffffu;
};

Differences count_differences(const char* case_function, const char* name, unsigned long long cases,
                              const std::vector<std::string>& snippets = {}) {
    Differences d;
    if (!fj::test::nvrtc_present()) return d;
    std::string why;
    const bool device = fj::cuda_available(&why);
    CUdevice dev = 0;
    if (device) CU_CHECK(cuDeviceGet(&dev, 0));
    fj::CompileRequest request;
    const std::optional<std::string> device_header = fj::SnippetSource::standard().read("fj_device.h");
    REQUIRE(device_header);
    request.source = *device_header;
    for (const std::string& path : snippets) {
        const std::optional<std::string> text = fj::SnippetSource::standard().read(path);
        REQUIRE(text);
        request.source += fj::stitch::strip_includes(*text);
    }
    request.source += std::string(case_function) + kCountDifferences;
    request.arch = device ? device_arch(dev) : "sm_90";
    request.entry = "fj_count_differences";
    request.name = std::string(name) + ".cu";
    const fj::CompiledKernel kernel = fj::compile_kernel(request, std::string(name) + "-" + request.arch,
                                                         fj::test::scratch_dir(std::string(name) + "-failed"));
    REQUIRE(!kernel.cubin.empty());
    CHECK_MESSAGE(kernel.log.find("warning") == std::string::npos, kernel.log);
    if (!device) {
        fj::test::missing_devices("compiled for sm_90, but no working CUDA device for the comparison (" + why + ")");
        return d;
    }
    Loaded loaded(kernel, request.entry.c_str());
    CUdeviceptr d_count = loaded.buffer(sizeof d.count, &d.count);
    CUdeviceptr d_first = loaded.buffer(sizeof d.first, &d.first);
    void* args[] = {&cases, &d_count, &d_first};
    CU_CHECK(cuLaunchKernel(loaded.function(), 4096, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
    CU_CHECK(cuMemcpyDtoHAsync(&d.count, d_count, sizeof d.count, nullptr));
    CU_CHECK(cuMemcpyDtoHAsync(&d.first, d_first, sizeof d.first, nullptr));
    CU_CHECK(cuStreamSynchronize(nullptr));
    return d;
}

TEST_CASE("gpu variations: the device's sine and cosine are CUDA's sinf and cosf for every float") {
    const Differences d = count_differences(kTrigCase, "fj_compare_trig", 1ull << 32);
    char bits[16];
    std::snprintf(bits, sizeof bits, "0x%08x", d.first);
    CHECK_MESSAGE(d.count == 0, d.count << " floats differ, the first with bits " << bits);
}

// fj::modulo's device path (fj_device.h) against CUDA's fmodf, which both
// must equal bit for bit (fmod is exact), over 2^30 argument pairs drawn
// four ways: any two bit patterns (NaN, infinities, subnormals: the
// out-of-line call's cases, and the test that sends them there); dividends
// next to a multiple of the divisor, with quotients up to and past the short
// path's 2^22, where the fast division's integer part is one off; periods
// and angles as flames wrap them; and divisors at the ends of the short
// path's range (2^-126, 2^126) with quotients near 2^22. Case i draws its
// pair from random stream i.
const char* kModuloCase = R"(
__device__ float fj_test_float(unsigned int sign, int exponent, unsigned int mantissa) {
    return __uint_as_float((sign << 31) | ((unsigned int)exponent << 23) | (mantissa & 0x7fffffu));
}
__device__ bool fj_case_differs(unsigned long long i) {
    fj::Rng rng = fj::make_rng(0x6d6f64756c6fULL, i);
    const unsigned int a = fj::next_u32(rng), b = fj::next_u32(rng), c = fj::next_u32(rng);
    float x, y;
    switch (i & 3u) {
    case 0:
        x = __uint_as_float(a);
        y = __uint_as_float(b);
        break;
    case 1: {
        y = fj_test_float(b >> 31, 97 + (int)(b % 60u), c);
        const float k = (float)(a % 5000000u);
        x = __uint_as_float(__float_as_uint(k * y) + (c >> 29) - 4u);
        break;
    }
    case 2:
        y = (b >> 8) * (8.0f / 16777216.0f);
        x = ((int)(a >> 8) - 8388608) * (1.0f / 2048.0f);
        break;
    default: {
        const int ey = (b & 1u) ? 1 + (int)(b % 4u) : 254 - (int)(b % 4u);
        y = fj_test_float(0, ey, c);
        x = fj_test_float(a >> 31, min(ey + 20 + (int)(a % 4u), 254), a >> 1);
        break;
    }
    }
    const float m = fj::modulo(x, y), l = fmodf(x, y);
    return !(__float_as_uint(m) == __float_as_uint(l) || (m != m && l != l));
}
)";

TEST_CASE("gpu variations: the device's fmod is CUDA's fmodf, bit for bit") {
    const Differences d = count_differences(kModuloCase, "fj_compare_modulo", 1ull << 30);
    CHECK_MESSAGE(d.count == 0, d.count << " of 2^30 cases differ, the first case " << d.first);
}

// camera_xy's device form (iterate/common.h: the fraction's sum floored in
// one instruction, then the whole part added) against the cells a double
// sum gives, over 2^24 cameras and points drawn on the device: rotated or
// not, shifts whole or with a fraction, split as pack_camera splits them;
// points anywhere in the picture, points within 2^-1 to 2^-126 of a world
// axis on a cell's edge (which must keep their side: the double sum of the
// fraction's terms is exact there), strips of the frame, and points that
// are not numbers or infinite (outside, column and row 0). A case is judged
// where the double sum lies farther from a whole number than the float
// sum's rounding (the others count as agreeing). The host form has the same
// cases in iteration_test.
const char* kCameraCase = R"(
__device__ bool fj_case_differs(unsigned long long i) {
    fj::Rng rng = fj::make_rng(0x63616d657261ULL, i);
    const unsigned int kind = i & 3u;
    const float scale = 10.0f + 1990.0f * fj::rand01(rng);
    const float angle = kind == 0 ? 0.0f : 6.2831853f * fj::rand01(rng);
    const float ca = cosf(angle), sa = sinf(angle);
    float camera[8] = {scale * ca, scale * sa, 0.0f, scale * sa, -scale * ca, 0.0f,
                       floorf(4000.0f * fj::rand01(rng)), floorf(4000.0f * fj::rand01(rng))};
    if (kind & 1u) {
        camera[2] = fj::rand01(rng);
        camera[5] = fj::rand01(rng);
    }
    float x = 6.0f * fj::rand01(rng) - 3.0f, y = 6.0f * fj::rand01(rng) - 3.0f;
    if (kind == 0) {
        // 2^-1 .. 2^-126 of either sign: on the axis's either side.
        const unsigned int bits = fj::next_u32(rng);
        const float tiny = ldexpf(1.0f, -1 - (int)(bits % 126u));
        if (bits & 0x80000000u) x = (bits & 0x40000000u) ? tiny : -tiny;
        else y = (bits & 0x40000000u) ? tiny : -tiny;
    }
    int w = 8000, h = 8000, row0 = 0;
    if ((i >> 2) % 5u == 1u) {  // a strip around the point's row
        row0 = camera[7] < 20.0f ? 0 : (int)camera[7] - 20;
        h = 40;
    }
    if ((i >> 2) % 64u == 63u)  // NaN, or an overflow to minus infinity
        x = (i >> 8) & 1u ? fj::quiet_nan() : -FJ_FLT_MAX * (2.0f + fj::rand01(rng));
    int ix = -1, iy = -1;
    const int inside = fj::camera_xy(camera, x, y, w, h, row0, ix, iy);
    if (!(fabsf(x) <= 3.0f)) return inside || ix != 0 || iy != 0;
    const double sx = (double)camera[0] * x + (double)camera[1] * y + (double)camera[2];
    const double sy = (double)camera[3] * x + (double)camera[4] * y + (double)camera[5];
    const double slack_x = 1e-6 * (fabs((double)camera[0] * x) + fabs((double)camera[1] * y) + camera[2]);
    const double slack_y = 1e-6 * (fabs((double)camera[3] * x) + fabs((double)camera[4] * y) + camera[5]);
    if (fabs(sx - rint(sx)) < slack_x || fabs(sy - rint(sy)) < slack_y) return false;  // not judged
    const long long cx = (long long)floor(sx) + (long long)camera[6];
    const long long cy = (long long)floor(sy) + (long long)camera[7] - row0;
    const bool want = cx >= 0 && cx < w && cy >= 0 && cy < h;
    return want ? !(inside && ix == cx && iy == cy) : inside || ix != 0 || iy != 0;
}
)";

TEST_CASE("gpu variations: the device's camera finds the cells a double sum finds, and keeps points at an axis on "
          "their side") {
    const Differences d = count_differences(kCameraCase, "fj_compare_camera", 1ull << 24, {"iterate/common.h"});
    CHECK_MESSAGE(d.count == 0, d.count << " of 2^24 cases differ, the first case " << d.first);
}
