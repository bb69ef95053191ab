// flamejit — compiled kernels, kept in memory and on disk.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A kernel is addressed by content: the key is a 128-bit hash of the source,
// the CUDA toolkit version flamejit was built against (and any NVRTC path
// override), the option list, the arch and the cache file format, so a
// changed toolkit or option never reuses a stale binary and nothing needs to
// be invalidated by hand. Forming a key never loads NVRTC: a process whose
// kernels are all cached never pays NVRTC's start-up.
//
// Disk protocol (one file per kernel, `<key>.fjk`): a header (magic, format
// version, key, sizes, the ptxas numbers, a checksum over header and payload)
// then the CUBIN and the NVRTC log. Files are written under a name unique to
// the process and thread, then hard-linked into place, so concurrent processes
// never see a partial file and the first writer wins. A file that fails any
// check is deleted and rebuilt; a file that cannot be read is a miss and is
// left alone (an I/O error says nothing about its content).
//
// Cache trouble never throws: an unusable folder gives one warning on stderr
// and the cache goes on in memory only. Compile errors do throw (compiler.h).
//
// Folder: FLAMEJIT_CACHE_DIR, else $XDG_CACHE_HOME/flamejit, else
// ~/.cache/flamejit. Failed compiles are kept in its `failed/` sub-folder.
//
// Size: bounded, least recently used first out. A disk hit refreshes its
// file's modification time, and storing a kernel that takes the folder past
// the bound (FLAMEJIT_CACHE_MAX_MB, default 1024; 0 for none) prunes it to 90 %
// of it, so that the next few stores do not prune again. Pruning races
// nothing: a file deleted while another process reads it stays readable to
// that process, and one deleted before it is opened is a miss.
#pragma once

#include <atomic>
#include <cstdint>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "cuda/compiler.h"

namespace fj {

// Bumped whenever the file layout or the meaning of a key changes.
inline constexpr uint32_t kKernelCacheFormat = 2;

inline constexpr uint64_t kKernelCacheDefaultMaxBytes = uint64_t{1024} << 20;

struct KernelCacheUsage {
    uint64_t files = 0;
    uint64_t bytes = 0;
};

// The size bound from FLAMEJIT_CACHE_MAX_MB (0: unbounded), else the
// default; a value that is not a whole number of MiB gets a warning and the
// default (cache trouble never throws).
uint64_t kernel_cache_max_bytes_from_env();

class KernelCache {
public:
    // `directory` empty: the default folder (above). `max_bytes`: the size
    // bound (0: none).
    explicit KernelCache(std::string directory = "", uint64_t max_bytes = kernel_cache_max_bytes_from_env());
    KernelCache(const KernelCache&) = delete;
    KernelCache& operator=(const KernelCache&) = delete;

    // The kernel for `request`: from memory, from disk, or compiled (and then
    // stored). Safe to call from several threads; one key is compiled once
    // per process even when asked for concurrently.
    CompiledKernel get(const CompileRequest& request);

    // The kernel for `request` if memory or disk holds it, without compiling
    // and without waiting for a compile of it in progress; a disk hit is
    // then held in memory, so a `get` that follows reads nothing again.
    std::optional<CompiledKernel> find(const CompileRequest& request);

    // The key `get` would use; throws std::runtime_error if NVRTC is unusable.
    std::string key_for(const CompileRequest& request) const;

    const std::string& directory() const { return directory_; }
    std::string failed_directory() const;
    bool disk_enabled() const { return disk_enabled_.load(); }
    // Kernel files now in the folder (not the failed/ ones).
    KernelCacheUsage disk_usage() const;
    // Failed compiles kept in failed/ (a .cu and a .log each; files counted).
    KernelCacheUsage failed_usage() const;
    // Deletes kernel files, least recently used first, until the folder
    // holds at most `max_bytes` of them; returns what it deleted.
    KernelCacheUsage prune(uint64_t max_bytes);
    // Deletes every kernel file and every kept failed compile; returns the
    // kernel files deleted.
    KernelCacheUsage clear();
    uint64_t max_bytes() const { return max_bytes_; }
    // Kernels this cache compiled, finding them neither in memory nor on disk.
    uint64_t compiles() const { return compiles_; }
    // The path of one key's file.
    std::string file_path(const std::string& key) const;

    static std::string default_directory();

private:
    bool load_from_disk(const std::string& key, CompiledKernel* out);
    void store_to_disk(const CompiledKernel& kernel);
    void warn_once(const std::string& what);

    std::string directory_;
    uint64_t max_bytes_ = 0;
    std::atomic<bool> disk_enabled_{true};  // reads and writes
    std::atomic<bool> writable_{true};      // cleared by a permission error: reads go on
    std::atomic<bool> warned_{false};
    std::atomic<uint64_t> temp_counter_{0};
    std::atomic<uint64_t> compiles_{0};
    std::mutex mutex_;
    std::map<std::string, std::shared_future<CompiledKernel>> memory_;
};

}  // namespace fj
