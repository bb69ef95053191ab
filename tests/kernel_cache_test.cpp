// flamejit — tests of the NVRTC compiler and the kernel cache (no GPU needed).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <doctest/doctest.h>

#include <elf.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "codegen/kernel_key.h"
#include "codegen/param_layout.h"
#include "codegen/stitcher.h"
#include "codegen/variation_registry.h"
#include "genome/flam3_reader.h"
#include "cuda/compiler.h"
#include "cuda/cubin_code.h"
#include "cuda/kernel_cache.h"
#include "cuda/kernel_modules.h"
#include "cuda/nvrtc_api.h"
#include "test_support.h"

using fj::test::ScopedEnv;

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
    if (!fj::test::nvrtc_present()) return;
    const std::string dir = fj::test::scratch_dir("kernel-cache");
    fj::KernelCache cache(dir);
    CHECK(cache.disk_enabled());

    const fj::CompiledKernel first = cache.get(request());
    CHECK_FALSE(first.cache_hit);
    CHECK(cache.compiles() == 1);
    CHECK(first.key.size() == 32);
    REQUIRE(first.cubin.size() > 4);
    CHECK(std::memcmp(first.cubin.data(), ELFMAG, SELFMAG) == 0);
    CHECK(fj::test::file_exists(cache.file_path(first.key)));
    CHECK(cache.disk_usage().files == 1);
    CHECK(cache.disk_usage().bytes > first.cubin.size());

    const fj::CompiledKernel again = cache.get(request());
    CHECK(again.cache_hit);
    CHECK(again.cubin == first.cubin);
    CHECK(cache.compiles() == 1);

    fj::KernelCache other(dir);  // what a second process sees
    const fj::CompiledKernel from_disk = other.get(request());
    CHECK(from_disk.cache_hit);
    CHECK(other.compiles() == 0);
    CHECK(from_disk.cubin == first.cubin);
    CHECK(from_disk.log == first.log);
    CHECK(from_disk.registers == first.registers);
    CHECK(from_disk.compile_ms == first.compile_ms);
}

TEST_CASE("kernel cache: find returns what memory or disk holds and never compiles") {
    if (!fj::test::nvrtc_present()) return;
    const std::string dir = fj::test::scratch_dir("kernel-cache-find");
    fj::KernelCache cache(dir);
    CHECK_FALSE(cache.find(request()).has_value());
    CHECK(cache.disk_usage().files == 0);  // the miss compiled nothing
    const fj::CompiledKernel compiled = cache.get(request());
    CHECK_FALSE(compiled.cache_hit);  // the miss left nothing in memory either

    const std::optional<fj::CompiledKernel> in_memory = cache.find(request());
    REQUIRE(in_memory.has_value());
    CHECK(in_memory->cache_hit);
    CHECK(in_memory->cubin == compiled.cubin);

    fj::KernelCache other(dir);  // another process
    const std::optional<fj::CompiledKernel> on_disk = other.find(request());
    REQUIRE(on_disk.has_value());
    CHECK(on_disk->cubin == compiled.cubin);
    CHECK(on_disk->registers == compiled.registers);
    // Held in memory now: the file's loss does not turn get into a compile.
    std::filesystem::remove(other.file_path(compiled.key));
    CHECK(other.get(request()).cache_hit);
    CHECK_FALSE(other.find(request("// another source\n" + std::string(kSource))).has_value());
}

