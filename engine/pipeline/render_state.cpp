// flamejit — render states: a still's histogram in a file.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/render_state.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>

#include <nlohmann/json.hpp>

#include "atomic_file.h"
#include "content_hash.h"
#include "errors.h"

namespace fj {
namespace {

// Format 3 records each run's seed; format 2 did not; format 1's checksum
// covered the histogram only, so a damaged count could pass.
constexpr const char* kMagic = "flamejit-render-state 3";
constexpr const char* kFormat2 = "flamejit-render-state 2";
constexpr const char* kFormat1 = "flamejit-render-state 1";

// Over the header's values (all but the checksum), then the histogram.
uint32_t crc_of(const RenderState& state, bool counts) {
    std::string values = state.identity + "|" + std::to_string(state.hist_width) + "|" +
                         std::to_string(state.hist_height) + "|" + std::to_string(state.requested) + "|" +
                         std::to_string(state.plotted) + "|" + std::to_string(state.bad_values) + "|" +
                         std::to_string(state.runs) + "|" + (counts ? "counts" : "");
    for (uint64_t seed : state.streams) values.append("|").append(std::to_string(seed));
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(values.data()), static_cast<uInt>(values.size()));
    for (const std::vector<float>* v : {&state.rgba, &state.counts}) {
        const auto* bytes = reinterpret_cast<const Bytef*>(v->data());
        size_t left = v->size() * sizeof(float);
        while (left > 0) {
            const uInt chunk = static_cast<uInt>(std::min<size_t>(left, 1u << 30));
            crc = crc32(crc, bytes, chunk);
            bytes += chunk;
            left -= chunk;
        }
    }
    return static_cast<uint32_t>(crc);
}

}  // namespace

std::string frame_identity(const PreparedFrame& frame, const FramePlan& p) {
    if (frame.passes.size() != 1 || frame.samples.size() != 1)
        throw InputError("render state holds frames of one pass and one time sample (this one: passes " +
                         std::to_string(frame.passes.size()) + ", time samples " +
                         std::to_string(frame.samples.size()) + ")");
    if (frame.plan.height != frame.plan.frame_height) throw InputError("render state holds whole frames, not fields");
    Fnv128 hash;
    hash.add_field("flamejit render state identity");
    for (int v : {p.width, p.height, p.supersample, p.hist_width, p.hist_height, int(frame.key.density_count)})
        hash.add(&v, sizeof v);
    // A strip's rows too (a whole frame's identity is as it was before strips had states).
    if (p.height != p.frame_height)
        for (int v : {p.first_row, p.frame_height, p.hist_row0}) hash.add(&v, sizeof v);
    const std::vector<float>& params = frame.samples[0].params;
    hash.add(params.data(), params.size() * sizeof(float));
    return hex128(hash.hi(), hash.lo());
}

void write_render_state(const std::string& path, const RenderState& state) {
    const size_t cells = static_cast<size_t>(state.hist_width) * static_cast<size_t>(state.hist_height);
    if (state.rgba.size() != 4 * cells || (!state.counts.empty() && state.counts.size() != cells))
        throw std::logic_error("write_render_state: buffers do not match the histogram's size");
    const nlohmann::json header = {{"identity", state.identity},   {"hist_width", state.hist_width},
                                   {"hist_height", state.hist_height}, {"requested", state.requested},
                                   {"plotted", state.plotted},
                                   {"bad_values", state.bad_values}, {"runs", state.runs},
                                   {"streams", state.streams},
                                   {"counts", !state.counts.empty()}, {"crc32", crc_of(state, !state.counts.empty())}};
    write_file_atomically(path, [&](std::ostream& out) {
        out << kMagic << '\n' << header.dump() << '\n';
        out.write(reinterpret_cast<const char*>(state.rgba.data()),
                  static_cast<std::streamsize>(state.rgba.size() * sizeof(float)));
        out.write(reinterpret_cast<const char*>(state.counts.data()),
                  static_cast<std::streamsize>(state.counts.size() * sizeof(float)));
    });
}

RenderState read_render_state(const std::string& path, bool histogram) {
    auto bad = [&](const std::string& why) { return InputError(path + ": " + why); };
    std::ifstream in(path, std::ios::binary);
    if (!in) throw bad(std::string("cannot open: ") + std::strerror(errno));
    std::string magic, line;
    if (!std::getline(in, magic)) throw bad("not a flamejit render state");
    if (magic == kFormat1)
        throw bad("render state of an earlier flamejit (format 1), whose checksum leaves its counts out: save it again");
    const bool format2 = magic == kFormat2;
    if (magic != kMagic && !format2) throw bad("not a flamejit render state");
    if (!std::getline(in, line)) throw bad("render state cut short");
    RenderState state;
    bool counts = false;
    uint32_t crc = 0;
    try {
        const nlohmann::json h = nlohmann::json::parse(line);
        // Counts are whole numbers, never negative or fractions.
        for (const char* key : {"hist_width", "hist_height", "requested", "plotted", "bad_values", "runs", "crc32"})
            if (!h.at(key).is_number_unsigned()) throw bad("render state header is damaged");
        state.identity = h.at("identity").get<std::string>();
        state.hist_width = h.at("hist_width").get<int>();
        state.hist_height = h.at("hist_height").get<int>();
        state.requested = h.at("requested").get<uint64_t>();
        state.plotted = h.at("plotted").get<uint64_t>();
        state.bad_values = h.at("bad_values").get<uint64_t>();
        state.runs = h.at("runs").get<int>();
        counts = h.at("counts").get<bool>();
        if (!format2) {
            const nlohmann::json& streams = h.at("streams");
            if (!streams.is_array() || streams.size() > static_cast<size_t>(state.runs))
                throw bad("render state header is damaged");
            for (const nlohmann::json& seed : streams) {
                if (!seed.is_number_unsigned()) throw bad("render state header is damaged");
                state.streams.push_back(seed.get<uint64_t>());
            }
        }
        crc = h.at("crc32").get<uint32_t>();
    } catch (const nlohmann::json::exception&) {
        throw bad("render state header is damaged");
    }
    // The histogram sizes plan_frame allows: sides below 2^23, cells below 2^31.
    if (state.hist_width < 1 || state.hist_height < 1 || state.hist_width >= (1 << 23) ||
        state.hist_height >= (1 << 23) ||
        static_cast<double>(state.hist_width) * state.hist_height > std::numeric_limits<int>::max())
        throw bad("render state header is damaged");
    const size_t cells = static_cast<size_t>(state.hist_width) * static_cast<size_t>(state.hist_height);
    const std::streampos data = in.tellg();
    in.seekg(0, std::ios::end);
    const auto expected = static_cast<std::streamoff>(cells * (counts ? 5 : 4) * sizeof(float));
    if (in.tellg() - data != expected) throw bad("render state cut short or too long for its histogram");
    if (!histogram) return state;
    in.seekg(data);
    state.rgba.resize(4 * cells);
    in.read(reinterpret_cast<char*>(state.rgba.data()), static_cast<std::streamsize>(state.rgba.size() * sizeof(float)));
    if (counts) {
        state.counts.resize(cells);
        in.read(reinterpret_cast<char*>(state.counts.data()),
                static_cast<std::streamsize>(state.counts.size() * sizeof(float)));
    }
    if (!in) throw bad("cannot read the render state's histogram");
    if (crc_of(state, counts) != crc) throw bad("render state is damaged (its checksum does not match)");
    return state;
}

