// flamejit — the kernel cache: content keys, checked files, safe publication.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cuda/kernel_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include <cuda.h>

#include "content_hash.h"
#include "cuda/nvrtc_api.h"

namespace fj {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'F', 'J', 'C', 'U', 'B', 'I', 'N', '\0'};

// Host byte order: a cache folder is not shared between architectures of
// different endianness, and the magic would reject it if it were.
struct FileHeader {
    char magic[8];
    uint32_t format;
    uint32_t header_size;
    char key[32];  // hex, no terminator
    uint64_t cubin_size;
    uint64_t log_size;
    double compile_ms;
    int32_t registers, spill_stores, spill_loads;
    uint32_t reserved;
    uint64_t checksum_hi, checksum_lo;  // over the header (these zeroed) and payload
};
static_assert(sizeof(FileHeader) == 104, "FileHeader must have no padding");

void file_checksum(FileHeader header, const char* payload, size_t size, uint64_t* hi,
                   uint64_t* lo) {
    header.checksum_hi = header.checksum_lo = 0;
    Fnv128 hash;
    hash.add("flamejit cache checksum", 23);  // a different stream from the key's
    hash.add(&header, sizeof header);
    hash.add(payload, size);
    *hi = hash.hi();
    *lo = hash.lo();
}

bool permission_error(int error) {
    return error == EACCES || error == EPERM || error == EROFS;
}

struct CacheFile {
    fs::path path;
    uintmax_t bytes;
    fs::file_time_type used;  // last written or hit
};

// The files of `dir` with `extension` (all files when empty).
std::vector<CacheFile> list_files(const std::string& dir, const std::string& extension) {
    std::vector<CacheFile> files;
    if (dir.empty()) return files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (!extension.empty() && it->path().extension() != extension) continue;
        // A file removed while we look fails one of these: skip it.
        std::error_code size_ec, time_ec, type_ec;
        if (!it->is_regular_file(type_ec)) continue;
        const uintmax_t size = it->file_size(size_ec);
        const fs::file_time_type used = it->last_write_time(time_ec);
        if (size_ec || time_ec) continue;
        files.push_back({it->path(), size, used});
    }
    return files;
}

KernelCacheUsage usage_of(const std::vector<CacheFile>& files) {
    KernelCacheUsage usage;
    for (const CacheFile& f : files) {
        ++usage.files;
        usage.bytes += f.bytes;
    }
    return usage;
}

// Deletes `files` (a file another process deleted first counts as its).
KernelCacheUsage remove_files(const std::vector<CacheFile>& files) {
    KernelCacheUsage removed;
    for (const CacheFile& f : files) {
        std::error_code ec;
        if (!fs::remove(f.path, ec) || ec) continue;
        ++removed.files;
        removed.bytes += f.bytes;
    }
    return removed;
}

}  // namespace

uint64_t kernel_cache_max_bytes_from_env() {
    const char* text = std::getenv("FLAMEJIT_CACHE_MAX_MB");
    if (!text || !*text) return kKernelCacheDefaultMaxBytes;
    uint64_t mib = 0;
    const char* end = text + std::strlen(text);
    const auto [stop, error] = std::from_chars(text, end, mib);
    if (error != std::errc() || stop != end || mib > (uint64_t{1} << 40)) {
        static std::atomic<bool> warned{false};
        if (!warned.exchange(true))
            std::fprintf(stderr,
                         "flamejit: warning: FLAMEJIT_CACHE_MAX_MB=\"%s\" is not a whole number of MiB; "
                         "the kernel cache keeps its default bound of %llu MiB\n",
                         text, static_cast<unsigned long long>(kKernelCacheDefaultMaxBytes >> 20));
        return kKernelCacheDefaultMaxBytes;
    }
    return mib << 20;
}

KernelCache::KernelCache(std::string directory, uint64_t max_bytes)
    : directory_(directory.empty() ? default_directory() : std::move(directory)), max_bytes_(max_bytes) {
    if (directory_.empty()) {
        disk_enabled_ = false;  // no HOME: nothing to warn about, memory is enough
        return;
    }
    std::error_code ec;
    fs::create_directories(directory_, ec);
    if (ec || !fs::is_directory(directory_, ec)) {
        warn_once("cannot use " + directory_ + " (" + (ec ? ec.message() : "not a folder") + ")");
        disk_enabled_ = false;
    }
}

std::string KernelCache::default_directory() {
    const char* dir = std::getenv("FLAMEJIT_CACHE_DIR");
    if (dir && *dir) return dir;
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg && *xdg) return std::string(xdg) + "/flamejit";
    const char* home = std::getenv("HOME");
    if (home && *home) return std::string(home) + "/.cache/flamejit";
    return "";
}

