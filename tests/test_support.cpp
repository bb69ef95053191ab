// SPDX-License-Identifier: GPL-3.0-or-later
#include "test_support.h"

#include "atomic_file.h"
#include "codegen/variation_registry.h"
#include "content_hash.h"
#include "cpu/variation_table.h"
#include "cuda/cuda_backend.h"
#include "cuda/nvrtc_api.h"
#include "shared/hashes.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <unistd.h>

namespace fj::test {

// A test executable copied to a machine without the source or build tree (a
// bundle from tools/bundle.sh, whose env.sh sets these variables) reads its
// inputs where the variables say, and runs unchanged in the build tree otherwise.
std::string path_from_env(const char* variable, const std::string& configured) {
    const char* value = std::getenv(variable);
    return value && *value ? value : configured;
}

namespace {

std::string binary_dir() { return path_from_env("FJ_BINARY_DIR", FJ_BINARY_DIR); }

}  // namespace

std::string source_path(const std::string& rel) { return path_from_env("FJ_SOURCE_DIR", FJ_SOURCE_DIR) + "/" + rel; }
std::string corpus_path(const std::string& rel) { return path_from_env("FJ_CORPUS_DIR", FJ_CORPUS_DIR) + "/" + rel; }
std::string flam3_data_path(const std::string& rel) {
    return path_from_env("FJ_FLAM3_DATA_DIR", "/usr/share/flam3") + "/" + rel;
}
std::string flamejit_binary() { return path_from_env("FJ_FLAMEJIT", binary_dir() + "/flamejit"); }

namespace {

std::string scratch_root() { return path_from_env("FJ_SCRATCH_DIR", binary_dir() + "/test-scratch"); }

struct ScratchDirs {
    std::mutex mutex;
    std::vector<std::string> made;
    pid_t owner = getpid();  // a forked child leaves them to the process that made them
};

ScratchDirs& scratch_dirs() {
    static ScratchDirs dirs;
    return dirs;
}

}  // namespace

std::string scratch_dir(const std::string& tag) {
    static std::atomic<int> counter{0};
    const std::string dir = scratch_root() + "/" + tag + "-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    ScratchDirs& dirs = scratch_dirs();
    std::lock_guard lock(dirs.mutex);
    dirs.made.push_back(dir);
    return dir;
}

void end_scratch(bool passed) {
    ScratchDirs& dirs = scratch_dirs();
    std::lock_guard lock(dirs.mutex);
    if (dirs.made.empty() || getpid() != dirs.owner) return;
    if (!passed) {
        std::fprintf(stderr, "this run's scratch folders are kept: %s/*-%d-*\n", scratch_root().c_str(),
                     static_cast<int>(dirs.owner));
        return;
    }
    std::error_code ignored;
    for (const std::string& dir : dirs.made) std::filesystem::remove_all(dir, ignored);
    dirs.made.clear();
}

bool file_exists(const std::string& path) { return std::filesystem::exists(path); }

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + path);
}

ScopedEnv::ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* before = std::getenv(name)) before_ = before;
    setenv(name, value.c_str(), 1);
}

ScopedEnv::~ScopedEnv() { before_ ? setenv(name_, before_->c_str(), 1) : unsetenv(name_); }

std::string quoted(const std::string& s) { return "'" + s + "'"; }

CommandResult run_command(const std::string& command) {
    CommandResult result;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (!pipe) return result;
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
    const int status = pclose(pipe);
    if (WIFEXITED(status)) result.status = WEXITSTATUS(status);
    return result;
}

namespace {

// Which flam3-render runs (its path, size and time), for flam3_render_shared's
// keys; empty when there is none.
std::string flam3_render_build() {
    namespace fs = std::filesystem;
    const CommandResult where = run_command("command -v flam3-render");
    if (where.status != 0) return "";
    const std::string path = where.output.substr(0, where.output.find('\n'));
    std::error_code ec;
    return path + " " + std::to_string(fs::file_size(path, ec)) + " " +
           std::to_string(fs::last_write_time(path, ec).time_since_epoch().count());
}

}  // namespace