TEST_CASE("kernel cache: the register count matches the one recorded in the CUBIN") {
    if (!fj::test::nvrtc_present()) return;
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

TEST_CASE("kernel cache: the spills of what the entries call are added, the entries' own not twice") {
    // ptxas prints an entry's callees after its own lines (a callee's name
    // mangled); one is put before it here too.
    const std::string log =
        "ptxas info    : Function properties for _Z15fj_xform_call_0PKffffy\n"
        "    0 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
        "ptxas info    : Compiling entry function 'fj_iterate' for 'sm_90'\n"
        "ptxas info    : Function properties for fj_iterate\n"
        "    48 bytes stack frame, 40 bytes spill stores, 36 bytes spill loads\n"
        "ptxas info    : Used 32 registers, used 1 barriers, 400 bytes cmem[0]\n"
        "ptxas info    : Compile time = 121.650 ms\n"
        "ptxas info    : Function properties for _Z15fj_xform_call_1PKffffy\n"
        "    16 bytes stack frame, 12 bytes spill stores, 12 bytes spill loads\n"
        "ptxas info    : Compiling entry function 'fj_seed' for 'sm_90'\n"
        "ptxas info    : Function properties for fj_seed\n"
        "    0 bytes stack frame, 100 bytes spill stores, 100 bytes spill loads\n";
    fj::PtxasReport report = fj::parse_ptxas_report(log, "fj_iterate");
    CHECK(report.registers == 32);
    CHECK(report.spill_stores == 40);  // its own, not a callee's printed after it
    fj::add_function_spills(log, &report);
    CHECK(report.spill_stores == 40 + 8 + 12);
    CHECK(report.spill_loads == 36 + 4 + 12);
}

TEST_CASE("kernel cache: keys separate source, arch and entry") {
    if (!fj::test::nvrtc_present()) return;
    fj::KernelCache cache(fj::test::scratch_dir("kernel-cache-keys"));
    const std::string base = cache.key_for(request());
    CHECK(base == cache.key_for(request()));
    CHECK(base != cache.key_for(request(std::string(kSource) + " ")));
    CHECK(base != cache.key_for(request(kSource, "sm_80")));
    fj::CompileRequest other_entry = request();
    other_entry.entry = "fj_seed";
    CHECK(base != cache.key_for(other_entry));
}

TEST_CASE("kernel cache: options from FLAMEJIT_NVRTC_OPTIONS reach NVRTC and the key") {
    if (!fj::test::nvrtc_present()) return;
    fj::KernelCache cache(fj::test::scratch_dir("kernel-cache-extra"));
    const std::string plain = cache.key_for(request());
    const std::vector<std::string> plain_options = fj::nvrtc_options("sm_90");
    std::vector<std::string> options;
    std::string extra, message;
    fj::CompiledKernel k;
    {
        const ScopedEnv extra_options("FLAMEJIT_NVRTC_OPTIONS", " -Xptxas=-O1   -lineinfo ");
        options = fj::nvrtc_options("sm_90");
        extra = cache.key_for(request());
        k = cache.get(request());
        const ScopedEnv bad_option("FLAMEJIT_NVRTC_OPTIONS", "-no-such-option");
        try {
            cache.get(request(std::string(kSource) + "\n"));
        } catch (const std::runtime_error& e) {
            message = e.what();
        }
    }
    REQUIRE(options.size() == plain_options.size() + 2);
    CHECK(options[options.size() - 2] == "-Xptxas=-O1");
    CHECK(options.back() == "-lineinfo");
    CHECK(extra != plain);
    CHECK(k.key == extra);
    CHECK(k.registers > 0);
    CHECK(message.find("-no-such-option") != std::string::npos);
    CHECK(fj::nvrtc_options("sm_90") == plain_options);
}

TEST_CASE("kernel cache: damaged files are detected, deleted and rebuilt") {
    if (!fj::test::nvrtc_present()) return;
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
    if (!fj::test::nvrtc_present()) return;
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
    if (!fj::test::nvrtc_present()) return;
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
    if (!fj::test::nvrtc_present()) return;
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
    if (!fj::test::nvrtc_present()) return;
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

TEST_CASE("kernel cache: a linked kernel's programs compile and link into one CUBIN, cached under a key of its own (sm_80, sm_90)") {
    if (!fj::test::nvrtc_present()) return;
    const fj::VariationRegistry& registry = fj::VariationRegistry::standard();
    fj::Flame flame;
    for (const char* name : {"julian", "spherical", "bipolar"}) {
        fj::Xform xf;
        xf.weight = 1;
        const fj::VariationInfo* info = registry.by_name(name);
        REQUIRE(info);
        xf.variations.push_back({info->id, 0.5, {}});
        for (const auto& param : info->params) xf.variations.back().params.push_back(param.default_value);
        flame.xforms.push_back(xf);
    }
    flame.has_final = true;
    flame.final_xform = flame.xforms[1];
    fj::KernelOptions options;
    options.form = fj::KernelForm::Linked;
    const std::string dir = fj::test::scratch_dir("kernel-cache-linked");
    for (const std::string arch : {"sm_80", "sm_90"}) {
        CAPTURE(arch);
        options.arch = arch;
        const fj::KernelKey key = fj::make_kernel_key(flame, options);
        const fj::ParamLayout layout = fj::make_param_layout(key, registry);
        const fj::CompileRequest r = fj::kernel_request(key, layout);
        REQUIRE(r.parts.size() == 5);  // three xforms, the final one and the seeding kernel
        fj::KernelCache cache(dir);
        const fj::CompiledKernel kernel = cache.get(r);
        CHECK_FALSE(kernel.cache_hit);
        // Both entry points (fj_seed from its own program); fj_iterate's
        // registers are the linked module's (the most of it and what it
        // calls), within its bound.
        CHECK(cubin_register_count(kernel.cubin, "fj_seed") > 0);
        CHECK(kernel.registers == cubin_register_count(kernel.cubin, fj::kIterateKernelName));
        CHECK(kernel.registers <= 32);
        CHECK(kernel.registers >= fj::parse_ptxas_report(kernel.log, fj::kIterateKernelName).registers);
        CHECK(kernel.log.find("// ==== program 6 of 6") != std::string::npos);
        // How the compile went: six programs, the slowest within all of
        // them and within the whole compile, which holds the link.
        REQUIRE(kernel.linked);
        CHECK(kernel.linked->programs == 6);
        CHECK(kernel.linked->slowest_ms > 0);
        CHECK(kernel.linked->slowest_ms <= kernel.linked->all_ms);
        CHECK(kernel.linked->slowest_ms + kernel.linked->link_ms <= kernel.compile_ms);
        CHECK(kernel.linked->linker_load_ms >= 0);
        // Each program's span lies within the compile, on one of its threads.
        REQUIRE(kernel.linked->spans.size() == 6);
        CHECK(kernel.linked->threads >= 1);
        for (const fj::ProgramSpan& span : kernel.linked->spans) {
            CHECK(span.start_ms >= 0);
            CHECK(span.end_ms >= span.start_ms);
            CHECK(span.end_ms <= kernel.compile_ms);
            CHECK(span.thread >= 0);
            CHECK(span.thread < kernel.linked->threads);
        }
        // A kernel of its own: not the specialized kernel's key, nor one
        // whose parts take another register bound.
        fj::KernelKey specialized = key;
        specialized.form = fj::KernelForm::Specialized;
        CHECK(cache.key_for(fj::kernel_request(specialized, layout)) != kernel.key);
        fj::CompileRequest bound = r;
        bound.part_registers = 40;
        CHECK(cache.key_for(bound) != kernel.key);
        // The threads that compile it are not part of what it is.
        fj::CompileRequest one_thread = r;
        one_thread.program_threads = 1;
        CHECK(cache.key_for(one_thread) == kernel.key);
        if (arch == "sm_90") {
            // On one thread the programs run one after another, in order.
            fj::KernelCache fresh(fj::test::scratch_dir("kernel-cache-linked-one-thread"));
            const fj::CompiledKernel serial = fresh.get(one_thread);
            REQUIRE(serial.linked);
            CHECK(serial.linked->threads == 1);
            CHECK(serial.cubin == kernel.cubin);
            CHECK(serial.linked->spans.size() == 6);
            for (size_t i = 1; i < serial.linked->spans.size(); ++i)
                CHECK(serial.linked->spans[i].start_ms >= serial.linked->spans[i - 1].end_ms);
        }
        // Under a looser bound (--linked-registers 64) it links too, the
        // entry within that bound, and its calls save no more than under 32.
        fj::KernelOptions wide = options;
        wide.linked_registers = 64;
        const fj::KernelKey wide_key = fj::make_kernel_key(flame, wide);
        const fj::CompiledKernel wide_kernel = cache.get(fj::kernel_request(wide_key, layout));
        CHECK(wide_kernel.key != kernel.key);
        CHECK(wide_kernel.registers > 0);
        CHECK(wide_kernel.registers <= 64);
        CHECK(wide_kernel.spill_stores <= kernel.spill_stores);
        MESSAGE(arch << ": under 64 registers " << wide_kernel.registers << " registers, spills "
                     << wide_kernel.spill_stores << " bytes (under 32: " << kernel.spill_stores << ")");
        // A new cache object finds it on disk.
        fj::KernelCache again(dir);
        const fj::CompiledKernel found = again.get(r);
        CHECK(found.cache_hit);
        CHECK(found.cubin == kernel.cubin);
        CHECK_FALSE(found.linked);  // times of a compile that was not this one's
        CHECK_FALSE(cache.get(r).linked);  // nor from memory
        MESSAGE(arch << ": linked kernel of 6 programs, " << kernel.registers << " registers, spills "
                     << kernel.spill_stores << "/" << kernel.spill_loads << " bytes, " << kernel.compile_ms << " ms");
    }
}

TEST_CASE("kernel cache: a linked kernel that does not compile, or does not link, keeps its programs and log") {
    if (!fj::test::nvrtc_present()) return;
    const std::string dir = fj::test::scratch_dir("kernel-cache-linked-failed");
    fj::KernelCache cache(dir);
    const std::string caller = "extern \"C\" __device__ float fj_part(float v);\n"
                               "extern \"C\" __global__ void fj_iterate(float* data) { data[0] = fj_part(data[1]); }\n";
    const std::string callee = "extern \"C\" __device__ float fj_part(float v) { return v * 2.0f; }\n";
    fj::CompileRequest r = request(caller);
    r.parts = {callee};
    r.part_registers = 32;
    const fj::CompiledKernel good = cache.get(r);
    CHECK(cubin_register_count(good.cubin, "fj_iterate") > 0);

    const auto failure = [&](const fj::CompileRequest& bad) {
        try {
            cache.get(bad);
        } catch (const fj::KernelCompileError& e) {
            CHECK(fj::test::read_file(e.source_path()).find(caller) != std::string::npos);
            CHECK_FALSE(fj::test::read_file(e.log_path()).empty());
            return std::string(e.what());
        }
        FAIL("no KernelCompileError");
        return std::string();
    };
    fj::CompileRequest broken = r;
    broken.parts = {callee, "extern \"C\" __device__ float other(float v) { return undeclared_name; }\n"};
    const std::string compile_error = failure(broken);
    CHECK(compile_error.find("program 3 of") != std::string::npos);
    CHECK(compile_error.find("undeclared_name") != std::string::npos);
    fj::CompileRequest unlinked = r;
    unlinked.parts = {"extern \"C\" __device__ float unrelated(float v) { return v; }\n"};
    const std::string link_error = failure(unlinked);
    CHECK(link_error.find("nvJitLink could not link") != std::string::npos);
    CHECK(link_error.find("fj_part") != std::string::npos);
}

TEST_CASE("kernel cache: the count channel's kernels compile for every accumulation mode") {
    if (!fj::test::nvrtc_present()) return;
    fj::Flame flame;
    fj::Xform xf;
    xf.weight = 1;
    xf.variations.push_back({0, 1.0, {}});  // linear
    flame.xforms.push_back(xf);
    const fj::VariationRegistry& registry = fj::VariationRegistry::standard();
    for (fj::Accumulation mode : {fj::Accumulation::Atomic, fj::Accumulation::Scalar, fj::Accumulation::Warp,
                                  fj::Accumulation::Shared, fj::Accumulation::Packed, fj::Accumulation::None}) {
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

namespace {

// The generated kernel of one flame of a genome file of the project.
std::string stitched_kernel(const std::string& genome, const std::string& arch) {
    const std::vector<fj::Flame> flames = fj::read_flam3_file(std::string(FJ_SOURCE_DIR) + "/" + genome);
    REQUIRE_FALSE(flames.empty());
    const fj::VariationRegistry& registry = fj::VariationRegistry::standard();
    const fj::KernelKey key = fj::make_kernel_key(flames[0], {fj::Shuffle::Ring, 256, arch});
    return fj::stitch_kernel(key, fj::make_param_layout(key, registry), registry, fj::SnippetSource::standard());
}

}  // namespace

TEST_CASE("compiler: the compile-time-only options leave the generated code as it was") {
    if (!fj::test::nvrtc_present()) return;
    // The genomes cover the code switches: plain, xaos, final xform with post affines.
    struct Case {
        const char* genome;
        const char* arch;
    };
    const Case cases[] = {{"genomes/default.flam3", "sm_90"},
                          {"genomes/default.flam3", "sm_80"},
                          {"benchmarks/genomes/xaos.flam3", "sm_90"},
                          {"benchmarks/genomes/final-post.flam3", "sm_90"}};
    for (const Case& c : cases) {
        CAPTURE(c.genome);
        CAPTURE(c.arch);
        const std::string source = stitched_kernel(c.genome, c.arch);
        const fj::NvrtcRun with = fj::run_nvrtc(source, "with.cu", fj::nvrtc_options(c.arch));
        const fj::NvrtcRun without = fj::run_nvrtc(source, "without.cu", fj::nvrtc_code_options(c.arch));
        REQUIRE(with.compiled);
        REQUIRE(without.compiled);
        CHECK(fj::cubin_code_digest(with.cubin) != "");
        CHECK(fj::cubin_code_digest(with.cubin) == fj::cubin_code_digest(without.cubin));
        const fj::PtxasReport a = fj::parse_ptxas_report(with.log, fj::kIterateKernelName);
        const fj::PtxasReport b = fj::parse_ptxas_report(without.log, fj::kIterateKernelName);
        CHECK(a.registers > 0);
        CHECK(a.registers == b.registers);
        CHECK(a.spill_stores == b.spill_stores);
        CHECK(a.spill_loads == b.spill_loads);
    }
    // What flamejit compiles with is the code options followed by these.
    std::vector<std::string> expected = fj::nvrtc_code_options("sm_90");
    const std::vector<std::string> compile_time = fj::nvrtc_compile_time_options();
    for (const std::string& o : compile_time) expected.push_back(o);
    CHECK(fj::nvrtc_options("sm_90") == expected);
    // NVRTC's own cache (12.9 and later) is off: flamejit's kernel cache keeps the kernels.
    const bool no_cache = std::find(compile_time.begin(), compile_time.end(), "-no-cache") != compile_time.end();
    CHECK(no_cache == (fj::nvrtc_version_number() >= 1209));
}

TEST_CASE("compiler: the code digest tells code changes from everything else") {
    if (!fj::test::nvrtc_present()) return;
    const std::vector<std::string> options = fj::nvrtc_options("sm_90");
    const fj::NvrtcRun a = fj::run_nvrtc(kSource, "a.cu", options);
    const fj::NvrtcRun b = fj::run_nvrtc(kSource, "b.cu", options);
    REQUIRE(a.compiled);
    REQUIRE(b.compiled);
    const std::string digest = fj::cubin_code_digest(a.cubin);
    CHECK(digest.size() == 16);
    CHECK(digest == fj::cubin_code_digest(b.cubin));  // the same compile twice, another file name

    // Options that change the machine code change the digest.
    std::vector<std::string> no_fma = options;
    no_fma.push_back("-fmad=false");
    std::vector<std::string> no_opt = options;
    no_opt.push_back("--ptxas-options=-O0");
    CHECK(fj::cubin_code_digest(fj::run_nvrtc(kSource, "c.cu", no_fma).cubin) != digest);
    CHECK(fj::cubin_code_digest(fj::run_nvrtc(kSource, "d.cu", no_opt).cubin) != digest);

    // Another kernel in the module changes the module's digest, not fj_iterate's.
    const std::string more = std::string(kSource) +
                             "extern \"C\" __global__ void other(float* d) { d[threadIdx.x] = sqrtf(d[0]); }\n";
    const fj::NvrtcRun c = fj::run_nvrtc(more, "e.cu", options);
    REQUIRE(c.compiled);
    CHECK(fj::cubin_code_digest(c.cubin) != digest);
    CHECK(fj::cubin_code_digest(c.cubin, "fj_iterate") == fj::cubin_code_digest(a.cubin, "fj_iterate"));
    CHECK(fj::cubin_code_digest(c.cubin, "other") != fj::cubin_code_digest(c.cubin, "fj_iterate"));

    // Not a CUBIN: no digest rather than a made-up one.
    CHECK(fj::cubin_code_digest("") == "");
    CHECK(fj::cubin_code_digest(std::string(200, 'x')) == "");
    CHECK(fj::cubin_code_digest(a.cubin.substr(0, 80)) == "");
}

TEST_CASE("compiler: a CUBIN's register records give each function's registers as ptxas reports them") {
    if (!fj::test::nvrtc_present()) return;
    const std::string more = std::string(kSource) +
                             "extern \"C\" __global__ void other(float* d) { d[threadIdx.x] = sqrtf(d[0]); }\n";
    const fj::NvrtcRun run = fj::run_nvrtc(more, "r.cu", fj::nvrtc_options("sm_90"));
    REQUIRE(run.compiled);
    for (const char* function : {"fj_iterate", "other"}) {
        CAPTURE(function);
        const int reported = fj::parse_ptxas_report(run.log, function).registers;
        CHECK(reported > 0);
        CHECK(fj::cubin_registers(run.cubin, function) == reported);
    }
    CHECK(fj::cubin_registers(run.cubin, "absent") == -1);
    CHECK(fj::cubin_registers("", "fj_iterate") == -1);
    CHECK(fj::cubin_registers(std::string(200, 'x'), "fj_iterate") == -1);
    CHECK(fj::cubin_registers(run.cubin.substr(0, 80), "fj_iterate") == -1);
}

TEST_CASE("compiler: run_nvrtc takes headers, and names an option NVRTC refuses") {
    if (!fj::test::nvrtc_present()) return;
    const std::string body = "#include \"scale.h\"\n"
                             "extern \"C\" __global__ void fj_iterate(float* d) { d[threadIdx.x] *= kScale; }\n";
    const fj::NvrtcRun run =
        fj::run_nvrtc(body, "body.cu", fj::nvrtc_options("sm_90"), {{"scale.h", "constexpr float kScale = 3.0f;\n"}});
    CHECK(run.compiled);
    CHECK(run.cubin.size() > 0);
    CHECK(run.compile_ms > 0);
    // Without the header the source is what is wrong: a log, no exception.
    const fj::NvrtcRun missing = fj::run_nvrtc(body, "body.cu", fj::nvrtc_options("sm_90"));
    CHECK_FALSE(missing.compiled);
    CHECK(missing.log.find("scale.h") != std::string::npos);
    // An option NVRTC does not know is not the source's fault: it throws, naming it.
    std::vector<std::string> bad = fj::nvrtc_options("sm_90");
    bad.push_back("-no-such-option");
    std::string message;
    try {
        fj::run_nvrtc(kSource, "bad.cu", bad);
    } catch (const std::runtime_error& e) {
        message = e.what();
    }
    CHECK(message.find("-no-such-option") != std::string::npos);
}

namespace {

// A kernel file of `bytes` bytes whose last use was `age` ago.
void old_file(const std::string& path, size_t bytes, std::chrono::hours age) {
    fj::test::write_file(path, std::string(bytes, 'k'));
    std::filesystem::last_write_time(path, std::filesystem::file_time_type::clock::now() - age);
}

}  // namespace

TEST_CASE("kernel cache: pruning deletes the least recently used kernels first, and clear deletes all") {
    const std::string dir = fj::test::scratch_dir("kernel-cache-prune");
    fj::KernelCache cache(dir, 0);
    // Four kernels of 1000 bytes, used 4, 3, 2 and 1 hours ago.
    for (int i = 0; i < 4; ++i) old_file(dir + "/k" + std::to_string(i) + ".fjk", 1000, std::chrono::hours(4 - i));
    fj::test::write_file(dir + "/k9.fjk.123.0.tmp", "partial");
    std::filesystem::create_directories(cache.failed_directory());
    fj::test::write_file(cache.failed_directory() + "/k8.cu", "source");
    fj::test::write_file(cache.failed_directory() + "/k8.log", "log");
    CHECK(cache.disk_usage().bytes == 4000);
    CHECK(cache.failed_usage().files == 2);

    const fj::KernelCacheUsage removed = cache.prune(2500);
    CHECK(removed.files == 2);
    CHECK(removed.bytes == 2000);
    CHECK_FALSE(fj::test::file_exists(dir + "/k0.fjk"));
    CHECK_FALSE(fj::test::file_exists(dir + "/k1.fjk"));
    CHECK(fj::test::file_exists(dir + "/k2.fjk"));
    CHECK(fj::test::file_exists(dir + "/k3.fjk"));
    CHECK(cache.prune(2000).files == 0);  // already within the bound
    CHECK(fj::test::file_exists(dir + "/k9.fjk.123.0.tmp"));  // pruning leaves what is not a kernel
    CHECK(cache.failed_usage().files == 2);

    const fj::KernelCacheUsage cleared = cache.clear();
    CHECK(cleared.files == 2);
    CHECK(cleared.bytes == 2000);
    CHECK(cache.disk_usage().files == 0);
    CHECK(cache.failed_usage().files == 0);
    CHECK_FALSE(fj::test::file_exists(dir + "/k9.fjk.123.0.tmp"));
}

TEST_CASE("kernel cache: a hit counts as a use, and a store keeps the folder within its bound") {
    if (!fj::test::nvrtc_present()) return;
    const std::string dir = fj::test::scratch_dir("kernel-cache-bound");
    std::string path;
    uint64_t kernel_bytes = 0;
    {
        fj::KernelCache cache(dir, 0);
        path = cache.file_path(cache.get(request()).key);
        kernel_bytes = cache.disk_usage().bytes;
    }
    REQUIRE(kernel_bytes > 0);
    // A day-old kernel read from disk is used again now.
    const auto day_ago = std::filesystem::file_time_type::clock::now() - std::chrono::hours(24);
    std::filesystem::last_write_time(path, day_ago);
    CHECK(fj::KernelCache(dir, 0).get(request()).cache_hit);
    CHECK(std::filesystem::last_write_time(path) > day_ago + std::chrono::hours(23));

    // Old kernels fill the folder past a bound of three kernels' size; storing
    // a new one prunes to 90 % of it, oldest first, and keeps the new one.
    const uint64_t bound = 3 * kernel_bytes;
    for (int i = 0; i < 4; ++i)
        old_file(dir + "/old" + std::to_string(i) + ".fjk", kernel_bytes, std::chrono::hours(10 - i));
    fj::KernelCache bounded(dir, bound);
    const fj::CompiledKernel other = bounded.get(request(std::string(kSource) + "// another structure\n"));
    CHECK_FALSE(other.cache_hit);
    CHECK(fj::test::file_exists(bounded.file_path(other.key)));
    CHECK(bounded.disk_usage().bytes <= bound / 10 * 9);
    CHECK_FALSE(fj::test::file_exists(dir + "/old0.fjk"));
    CHECK(fj::test::file_exists(path));  // used an instant ago
}

TEST_CASE("kernel cache: FLAMEJIT_CACHE_MAX_MB sets the bound, 0 removes it, nonsense keeps the default") {
    struct Case {
        const char* value;
        uint64_t bytes;
    };
    const Case cases[] = {{"", fj::kKernelCacheDefaultMaxBytes},
                          {"64", uint64_t{64} << 20},
                          {"0", 0},
                          {"lots", fj::kKernelCacheDefaultMaxBytes},
                          {"-5", fj::kKernelCacheDefaultMaxBytes},
                          {"12M", fj::kKernelCacheDefaultMaxBytes}};
    for (const Case& c : cases) {
        CAPTURE(c.value);
        setenv("FLAMEJIT_CACHE_MAX_MB", c.value, 1);
        CHECK(fj::kernel_cache_max_bytes_from_env() == c.bytes);
    }
    unsetenv("FLAMEJIT_CACHE_MAX_MB");
    CHECK(fj::kernel_cache_max_bytes_from_env() == fj::kKernelCacheDefaultMaxBytes);
}