std::string strip_state_path(const std::string& folder, int index, int count) {
    return (std::filesystem::path(folder) /
            ("strip-" + std::to_string(index + 1) + "-of-" + std::to_string(count) + ".fjstate"))
        .string();
}

namespace {

// The strip states in `folder`: (N, K) of each strip-K-of-N.fjstate, with its path.
std::map<std::pair<int, int>, std::filesystem::path> strip_states_in(const std::string& folder) {
    std::map<std::pair<int, int>, std::filesystem::path> found;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
        int k = 0, n = 0, end = 0;
        const std::string name = entry.path().filename().string();
        if (std::sscanf(name.c_str(), "strip-%d-of-%d.fjstate%n", &k, &n, &end) == 2 &&
            end == static_cast<int>(name.size()))
            found[{n, k}] = entry.path();
    }
    if (error) throw InputError(folder + ": cannot read the folder: " + error.message());
    return found;
}

}  // namespace

void prepare_strip_state_folder(const std::string& folder, int count) {
    std::error_code error;
    std::filesystem::create_directory(folder, error);
    if (error) throw std::runtime_error("cannot make the folder " + folder + ": " + error.message());
    for (const auto& [nk, path] : strip_states_in(folder))
        if (nk.first != count) std::filesystem::remove(path, error);
}

int strip_state_count(const std::string& folder) {
    const auto found = strip_states_in(folder);
    if (found.empty()) throw InputError(folder + ": holds no render state (strip-K-of-N.fjstate)");
    const int n = found.begin()->first.first;
    bool whole = n >= 1 && found.size() == static_cast<size_t>(n);
    for (int k = 1; whole && k <= n; ++k) whole = found.count({n, k}) == 1;
    if (!whole)
        throw InputError(folder + ": the strips' render states are not strip-1-of-N.fjstate to strip-N-of-N.fjstate of "
                                  "one N");
    return n;
}

RenderState read_render_states(const std::vector<std::string>& paths, bool histograms) {
    if (paths.empty()) throw std::logic_error("read_render_states: no files");
    RenderState sum = read_render_state(paths[0], histograms);
    if (paths.size() == 1) return sum;
    const auto check_streams = [](const RenderState& state, const std::string& path) {
        if (state.streams.size() != static_cast<size_t>(state.runs))
            throw InputError(path + ": render state of an earlier flamejit (format 2), which did not record its "
                                    "runs' seeds: it resumes alone, but cannot be summed with others");
    };
    check_streams(sum, paths[0]);
    std::vector<size_t> owner(sum.streams.size(), 0);  // the file of each of sum's streams
    for (size_t f = 1; f < paths.size(); ++f) {
        const RenderState part = read_render_state(paths[f], histograms);
        check_streams(part, paths[f]);
        if (part.identity != sum.identity || part.hist_width != sum.hist_width ||
            part.hist_height != sum.hist_height || part.counts.size() != sum.counts.size())
            throw InputError(paths[f] + ": the render state holds another frame than " + paths[0] +
                             " (states summed must be of one genome, size and supersample)");
        for (uint64_t seed : part.streams) {
            const auto same = std::find(sum.streams.begin(), sum.streams.end(), seed);
            if (same != sum.streams.end())
                throw InputError(paths[f] + ": shares a run's samples with " + paths[owner[same - sum.streams.begin()]] +
                                 " (streams of seed " + std::to_string(seed) +
                                 "; the same --seed, or resumed from one state): render each part with a seed of "
                                 "its own");
        }
        for (size_t i = 0; i < sum.rgba.size(); ++i) sum.rgba[i] += part.rgba[i];
        for (size_t i = 0; i < sum.counts.size(); ++i) sum.counts[i] += part.counts[i];
        sum.requested += part.requested;
        sum.plotted += part.plotted;
        sum.bad_values += part.bad_values;
        sum.runs += part.runs;
        sum.streams.insert(sum.streams.end(), part.streams.begin(), part.streams.end());
        owner.resize(sum.streams.size(), f);
    }
    return sum;
}

}  // namespace fj
