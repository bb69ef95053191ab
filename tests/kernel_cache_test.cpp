// flamejit — tests of the NVRTC compiler and the kernel cache (no GPU needed).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <doctest/doctest.h>

#include <elf.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <thread>
#include <vector>

#include "codegen/kernel_key.h"
#include "codegen/param_layout.h"
#include "codegen/stitcher.h"
#include "codegen/variation_registry.h"
#include "cuda/compiler.h"
#include "cuda/kernel_cache.h"
#include "cuda/nvrtc_api.h"
#include "test_support.h"

namespace {

// Enough work that ptxas needs a handful of registers.
const char* kSource = R"(
extern "C" __global__ void fj_iterate(float* data, unsigned int n, float k) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = sinf(data[i] * k) + cosf(data[i]) / (1.0f + data[i] * data[i]);
}
)";

fj::CompileRequest request(const std::string& source = kSource, const std::string& arch = "sm_90") {
    fj::CompileRequest r;
    r.source = source;
    r.arch = arch;
    r.entry = "fj_iterate";
    return r;
}

bool have_nvrtc() {
    std::string why;
    if (fj::nvrtc_available(&why)) return true;
    MESSAGE("NVRTC unavailable, kernel cache tests skipped: " << why);
    return false;
}

// The register count the CUBIN itself records, independent of the log: the
// `.nv.info` section holds EIATTR_REGCOUNT (attribute 0x2f, format 4 = sized
// value) records of {symbol index, registers}.
int cubin_register_count(const std::string& cubin, const std::string& entry) {
    if (cubin.size() < sizeof(Elf64_Ehdr) || std::memcmp(cubin.data(), ELFMAG, SELFMAG) != 0)
        return -1;
    Elf64_Ehdr eh;
    std::memcpy(&eh, cubin.data(), sizeof eh);
    auto section = [&](int i) {
        Elf64_Shdr sh;
        std::memcpy(&sh, cubin.data() + eh.e_shoff + i * eh.e_shentsize, sizeof sh);
        return sh;
    };
    const Elf64_Shdr names = section(eh.e_shstrndx);
    auto section_name = [&](const Elf64_Shdr& sh) {
        return std::string(cubin.data() + names.sh_offset + sh.sh_name);
    };
    long symbol = -1;
    for (int i = 0; i < eh.e_shnum && symbol < 0; ++i) {
        const Elf64_Shdr sh = section(i);
        if (sh.sh_type != SHT_SYMTAB) continue;
        const Elf64_Shdr strings = section(sh.sh_link);
        for (size_t k = 0; k < sh.sh_size / sizeof(Elf64_Sym); ++k) {
            Elf64_Sym sym;
            std::memcpy(&sym, cubin.data() + sh.sh_offset + k * sizeof sym, sizeof sym);
            if (entry == cubin.data() + strings.sh_offset + sym.st_name) symbol = static_cast<long>(k);
        }
    }
    for (int i = 0; i < eh.e_shnum; ++i) {
        const Elf64_Shdr sh = section(i);
        if (section_name(sh) != ".nv.info") continue;
        const unsigned char* p = reinterpret_cast<const unsigned char*>(cubin.data() + sh.sh_offset);
        for (size_t at = 0; at + 4 <= sh.sh_size;) {
            const int format = p[at], attribute = p[at + 1];
            uint16_t size = 0;
            if (format != 4) {  // fixed 4-byte records carry no payload we need
                at += 4;
                continue;
            }
            std::memcpy(&size, p + at + 2, 2);
            if (attribute == 0x2f && size == 8) {
                uint32_t index = 0, registers = 0;
                std::memcpy(&index, p + at + 4, 4);
                std::memcpy(&registers, p + at + 8, 4);
                if (static_cast<long>(index) == symbol) return static_cast<int>(registers);
            }
            at += 4 + size;
        }
    }
    return -1;
}

