// flamejit — the post-pass on the CPU: log scaling / density estimation, filter, tone.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "post/post_cpu.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "huge_pages.h"
#include "parallel_for.h"
#include "post/filter.h"
#include "post/post_params.h"

namespace fj {
namespace {

struct CellTotals {
    long long nonempty = 0;
    double alpha = 0;
};

// Without DE every cell is scaled on its own. Scaled values are added to
// `out`, which sums the passes of a frame.
void log_scale_all(const PostPlan& plan, const float* accum, float* out, int threads,
                   std::vector<CellTotals>& totals) {
    const float k1 = float(plan.k1), k2 = float(plan.k2);
    const long long w = plan.hist_width;
    parallel_for(plan.hist_height, threads, [&](int y, int t) {
        for (long long n = y * w; n < (y + 1) * w; ++n) {
            const float* c = accum + 4 * n;
            if (c[3] == 0.0f) continue;
            ++totals[t].nonempty;
            float ls = log_scale_factor(c[3], k1, k2);
            for (int i = 0; i < 4; ++i) out[4 * n + i] += c[i] * ls;
        }
    });
}

// The DE kernels as the splat reads them: how far each reaches on each of
// its rows (taps beyond the kernel's splat radius are not splatted, as in
// flam3, and those outside its circle are zero), and every coefficient four
// times, once per channel, so that a tap's weights are one load. Zero taps
// add +0 (colours are finite), which leaves every sum as it was (no cell is
// ever -0: every sum starts at +0), so skipping them gives the same bits.
struct SplatKernels {
    int half = 0;
    int row = 0;                 // the bank's row length, 2·half+1
    std::vector<int> radius;     // per kernel
    std::vector<int> reach;      // per kernel and dy + half: |dx| ≤ reach; -1: an empty row
    std::vector<float> coef4;    // per kernel, row and column: the coefficient, 4 times
};

SplatKernels splat_kernels(const DensityBank& bank) {
    SplatKernels sk;
    const int half = sk.half = bank.half_width;
    sk.row = 2 * half + 1;
    const size_t square = size_t(sk.row) * sk.row;
    sk.radius.resize(bank.kernel_count);
    sk.reach.assign(size_t(bank.kernel_count) * sk.row, -1);
    sk.coef4.resize(4 * square * bank.kernel_count);
    for (size_t i = 0; i < square * bank.kernel_count; ++i) std::fill_n(&sk.coef4[4 * i], 4, bank.coefs[i]);
    for (int k = 0; k < bank.kernel_count; ++k) {
        const int r = sk.radius[k] = std::min(half, de_splat_radius(float(bank.widths[k])));
        const float* coef = bank.coefs.data() + k * square;
        for (int dy = -r; dy <= r; ++dy) {
            const float* krow = coef + (dy + half) * sk.row + half;
            int& reach = sk.reach[size_t(k) * sk.row + dy + half];
            for (int dx = 0; dx <= r; ++dx)
                if (krow[dx] != 0.0f || krow[-dx] != 0.0f) reach = dx;
        }
    }
    return sk;
}

// One cell's four channels as one SIMD value, and two neighbouring cells'
// as one (GCC/Clang vector extensions; where the machine's vectors are
// narrower, each is several). The arithmetic per channel is that of scalar
// code, so results are the same bits whatever the width.
typedef float Rgba4 __attribute__((vector_size(16)));
typedef float Rgba8 __attribute__((vector_size(32)));

inline Rgba4 load4(const float* p) {
    Rgba4 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// o += (c·ls)·v for one cell (Rgba4) or two (Rgba8); by reference, as an
// Rgba8 passed by value would take the ABI of the vectors of the build's
// baseline rather than of the clone that inlines this.
template <class V>
inline void add_taps(float* o, const float* c, const V& ls, const V& v) {
    V sum, coef;
    std::memcpy(&sum, o, sizeof sum);
    std::memcpy(&coef, c, sizeof coef);
    sum += (coef * ls) * v;
    std::memcpy(o, &sum, sizeof sum);
}

// One cell's splat: out += (coef·ls)·v over kernel k's taps, clipped to
// the histogram rows [ylo, yhi] and columns [xlo, xhi] (offsets from the
// cell), two taps at a time.
inline void splat(float* out, long long w, const SplatKernels& sk, int k, int ylo, int yhi, int xlo, int xhi,
                  float ls, Rgba4 v) {
    const Rgba4 ls4 = {ls, ls, ls, ls};
    const Rgba8 ls8 = {ls, ls, ls, ls, ls, ls, ls, ls};
    const Rgba8 v8 = {v[0], v[1], v[2], v[3], v[0], v[1], v[2], v[3]};
    const int* reach = sk.reach.data() + size_t(k) * sk.row + sk.half;
    const float* coef4 = sk.coef4.data() + 4 * ((size_t(k) * sk.row + sk.half) * sk.row + sk.half);
    for (int dy = ylo; dy <= yhi; ++dy) {
        const int e = reach[dy];
        const int lo = std::max(-e, xlo), hi = std::min(e, xhi);
        const float* c = coef4 + 4 * (dy * sk.row + lo);
        float* o = out + 4 * (dy * w + lo);
        int n = hi - lo + 1;
        for (; n >= 2; n -= 2, c += 8, o += 8) add_taps(o, c, ls8, v8);
        if (n > 0) add_taps(o, c, ls4, v);
    }
}

// What density estimation reads: the histogram, the kernels and how to
// choose among them.
struct DensityInput {
    const float* accum;
    const float* counts;  // flam3's count channel: the count buffer, or alpha
    int stride;           // between counts
    int w, h, os;
    float k1, k2;
    DensitySelect sel;
    SplatKernels kernels;
};

// x86-64: built for the machine's widest float vectors the splat can use
// without fusing a multiply and an add (AVX has no fused multiply-add, so
// its sums are the same bits as SSE2's). Elsewhere (aarch64 hosts of NVIDIA
// GPUs) built once, for the baseline.
#if defined(__x86_64__)
#define FJ_SPLAT_CLONES __attribute__((target_clones("avx", "default")))
#else
#define FJ_SPLAT_CLONES
#endif

// The non-empty cells of rows [y0, y1) and columns [x0, x1) splatted into
// `out`; returns how many there were.
FJ_SPLAT_CLONES
long long splat_rows(const DensityInput& in, int y0, int y1, int x0, int x1, float* out) {
    long long nonempty = 0;
    for (int y = y0; y < y1; ++y) {
        const float* line = in.accum + 4 * (long long)y * in.w;
        for (int x = x0; x < x1; ++x) {
            const float* c = line + 4 * x;
            if (c[3] == 0.0f) continue;
            ++nonempty;
            const int k = de_kernel_index(density_around(in.counts, in.stride, in.w, x, y, in.os), in.sel);
            const int r = in.kernels.radius[k];
            const float ls = log_scale_factor(c[3], in.k1, in.k2);
            // The kernel clipped to the histogram once per cell, so the
            // inner loop has no tests.
            splat(out + 4 * ((long long)y * in.w + x), in.w, in.kernels, k, std::max(-r, -y),
                  std::min(r, in.h - 1 - y), std::max(-r, -x), std::min(r, in.w - 1 - x), ls, load4(c));
        }
    }
    return nonempty;
}

// Density estimation: every non-empty cell splats its log-scaled value with
// the kernel its neighbourhood's hit count selects. Rows are cut into swaths
// taller than a kernel's diameter; even swaths run first, then odd ones, so
// no two threads ever add into the same cell and the sums come out in the
// same order for any thread count. Swaths are counted in the whole frame's
// rows, so a strip's cells get their sums in the whole frame's order too.
void density_estimate(const PostPlan& plan, const HistogramView& hist, float* out, int threads,
                      std::vector<CellTotals>& totals) {
    const int os = plan.supersample, w = plan.hist_width, h = plan.hist_height;
    // flam3 chooses kernels by its count channel; alpha/255 equals it when
    // the frame has no count buffer (HistogramView).
    const DensityInput in{hist.rgba,
                          hist.counts ? hist.counts : hist.rgba + 3,
                          hist.counts ? 1 : 4,
                          w,
                          h,
                          os,
                          float(plan.k1),
                          float(plan.k2),
                          density_select(plan),
                          splat_kernels(plan.density)};

    // Cells closer than os-1 to the edge are skipped, as flam3 does: their
    // neighbourhood would leave the histogram.
    const int y0 = os - 1, y1 = h - (os - 1), x0 = os - 1, x1 = w - (os - 1);
    const int swath = 2 * plan.density.half_width + 2;
    // Swath i holds the frame's rows from os-1 + i·swath (local row
    // `origin` + i·swath).
    const int origin = os - 1 - plan.hist_row0;
    const int first = y1 > y0 ? (y0 - origin) / swath : 0;
    const int swaths = y1 > y0 ? (y1 - 1 - origin) / swath + 1 - first : 0;
    for (int phase = 0; phase < 2; ++phase) {
        // The swaths of this phase's parity in the frame's count.
        const int start = (first % 2 == phase) ? 0 : 1;
        const int count = swaths > start ? (swaths - start + 1) / 2 : 0;
        parallel_for(count, threads, [&](int s, int t) {
            const int i = first + start + 2 * s;
            totals[t].nonempty += splat_rows(in, std::max(y0, origin + i * swath),
                                             std::min(y1, origin + (i + 1) * swath), x0, x1, out);
        });
    }
}

void scale_into(const PostPlan& plan, const HistogramView& hist, float* out, int threads,
                std::vector<CellTotals>& totals) {
    if (uses_density_estimation(plan))
        density_estimate(plan, hist, out, threads, totals);
    else
        log_scale_all(plan, hist.rgba, out, threads, totals);
}

}  // namespace

void check_post_plan(const PostPlan& p) {
    auto fail = [](const std::string& why) { throw std::runtime_error("post-pass plan: " + why); };
    if (p.width < 1 || p.height < 1 || p.supersample < 1) fail("empty image or supersample < 1");
    if (p.filter.width < 1 || (int)p.filter.coefs.size() != p.filter.width * p.filter.width)
        fail("spatial filter has no coefficients");
    long long need_w = (long long)p.de_offset + (long long)(p.width - 1) * p.supersample + p.filter.width;
    long long need_h = (long long)p.filter_top() + (long long)(p.height - 1) * p.supersample + p.filter.width;
    if (need_w > p.hist_width || need_h > p.hist_height || p.filter_top() < 0)
        fail("histogram " + std::to_string(p.hist_width) + "x" + std::to_string(p.hist_height) +
             " is smaller than the filter window needs");
    const DensityBank& b = p.density;
    if (b.kernel_count > 1) {
        size_t row = 2 * size_t(b.half_width) + 1;
        if ((int)b.widths.size() != b.kernel_count || b.coefs.size() != row * row * b.kernel_count)
            fail("density bank sizes do not match its kernel count");
    }
}

void scale_pass_cpu(const PostPlan& plan, const HistogramView& hist, float* passes, int threads) {
    check_post_plan(plan);
    if (threads <= 0) threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<CellTotals> totals(threads);
    scale_into(plan, hist, passes, threads, totals);
}

ImageF post_process_cpu(const PostPlan& plan, const float* accum, int threads, PostStats* stats) {
    return post_process_cpu(plan, HistogramView{accum, nullptr}, nullptr, threads, stats);
}

ImageF post_process_cpu(const PostPlan& plan, const HistogramView& hist, float* passes, int threads,
                        PostStats* stats) {
    auto start = std::chrono::steady_clock::now();
    check_post_plan(plan);
    if (threads <= 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const float* accum = hist.rgba;
    const size_t cells = size_t(plan.hist_width) * plan.hist_height;
    ZeroedBuffer own;
    if (!passes) {
        own = ZeroedBuffer(4 * cells);
        passes = own.data();
    }
    float* scaled = passes;
    std::vector<CellTotals> totals(threads);
    const bool de = uses_density_estimation(plan);
    scale_into(plan, hist, scaled, threads, totals);

    ImageF img;
    img.width = plan.width;
    img.height = plan.height;
    const size_t pixels = size_t(plan.width) * plan.height;
    img.rgba.reserve(4 * pixels);
    advise_huge_pages(img.rgba.data(), 4 * pixels * sizeof(float));
    img.rgba.resize(4 * pixels);
    // Filter and tone in double, as flam3 does: the truncation to 8 or 16
    // bits then sees the values flam3's does (tone.h).
    const ToneParamsT<double> tone = tone_params<double>(plan);
    const int os = plan.supersample;
    if (plan.earlyclip && !plan.linear) {
        // Every cell, empty ones too: they take the background (flam3), and
        // go back into the float buffer as into flam3's. Colour curves come
        // after the filter (clip_filtered).
        ToneParamsT<double> cell_tone = tone;
        cell_tone.curves = nullptr;
        const long long w = plan.hist_width;
        parallel_for(plan.hist_height, threads, [&](int y, int) {
            for (long long n = y * w; n < (y + 1) * w; ++n) {
                double cell[4], toned[4];
                for (int i = 0; i < 4; ++i) cell[i] = scaled[4 * n + i];
                tone_pixel(cell, cell_tone, toned);
                for (int i = 0; i < 4; ++i) scaled[4 * n + i] = static_cast<float>(toned[i]);
            }
        });
    }
    // One filtered pixel toned (or, under early clip, clamped) into the image.
    auto finish = [&](const double t[4], float out[4]) {
        double toned[4];
        if (plan.linear)
            for (int i = 0; i < 4; ++i) toned[i] = i < 3 ? t[i] : t[3] / 255.0;
        else if (plan.earlyclip)
            clip_filtered(t, tone.curves, toned);
        else
            tone_pixel(t, tone, toned);
        for (int i = 0; i < 4; ++i) out[i] = toward_zero_float(toned[i]);
    };
    // A pixel whose filter window is empty sums to +0 in every channel and so
    // always comes out as this (the background), which most of a sparse frame
    // is: toned once.
    const double nothing[4] = {0.0, 0.0, 0.0, 0.0};
    float empty[4];
    finish(nothing, empty);
    parallel_for(plan.height, threads, [&](int py, int) {
        float* out = &img.rgba[4 * size_t(py) * plan.width];
        for (int px = 0; px < plan.width; ++px, out += 4) {
            double t[4];
            filter_pixel(scaled, plan.hist_width, plan.de_offset + px * os, plan.filter_top() + py * os,
                        plan.filter.coefs.data(), plan.filter.width, t);
            if (std::memcmp(t, nothing, sizeof t) == 0)
                std::memcpy(out, empty, sizeof empty);
            else
                finish(t, out);
        }
    });

    if (stats) {
        const long long w = plan.hist_width;
        parallel_for(plan.hist_height, threads, [&](int y, int t) {
            for (long long n = y * w; n < (y + 1) * w; ++n) totals[t].alpha += accum[4 * n + 3];
        });
        *stats = PostStats{};
        for (const CellTotals& c : totals) {
            stats->nonempty_cells += c.nonempty;
            stats->alpha_sum += c.alpha;
        }
        stats->density_estimation = de;
        stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return img;
}

}  // namespace fj