std::string KernelCache::failed_directory() const {
    // Without a cache folder the kept files still need a home the user can find.
    if (directory_.empty()) return (fs::temp_directory_path() / "flamejit-failed").string();
    return directory_ + "/failed";
}

std::string KernelCache::file_path(const std::string& key) const {
    return directory_ + "/" + key + ".fjk";
}

void KernelCache::warn_once(const std::string& what) {
    if (warned_.exchange(true)) return;
    std::fprintf(stderr, "flamejit: warning: kernel cache: %s -- going on without it\n",
                 what.c_str());
}

std::string KernelCache::key_for(const CompileRequest& request) const {
    Fnv128 hash;
    const uint32_t format = kKernelCacheFormat;
    hash.add(&format, sizeof format);
    hash.add_field(request.source);
    // The compiler's identity is the toolkit this binary was built against
    // (NVRTC is loaded by that soname) and any NVRTC path override, not the
    // loaded library's version: asking it would load NVRTC, ~30 ms of static
    // initialisation, on every process that only hits the cache. A newer
    // minor NVRTC under the same soname reuses older, equally valid CUBINs.
    hash.add_field(std::to_string(CUDA_VERSION));
    const char* nvrtc_override = std::getenv("FLAMEJIT_NVRTC_PATH");
    hash.add_field(nvrtc_override ? nvrtc_override : "");
    for (const std::string& option : nvrtc_options(request.arch)) hash.add_field(option);
    hash.add_field(request.arch);
    // The entry only selects which report is parsed, but the parsed numbers
    // are stored in the file, so it belongs in the key.
    hash.add_field(request.entry);
    // A linked kernel's parts, their options (register bound included) and
    // the linker; nothing for a kernel of one program, whose keys stay as
    // they were.
    if (!request.parts.empty()) {
        for (const std::string& part : request.parts) hash.add_field(part);
        for (const std::string& option : program_options(request, 1)) hash.add_field(option);
        const char* linker_override = std::getenv("FLAMEJIT_NVJITLINK_PATH");
        hash.add_field(linker_override ? linker_override : "");
    }
    return hex128(hash.hi(), hash.lo());
}

CompiledKernel KernelCache::get(const CompileRequest& request) {
    const std::string key = key_for(request);
    std::promise<CompiledKernel> promise;
    std::unique_lock<std::mutex> lock(mutex_);
    auto found = memory_.find(key);
    if (found != memory_.end()) {
        std::shared_future<CompiledKernel> pending = found->second;
        // Wait outside the lock: another thread may still be compiling this key.
        lock.unlock();
        CompiledKernel kernel = pending.get();
        kernel.cache_hit = true;
        kernel.linked.reset();  // the first request's compile, not this one's
        return kernel;
    }
    memory_.emplace(key, promise.get_future().share());
    lock.unlock();
    try {
        CompiledKernel kernel;
        if (!load_from_disk(key, &kernel)) {
            kernel = compile_kernel(request, key, failed_directory());
            ++compiles_;
            store_to_disk(kernel);
        }
        promise.set_value(kernel);
        return kernel;
    } catch (...) {
        promise.set_exception(std::current_exception());
        lock.lock();
        memory_.erase(key);  // a later call may try again (the source may be fixed)
        throw;
    }
}

std::optional<CompiledKernel> KernelCache::find(const CompileRequest& request) {
    const std::string key = key_for(request);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (auto found = memory_.find(key); found != memory_.end()) {
            if (found->second.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return std::nullopt;
            try {
                CompiledKernel kernel = found->second.get();
                kernel.cache_hit = true;
                kernel.linked.reset();
                return kernel;
            } catch (...) {
                return std::nullopt;  // a failed compile, about to be forgotten
            }
        }
    }
    // Read outside the lock, and published only if no `get` began meanwhile
    // (its entry then stands: it reads the same file or compiles the same key).
    CompiledKernel kernel;
    if (!load_from_disk(key, &kernel)) return std::nullopt;
    std::promise<CompiledKernel> held;
    held.set_value(kernel);
    std::lock_guard<std::mutex> lock(mutex_);
    memory_.emplace(key, held.get_future().share());
    return kernel;
}