void flip_byte(const std::string& path, size_t offset) {
    std::string bytes = fj::test::read_file(path);
    REQUIRE(offset < bytes.size());
    bytes[offset] = static_cast<char>(bytes[offset] ^ 0x5a);
    fj::test::write_file(path, bytes);
}

}  // namespace

TEST_CASE("kernel cache: a miss compiles, then memory and a new cache object hit") {
    if (!have_nvrtc()) return;
    const std::string dir = fj::test::scratch_dir("kernel-cache");
    fj::KernelCache cache(dir);
    CHECK(cache.disk_enabled());

    const fj::CompiledKernel first = cache.get(request());
    CHECK_FALSE(first.cache_hit);
    CHECK(first.key.size() == 32);
    REQUIRE(first.cubin.size() > 4);
    CHECK(std::memcmp(first.cubin.data(), ELFMAG, SELFMAG) == 0);
    CHECK(fj::test::file_exists(cache.file_path(first.key)));
    CHECK(cache.disk_usage().files == 1);
    CHECK(cache.disk_usage().bytes > first.cubin.size());

    const fj::CompiledKernel again = cache.get(request());
    CHECK(again.cache_hit);
    CHECK(again.cubin == first.cubin);

    fj::KernelCache other(dir);  // what a second process sees
    const fj::CompiledKernel from_disk = other.get(request());
    CHECK(from_disk.cache_hit);
    CHECK(from_disk.cubin == first.cubin);
    CHECK(from_disk.log == first.log);
    CHECK(from_disk.registers == first.registers);
    CHECK(from_disk.compile_ms == first.compile_ms);
}

TEST_CASE("kernel cache: the register count matches the one recorded in the CUBIN") {
    if (!have_nvrtc()) return;
    fj::KernelCache cache(fj::test::scratch_dir("kernel-cache-regs"));
    const fj::CompiledKernel kernel = cache.get(request());
    CHECK(kernel.registers > 0);
    CHECK(kernel.registers == cubin_register_count(kernel.cubin, "fj_iterate"));
    CHECK(kernel.spill_stores == 0);
    CHECK(kernel.spill_loads == 0);
    CHECK(kernel.log.find("fj_iterate") != std::string::npos);
}

TEST_CASE("kernel cache: ptxas report parsing picks the named entry") {
    const std::string log =
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : Compiling entry function 'fj_seed' for 'sm_90'\n"
        "ptxas info    : Function properties for fj_seed\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 12 registers, used 0 barriers, 372 bytes cmem[0]\n"
        "ptxas info    : Compiling entry function 'fj_iterate' for 'sm_90'\n"
        "ptxas info    : Function properties for fj_iterate\n"
        "    48 bytes stack frame, 40 bytes spill stores, 36 bytes spill loads\n"
        "ptxas info    : Used 255 registers, used 1 barriers, 400 bytes cmem[0]\n";
    const fj::PtxasReport iterate = fj::parse_ptxas_report(log, "fj_iterate");
    CHECK(iterate.registers == 255);
    CHECK(iterate.spill_stores == 40);
    CHECK(iterate.spill_loads == 36);
    const fj::PtxasReport seed = fj::parse_ptxas_report(log, "fj_seed");
    CHECK(seed.registers == 12);
    CHECK(seed.spill_stores == 0);
    CHECK(fj::parse_ptxas_report(log, "absent").registers == -1);
}

TEST_CASE("kernel cache: keys separate source, arch and entry") {
    if (!have_nvrtc()) return;
    fj::KernelCache cache(fj::test::scratch_dir("kernel-cache-keys"));
    const std::string base = cache.key_for(request());
    CHECK(base == cache.key_for(request()));
    CHECK(base != cache.key_for(request(std::string(kSource) + " ")));
    CHECK(base != cache.key_for(request(kSource, "sm_80")));
    fj::CompileRequest other_entry = request();
    other_entry.entry = "fj_seed";
    CHECK(base != cache.key_for(other_entry));
}

