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

// How far each DE kernel reaches on each of its rows: taps beyond the
// kernel's splat radius are not splatted (flam3), and those outside its circle
// are zero. Zero taps add +0 (colours are finite), which leaves every sum as
// it was (no cell is ever -0: every sum starts at +0), so skipping them gives
// the same bits.
struct KernelReach {
    int row = 0;                 // the bank's row length, 2·half+1
    std::vector<int> radius;     // per kernel
    std::vector<int> reach;      // per kernel and dy + half: |dx| ≤ reach; -1: an empty row
};

KernelReach kernel_reach(const DensityBank& bank) {
    KernelReach kr;
    const int half = bank.half_width;
    kr.row = 2 * half + 1;
    kr.radius.resize(bank.kernel_count);
    kr.reach.assign(size_t(bank.kernel_count) * kr.row, -1);
    for (int k = 0; k < bank.kernel_count; ++k) {
        const int r = kr.radius[k] = std::min(half, de_splat_radius(float(bank.widths[k])));
        const float* coef = bank.coefs.data() + size_t(k) * kr.row * kr.row;
        for (int dy = -r; dy <= r; ++dy) {
            const float* krow = coef + (dy + half) * kr.row + half;
            int& reach = kr.reach[size_t(k) * kr.row + dy + half];
            for (int dx = 0; dx <= r; ++dx)
                if (krow[dx] != 0.0f || krow[-dx] != 0.0f) reach = dx;
        }
    }
    return kr;
}

// One cell's four channels as one SIMD value (GCC/Clang vector extension;
// without SIMD it is four scalar operations). The arithmetic per channel is
// that of scalar code, so results are the same bits; written this way, the
// compiler does a DE tap as one vector multiply and add instead of
// vectorising across taps and shuffling channels.
typedef float Rgba4 __attribute__((vector_size(16)));

inline Rgba4 load4(const float* p) {
    Rgba4 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

inline void store4(float* p, Rgba4 v) { std::memcpy(p, &v, sizeof v); }

// One cell's splat: out += (coef·ls)·v over the kernel's taps, clipped to
// the histogram rows [ylo, yhi] and columns [xlo, xhi] (offsets from the
// cell).
inline void splat(float* out, long long w, const float* coef, const int* reach, int half, int ylo, int yhi,
                  int xlo, int xhi, float ls, Rgba4 v) {
    const int row = 2 * half + 1;
    for (int dy = ylo; dy <= yhi; ++dy) {
        const int e = reach[dy + half];
        const int lo = std::max(-e, xlo), hi = std::min(e, xhi);
        const float* krow = coef + (dy + half) * row + half;
        float* o = out + 4 * (dy * w + lo);
        for (int dx = lo; dx <= hi; ++dx, o += 4) store4(o, load4(o) + (krow[dx] * ls) * v);
    }
}

// Density estimation: every non-empty cell splats its log-scaled value with
// the kernel its neighbourhood's hit count selects. Rows are cut into swaths
// taller than a kernel's diameter; even swaths run first, then odd ones, so
// no two threads ever add into the same cell and the sums come out in the
// same order for any thread count. Swaths are counted in the whole frame's
// rows, so a strip's cells get their sums in the whole frame's order too.
void density_estimate(const PostPlan& plan, const HistogramView& hist, float* out, int threads,
                      std::vector<CellTotals>& totals) {
    const float* accum = hist.rgba;
    // flam3 chooses kernels by its count channel; alpha/255 equals it when
    // the frame has no count buffer (HistogramView).
    const float* counts = hist.counts ? hist.counts : hist.rgba + 3;
    const int stride = hist.counts ? 1 : 4;
    const DensityBank& bank = plan.density;
    const DensitySelect sel = density_select(plan);
    const float k1 = float(plan.k1), k2 = float(plan.k2);
    const int os = plan.supersample, w = plan.hist_width, h = plan.hist_height;
    const int half = bank.half_width;
    const KernelReach kr = kernel_reach(bank);

    // Cells closer than os-1 to the edge are skipped, as flam3 does: their
    // neighbourhood would leave the histogram.
    const int y0 = os - 1, y1 = h - (os - 1), x0 = os - 1, x1 = w - (os - 1);
    const int swath = 2 * half + 2;
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
            const int sy0 = std::max(y0, origin + i * swath), sy1 = std::min(y1, origin + (i + 1) * swath);
            long long nonempty = 0;
            for (int y = sy0; y < sy1; ++y) {
                const float* line = accum + 4 * (long long)y * w;
                for (int x = x0; x < x1; ++x) {
                    const float* c = line + 4 * x;
                    if (c[3] == 0.0f) continue;
                    ++nonempty;
                    const int k = de_kernel_index(density_around(counts, stride, w, x, y, os), sel);
                    const int r = kr.radius[k];
                    const float ls = log_scale_factor(c[3], k1, k2);
                    // The kernel clipped to the histogram once per cell, so
                    // the inner loop has no tests.
                    splat(out + 4 * ((long long)y * w + x), w, bank.coefs.data() + size_t(k) * kr.row * kr.row,
                          kr.reach.data() + size_t(k) * kr.row, half, std::max(-r, -y), std::min(r, h - 1 - y),
                          std::max(-r, -x), std::min(r, w - 1 - x), ls, load4(c));
                }
            }
            totals[t].nonempty += nonempty;
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