CommandResult flam3_render_shared(const std::string& genome, const std::string& png, const std::string& settings) {
    namespace fs = std::filesystem;
    static const std::string renderer = flam3_render_build();
    if (renderer.empty()) return {-1, "flam3-render not found"};
    std::error_code ec;
    Fnv128 key;
    key.add_field(read_file(genome));
    key.add_field(settings);
    key.add_field(renderer);
    const fs::path dir = scratch_root() + "/flam3-references";
    fs::create_directories(dir);
    const std::string name = hex128(key.hi(), key.lo());
    const fs::path done = dir / (name + ".png");
    // One renderer per key at a time; the lock goes with the descriptor.
    const int lock = ::open((dir / (name + ".lock")).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    REQUIRE_MESSAGE(lock >= 0, "cannot open a lock in " << dir.string());
    while (::flock(lock, LOCK_EX) != 0 && errno == EINTR) {
    }
    CommandResult result{0, ""};
    if (!fs::exists(done)) {
        const std::string temporary = temporary_name_for(done);
        result = run_command("env in=" + quoted(genome) + " out=" + quoted(temporary) + " " + settings + " flam3-render");
        try {
            commit_temporary(temporary, done.string(), result.status == 0 ? "" : "flam3-render failed");
        } catch (const std::exception& e) {
            if (result.status == 0) result = {-1, e.what()};
        }
    }
    if (result.status == 0 && !fs::copy_file(done, png, fs::copy_options::overwrite_existing, ec))
        result = {-1, "cannot copy " + done.string() + " to " + png + ": " + ec.message()};
    ::close(lock);
    return result;
}

std::string flam3_genome_variation_ids() {
    std::string ids;
    for (const auto& v : VariationRegistry::standard().all())
        if (!v.pre && v.from_flam3()) ids += (ids.empty() ? "" : ",") + std::to_string(v.id);
    return ids;
}

bool other_renderers_alias(const std::string& variation, const std::string& alias) {
    const VariationInfo* v = VariationRegistry::standard().by_name(variation);
    if (!v) return false;
    for (const std::string& other : v->also)
        if (alias.rfind(other + "_", 0) == 0) return true;
    return false;
}

bool flam3_genome_present() {
    if (run_command("command -v flam3-genome").status == 0) return true;
    FAIL("flam3-genome not installed (Debian flam3-utils): tools/test.sh installs it");
    return false;
}

bool flam3_render_present() {
    if (run_command("command -v flam3-render").status == 0) return true;
    FAIL("flam3-render not installed (Debian flam3-utils): tools/test.sh installs it");
    return false;
}

bool corpus_present(const std::string& rel) {
    const std::string dir = corpus_path(rel);
    if (std::filesystem::is_directory(dir)) return true;
    FAIL("no genome corpus at " << dir << " (FJ_CORPUS_DIR, or the build's FLAMEJIT_CORPUS_DIR)");
    return false;
}

bool nvrtc_present() {
    std::string why;
    if (nvrtc_available(&why)) return true;
    FAIL("NVRTC unavailable: " << why);
    return false;
}

bool cuda_devices_present(int devices) {
    std::string why;
    if (cuda_available(&why)) {
        const size_t count = describe_devices().devices.size();
        if (count >= static_cast<size_t>(devices)) return true;
        why = std::to_string(count) + " CUDA device(s), the case needs " + std::to_string(devices);
    }
    missing_devices(why, devices);
    return false;
}

void missing_devices(const std::string& why, int devices) {
    const char* required = std::getenv("FJ_REQUIRE_DEVICES");
    if (required && std::atoi(required) >= devices)
        FAIL("FJ_REQUIRE_DEVICES=" << required << ", but " << why);
    else
        MESSAGE("skipped: " << why);
}

std::vector<std::string> flame_elements(const std::string& xml) {
    std::vector<std::string> out;
    for (size_t at = 0; (at = xml.find("<flame ", at)) != std::string::npos;) {
        const size_t end = xml.find("</flame>", at);
        REQUIRE(end != std::string::npos);
        out.push_back(xml.substr(at, end + 8 - at));
        at = end;
    }
    return out;
}

std::string set_flame_attribute(const std::string& xml, const std::string& name, const std::string& value) {
    const size_t open = xml.find("<flame ");
    REQUIRE(open != std::string::npos);
    const size_t close = xml.find('>', open);
    std::string tag = xml.substr(open, close - open);
    const std::regex existing(" " + name + "=\"[^\"]*\"");
    if (std::regex_search(tag, existing))
        tag = std::regex_replace(tag, existing, " " + name + "=\"" + value + "\"");
    else
        tag += " " + name + "=\"" + value + "\"";
    return xml.substr(0, open) + tag + xml.substr(close);
}

std::string reduced_genome(const std::string& xml, double factor, double quality) {
    std::smatch m;
    std::string out = xml;
    REQUIRE(std::regex_search(out, m, std::regex("size=\"(\\d+) (\\d+)\"")));
    const int w = static_cast<int>(std::stoi(m[1]) * factor), h = static_cast<int>(std::stoi(m[2]) * factor);
    out = set_flame_attribute(out, "size", std::to_string(w) + " " + std::to_string(h));
    REQUIRE(std::regex_search(out, m, std::regex(" scale=\"([-0-9.eE+]+)\"")));
    out = set_flame_attribute(out, "scale", std::to_string(std::stod(m[1]) * factor));
    out = set_flame_attribute(out, "quality", std::to_string(quality));
    return set_flame_attribute(out, "supersample", "1");
}

std::complex<double> host_variation(const char* name, float x, float y, float w, const std::vector<float>& p,
                                    Rng& rng) {
    const cpu::VariationEntry* v = cpu::find_variation(name);
    REQUIRE_MESSAGE(v, name);
    static const Affine identity{1, 0, 0, 0, 1, 0};
    float ox = 0, oy = 0, c = 0.5f;
    v->fn(make_var_in(x, y, &identity), p.data(), w, rng, ox, oy, c);
    CHECK_MESSAGE(c == 0.5f, name << " changed the colour index");
    return {ox, oy};
}

bool near(std::complex<double> got, std::complex<double> want, double slack) {
    return std::abs(got - want) <= 1e-5 * slack * std::max(1.0, std::abs(want));
}

const std::vector<float>& extreme_parameter_values() {
    static const std::vector<float> values = {0,    1,     -1,    0.5f,  2,      7,       -3,       1e6f,
                                              -1e6f, 1e9f, -1e9f, 1e30f, -1e30f, 3.4e38f, -3.4e38f, 1e-30f};
    return values;
}

bool frequency_ok(int count, int n, double prob) {
    const double sd = std::sqrt(n * prob * (1 - prob));
    return std::fabs(count - n * prob) <= 5 * sd + 1;
}

double shader_hash(float a, float b, float seed) {
    const float v = hash_sine(add_rn(add_rn(mul_rn(a, 12.9898f), mul_rn(b, 78.233f)), seed));
    return double(v) - std::floor(double(v));
}

int xform_switches(const std::string& source) {
    const size_t dispatch = source.find("void fj_apply_xform(");
    int switches = 0;
    for (size_t at = source.find("switch"); at != std::string::npos; at = source.find("switch", at + 1), ++switches)
        if (dispatch == std::string::npos || at < dispatch || source.compare(at, 10, "switch (k)") != 0) return -1;
    return switches;
}

}  // namespace fj::test