TEST_CASE("kernel cache: damaged files are detected, deleted and rebuilt") {
    if (!have_nvrtc()) return;
    const std::string dir = fj::test::scratch_dir("kernel-cache-damage");
    std::string path, good;
    {
        fj::KernelCache cache(dir);
        const fj::CompiledKernel kernel = cache.get(request());
        path = cache.file_path(kernel.key);
        good = fj::test::read_file(path);
    }
    REQUIRE(good.size() > 200);

    struct Damage {
        const char* what;
        std::function<void()> apply;
    };
    const std::vector<Damage> damages = {
        {"payload byte flipped", [&] { flip_byte(path, good.size() - 100); }},
        {"header byte flipped", [&] { flip_byte(path, 20); }},
        {"truncated", [&] { fj::test::write_file(path, good.substr(0, good.size() / 2)); }},
        {"shorter than a header", [&] { fj::test::write_file(path, good.substr(0, 10)); }},
        {"empty", [&] { fj::test::write_file(path, ""); }},
    };
    for (const Damage& damage : damages) {
        CAPTURE(damage.what);
        fj::test::write_file(path, good);
        damage.apply();
        fj::KernelCache cache(dir);
        const fj::CompiledKernel rebuilt = cache.get(request());
        CHECK_FALSE(rebuilt.cache_hit);
        CHECK(rebuilt.registers > 0);
        // The rebuilt file is whole again and a later reader trusts it.
        CHECK(fj::test::read_file(path).size() == good.size());
        fj::KernelCache later(dir);
        CHECK(later.get(request()).cache_hit);
    }
}

TEST_CASE("kernel cache: concurrent requests for one key all succeed") {
    if (!have_nvrtc()) return;
    const std::string dir = fj::test::scratch_dir("kernel-cache-threads");
    fj::KernelCache shared(dir);
    fj::KernelCache separate(dir);  // as if another process used the same folder
    std::vector<fj::CompiledKernel> results(4);
    std::vector<std::string> errors(4);
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i) {
        threads.emplace_back([&, i] {
            try {
                results[i] = (i < 3 ? shared : separate).get(request());
            } catch (const std::exception& e) {
                errors[i] = e.what();
            }
        });
    }
    for (std::thread& t : threads) t.join();
    int compiled_in_shared = 0;
    for (int i = 0; i < 4; ++i) {
        CAPTURE(i);
        CHECK(errors[i] == "");
        CHECK(results[i].cubin == results[0].cubin);
        if (i < 3 && !results[i].cache_hit) ++compiled_in_shared;
    }
    CHECK(compiled_in_shared <= 1);  // one compile per key per cache object
    CHECK(fj::KernelCache(dir).get(request()).cache_hit);
    // No temporary files are left behind.
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        CHECK_MESSAGE(entry.path().extension() != ".tmp", entry.path().string());
}

TEST_CASE("kernel cache: a failed compile keeps the source and the log") {
    if (!have_nvrtc()) return;
    const std::string dir = fj::test::scratch_dir("kernel-cache-failed");
    fj::KernelCache cache(dir);
    const std::string broken = "extern \"C\" __global__ void fj_iterate() { undeclared_name = 1; }\n";
    bool thrown = false;
    try {
        cache.get(request(broken));
    } catch (const fj::KernelCompileError& e) {
        thrown = true;
        const std::string message = e.what();
        CHECK(message.find("undeclared_name") != std::string::npos);
        CHECK(message.find(e.source_path()) != std::string::npos);
        CHECK(message.find(e.log_path()) != std::string::npos);
        CHECK(e.source_path().rfind(cache.failed_directory(), 0) == 0);
        CHECK(fj::test::read_file(e.source_path()) == broken);
        CHECK(fj::test::read_file(e.log_path()).find("undeclared_name") != std::string::npos);
    }
    CHECK(thrown);
    CHECK(cache.disk_usage().files == 0);
}