bool KernelCache::load_from_disk(const std::string& key, CompiledKernel* out) {
    if (!disk_enabled_) return false;
    const std::string path = file_path(key);
    std::error_code ec;
    const uintmax_t size = fs::file_size(path, ec);
    if (ec) return false;  // absent, or unreadable: a miss either way

    std::string bytes(size, '\0');
    {
        std::ifstream in(path, std::ios::binary);
        if (!in) return false;
        in.read(bytes.data(), static_cast<std::streamsize>(size));
        if (static_cast<uintmax_t>(in.gcount()) != size) return false;  // read error, not content
    }
    auto reject = [&]() {
        std::error_code ignored;
        fs::remove(path, ignored);
        return false;
    };
    if (size < sizeof(FileHeader)) return reject();
    FileHeader header;
    std::memcpy(&header, bytes.data(), sizeof header);
    if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0 || header.format != kKernelCacheFormat ||
        header.header_size != sizeof(FileHeader) || key.size() != sizeof header.key ||
        std::memcmp(header.key, key.data(), sizeof header.key) != 0)
        return reject();
    const uint64_t payload = size - sizeof header;
    if (header.cubin_size > payload || header.log_size != payload - header.cubin_size)
        return reject();
    uint64_t hi = 0, lo = 0;
    file_checksum(header, bytes.data() + sizeof header, payload, &hi, &lo);
    if (hi != header.checksum_hi || lo != header.checksum_lo || header.cubin_size == 0)
        return reject();

    out->key = key;
    out->cubin = bytes.substr(sizeof header, header.cubin_size);
    out->log = bytes.substr(sizeof header + header.cubin_size);
    out->compile_ms = header.compile_ms;
    out->registers = header.registers;
    out->spill_stores = header.spill_stores;
    out->spill_loads = header.spill_loads;
    out->cache_hit = true;
    // Used now: pruning goes by modification time. A read-only folder keeps
    // the old time, which costs nothing but an earlier eviction.
    ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
    return true;
}

void KernelCache::store_to_disk(const CompiledKernel& kernel) {
    if (!disk_enabled_ || !writable_) return;
    FileHeader header{};
    std::memcpy(header.magic, kMagic, sizeof kMagic);
    header.format = kKernelCacheFormat;
    header.header_size = sizeof header;
    std::memcpy(header.key, kernel.key.data(), std::min(kernel.key.size(), sizeof header.key));
    header.cubin_size = kernel.cubin.size();
    header.log_size = kernel.log.size();
    header.compile_ms = kernel.compile_ms;
    header.registers = kernel.registers;
    header.spill_stores = kernel.spill_stores;
    header.spill_loads = kernel.spill_loads;
    const std::string payload = kernel.cubin + kernel.log;
    file_checksum(header, payload.data(), payload.size(), &header.checksum_hi, &header.checksum_lo);

    const std::string path = file_path(kernel.key);
    // Unique per process and per call: two threads of one process share a pid.
    const std::string temp = path + "." + std::to_string(::getpid()) + "." +
                             std::to_string(temp_counter_.fetch_add(1)) + ".tmp";
    bool written = false;
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) {
            if (permission_error(errno)) {
                writable_ = false;
                warn_once("cannot write in " + directory_ + " (" + std::strerror(errno) +
                          "); reading only");
            }
            return;
        }
        out.write(reinterpret_cast<const char*>(&header), sizeof header);
        out.write(payload.data(), static_cast<std::streamsize>(payload.size()));
        out.close();  // only after close does good() cover the flush
        written = static_cast<bool>(out);
    }
    if (written) {
        // A hard link publishes atomically and never replaces: if another
        // process got there first its file is as good as ours.
        if (::link(temp.c_str(), path.c_str()) != 0 && errno != EEXIST) {
            std::error_code ec;
            fs::rename(temp, path, ec);  // file systems without hard links
        }
    }
    std::error_code ignored;
    fs::remove(temp, ignored);
    if (written && max_bytes_ > 0 && disk_usage().bytes > max_bytes_) prune(max_bytes_ / 10 * 9);
}

KernelCacheUsage KernelCache::disk_usage() const { return usage_of(list_files(directory_, ".fjk")); }

KernelCacheUsage KernelCache::failed_usage() const {
    return directory_.empty() ? KernelCacheUsage{} : usage_of(list_files(failed_directory(), ""));
}

KernelCacheUsage KernelCache::prune(uint64_t max_bytes) {
    std::vector<CacheFile> files = list_files(directory_, ".fjk");
    uint64_t total = usage_of(files).bytes;
    // Oldest use first; equal times in name order, so runs agree.
    std::sort(files.begin(), files.end(), [](const CacheFile& a, const CacheFile& b) {
        return a.used != b.used ? a.used < b.used : a.path < b.path;
    });
    std::vector<CacheFile> doomed;
    for (const CacheFile& f : files) {
        if (total <= max_bytes) break;
        doomed.push_back(f);
        total -= f.bytes;
    }
    return remove_files(doomed);
}

KernelCacheUsage KernelCache::clear() {
    if (!directory_.empty()) remove_files(list_files(failed_directory(), ""));
    remove_files(list_files(directory_, ".tmp"));  // left by processes that died while writing
    return remove_files(list_files(directory_, ".fjk"));
}

}  // namespace fj