TEST_CASE("kernel cache: an unusable folder degrades to memory only") {
    if (!have_nvrtc()) return;
    const std::string dir = fj::test::scratch_dir("kernel-cache-blocked");
    const std::string blocker = dir + "/not-a-folder";
    fj::test::write_file(blocker, "x");
    fj::KernelCache cache(blocker + "/cache");
    CHECK_FALSE(cache.disk_enabled());
    const fj::CompiledKernel first = cache.get(request());
    CHECK_FALSE(first.cache_hit);
    CHECK(cache.get(request()).cache_hit);
    CHECK(cache.disk_usage().files == 0);
}

TEST_CASE("kernel cache: the default folder follows the environment") {
    const char* saved = std::getenv("FLAMEJIT_CACHE_DIR");
    const std::string saved_value = saved ? saved : "";
    setenv("FLAMEJIT_CACHE_DIR", "/var/tmp/fj-cache-test", 1);
    CHECK(fj::KernelCache::default_directory() == "/var/tmp/fj-cache-test");
    unsetenv("FLAMEJIT_CACHE_DIR");
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg && *xdg) CHECK(fj::KernelCache::default_directory() == std::string(xdg) + "/flamejit");
    else CHECK(fj::KernelCache::default_directory().find("/.cache/flamejit") != std::string::npos);
    if (saved) setenv("FLAMEJIT_CACHE_DIR", saved_value.c_str(), 1);
}

TEST_CASE("kernel cache: a stitched iteration kernel compiles with its register report") {
    if (!have_nvrtc()) return;
    fj::Flame flame;
    fj::Xform xf;
    xf.weight = 1;
    xf.variations.push_back({0, 0.5, {}});  // linear
    xf.variations.push_back({2, 0.5, {}});  // spherical
    flame.xforms.push_back(xf);
    flame.xforms.push_back(xf);
    const fj::VariationRegistry& registry = fj::VariationRegistry::standard();
    const fj::KernelKey key = fj::make_kernel_key(flame, fj::KernelOptions{});
    fj::CompileRequest r = request(fj::stitch_kernel(key, fj::make_param_layout(key, registry), registry,
                                                     fj::SnippetSource::standard()),
                                   key.arch);
    r.entry = fj::kIterateKernelName;
    fj::KernelCache cache(fj::test::scratch_dir("kernel-cache-stitched"));
    const fj::CompiledKernel kernel = cache.get(r);
    CHECK(kernel.registers > 0);
    CHECK(kernel.registers == cubin_register_count(kernel.cubin, fj::kIterateKernelName));
    CHECK(cubin_register_count(kernel.cubin, "fj_seed") > 0);  // both entry points exist
    MESSAGE("stitched kernel: " << kernel.registers << " registers, spills " << kernel.spill_stores << "/"
                                << kernel.spill_loads << " bytes, " << kernel.compile_ms << " ms");
}

TEST_CASE("kernel cache: the count channel's kernels compile for every accumulation mode") {
    if (!have_nvrtc()) return;
    fj::Flame flame;
    fj::Xform xf;
    xf.weight = 1;
    xf.variations.push_back({0, 1.0, {}});  // linear
    flame.xforms.push_back(xf);
    const fj::VariationRegistry& registry = fj::VariationRegistry::standard();
    for (fj::Accumulation mode : {fj::Accumulation::Atomic, fj::Accumulation::Scalar, fj::Accumulation::Warp,
                                  fj::Accumulation::None}) {
        CAPTURE(fj::to_string(mode));
        fj::KernelOptions options;
        options.accumulation = mode;
        fj::KernelKey key = fj::make_kernel_key(flame, options);
        key.density_count = true;
        const std::string source = fj::stitch_kernel(key, fj::make_param_layout(key, registry), registry,
                                                     fj::SnippetSource::standard());
        CHECK(source.find("#define FJ_DENSITY_COUNT 1") != std::string::npos);
        fj::CompileRequest r = request(source, key.arch);
        r.entry = fj::kIterateKernelName;
        fj::KernelCache cache(fj::test::scratch_dir("kernel-cache-count"));
        const fj::CompiledKernel kernel = cache.get(r);
        CHECK(kernel.registers > 0);
    }
}
