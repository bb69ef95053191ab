#!/usr/bin/env bash
# flamejit — packs an existing build into one relocatable folder, for machines
# (cluster nodes, GPU boxes) that lack the build's packages and network access.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tools/bundle.sh [--build DIR] [--with-nvrtc] [--no-corpus] [--archive FILE] OUT_DIR
#   --build DIR    the build to pack (default: build/ in the project, or $FJ_BUILD_DIR)
#   --with-nvrtc   also carry the toolkit's NVRTC and nvJitLink (about 210 MB), for a GPU
#                  machine that has the NVIDIA driver but no CUDA toolkit
#   --no-corpus    leave out the artist genome corpus (the tests that read it fail)
#   --archive FILE also write the bundle as one xz-compressed tar, FILE (outside
#                  OUT_DIR), for a machine that takes one file of limited size: the
#                  programs share most of their code, which xz finds within its 64 MiB
#                  window, so a 220 MB bundle packs into about 28 MB (gzip: 85).
#                  Unpack it with `tar xJf FILE` (where xz is missing, Python's
#                  tarfile reads it); it holds the folder OUT_DIR's name
#
# OUT_DIR afterwards holds:
#   bin/     flamejit, the helper programs (kernel_report, ...), every test
#            executable, and flam3's flam3-render/-genome/-animate (the oracles
#            the tests call)
#   lib/     every shared library those need, except glibc's (libc, libm,
#            libdl, libpthread, librt, the loader, ...: they must match the
#            target's loader) and the NVIDIA driver's (libcuda, libnvidia-*:
#            they must match the target's kernel module)
#   share/   flam3's data (palette library, test genome), the corpus, and the
#            project's genomes/ and benchmarks/genomes/
#   env.sh   to source: PATH, LD_LIBRARY_PATH, flam3_palettes and the test
#            path variables (FJ_SOURCE_DIR, ...; see tests/test_support.h)
#   run_tests.sh, tools/gpu_bench.sh, tools/slurm_animate.sh, MANIFEST
# The target needs a glibc at least as new as the build's (MANIFEST names it)
# and, for the CUDA backend, the NVIDIA driver and NVRTC (from a CUDA toolkit
# there, or carried with --with-nvrtc). Running it again replaces OUT_DIR
# whole; a folder that is not a bundle is never replaced.
set -euo pipefail
shopt -s nullglob

fj_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${FJ_BUILD_DIR:-$fj_root/build}
with_nvrtc=0 corpus=1 out="" archive=""
die() { echo "bundle.sh: $*" >&2; exit 1; }
usage() { echo "usage: tools/bundle.sh [--build DIR] [--with-nvrtc] [--no-corpus] [--archive FILE] OUT_DIR" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
    case $1 in
        --build) [[ $# -ge 2 ]] || usage; build=$2; shift 2 ;;
        --with-nvrtc) with_nvrtc=1; shift ;;
        --no-corpus) corpus=0; shift ;;
        --archive) [[ $# -ge 2 ]] || usage; archive=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; /SPDX/d; s/^# \{0,1\}//'; exit 0 ;;
        -*) usage ;;
        *) [[ -z $out ]] || usage; out=$1; shift ;;
    esac
done
[[ -n $out ]] || usage

[[ -x $build/flamejit && -f $build/CMakeCache.txt ]] \
    || die "no build at $build (flamejit or CMakeCache.txt missing): build first (tools/quickstart.sh, or cmake --build build)"
build=$(cd "$build" && pwd)
command -v ldd >/dev/null || die "ldd not found: it lists the libraries to carry"

cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt" | head -1; }

# Refuse to replace anything but an earlier bundle (or an empty folder).
marker="flamejit bundle"
if [[ -e $out ]]; then
    [[ -d $out ]] || die "$out exists and is not a folder"
    if [[ -n $(ls -A "$out") && "$(head -1 "$out/MANIFEST" 2>/dev/null)" != "$marker" ]]; then
        die "$out exists and is not a flamejit bundle (no MANIFEST): not replacing it"
    fi
fi
mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
if [[ -n $archive ]]; then
    command -v xz >/dev/null || die "xz not found (Debian xz-utils): --archive compresses with it"
    [[ -d $(dirname "$archive") ]] || die "--archive: folder $(dirname "$archive") does not exist"
    archive="$(cd "$(dirname "$archive")" && pwd)/$(basename "$archive")"
    [[ ! -d $archive ]] || die "--archive: $archive is a folder"
    [[ $archive/ != "$out"/* ]] || die "--archive: $archive lies inside $out, which the bundle replaces"
fi
# Assembled beside OUT_DIR and moved into place at the end, so an interrupted
# run leaves the previous bundle (or nothing), never half of one.
stage=$(mktemp -d "$(dirname "$out")/.flamejit-bundle.XXXXXX")
trap 'rm -rf "$stage"' EXIT
chmod 755 "$stage"
mkdir -p "$stage/bin" "$stage/lib" "$stage/share/flamejit" "$stage/share/flam3" "$stage/tools"

is_elf() { [[ -f $1 && -x $1 ]] && [[ $(head -c 4 "$1" | od -An -tx1 | tr -d ' \n') == 7f454c46 ]]; }

# --- programs ----------------------------------------------------------------------
# flamejit and the helper programs sit at the top of the build, the test
# executables in tests/.
for f in "$build"/* "$build"/tests/*_test; do
    is_elf "$f" && cp "$f" "$stage/bin/"
done
[[ -n $(ls "$stage/bin"/*_test 2>/dev/null) ]] \
    || echo "bundle.sh: warning: no test executables in $build/tests (built with FLAMEJIT_TESTS=OFF?)" >&2
# The stand-in CUDA driver that cuda_host_test loads, and the stand-in NVRTC
# with the emulator's headers that emulated_kernels_test adds (env.sh names
# them; the emulated kernels also need a host compiler on the target).
for f in libfj_stand_in_driver.so libfj_stand_in_nvrtc.so; do
    if [[ -f $build/tests/$f ]]; then cp "$build/tests/$f" "$stage/lib/"; fi
done
mkdir -p "$stage/share/flamejit/emulator"
cp "$fj_root"/tests/emulator/*.h "$stage/share/flamejit/emulator/"
for tool in flam3-render flam3-genome flam3-animate; do
    path=$(command -v "$tool") || die "$tool not found (Debian flam3-utils): the tests call it, so the bundle carries it"
    cp -L "$path" "$stage/bin/$tool"
done

# --- NVRTC ---------------------------------------------------------------------------
# flamejit dlopens NVRTC by soname first, so a copy in lib/ (on
# LD_LIBRARY_PATH) is found; NVRTC itself dlopens its builtins library the
# same way. nvJitLink (linked kernels, --kernel linked) comes with it. Not
# carried by default: NVRTC alone is about 110 MB, nvJitLink about 100.
if [[ $with_nvrtc == 1 ]]; then
    nvrtc_lib=$(cache_value CUDA_nvrtc_LIBRARY)
    cuda_lib=$(dirname "${nvrtc_lib:-.}")
    [[ -f $nvrtc_lib ]] || die "NVRTC not found (CUDA_nvrtc_LIBRARY in $build/CMakeCache.txt: '$nvrtc_lib')"
    found=0
    for lib in "$cuda_lib"/libnvrtc.so.[0-9]* "$cuda_lib"/libnvrtc-builtins.so.[0-9]* \
        "$cuda_lib"/libnvJitLink.so.[0-9]*; do
        [[ -f $lib ]] || continue
        cp -L "$lib" "$stage/lib/"
        found=1
    done
    [[ $found == 1 ]] || die "no libnvrtc.so.* in $cuda_lib"
fi

# --- libraries -----------------------------------------------------------------------
# ldd lists each binary's whole closure (what the loader would map), so one
# pass over the binaries (and the carried NVRTC) finds every library. One ldd
# for all of them: it is a script, slow to start once per file. Given several
# files it heads each one's list with "FILE:", and exits 1 when one of them
# is not dynamically linked (none of ours is static; missing libraries show
# as "not found" below).
excluded='^(ld-linux.*|libc|libm|libmvec|libdl|libpthread|librt|libresolv|libutil|libanl|libnsl|libBrokenLocale|libthread_db|libc_malloc_debug|libnss_[[:alnum:]]+|libcuda|libnvidia-[^.]+)\.so'
declare -A carried=()
listing=$(ldd "$stage"/bin/* "$stage"/lib/* 2>&1) || true
file=""
while IFS= read -r line; do
    if [[ $line != [[:space:]]* ]]; then file=${line%:} file=${file##*/}; continue; fi
    read -r name arrow path _ <<<"$line"
    [[ $arrow == "=>" ]] || continue
    [[ $name =~ $excluded ]] && continue
    [[ $path == not ]] && die "$file needs $name, which is not found on this machine"
    [[ -n ${carried[$name]:-} || -e $stage/lib/$name ]] && continue
    cp -L "$path" "$stage/lib/$name"
    carried[$name]=$path
done <<<"$listing"
[[ ${#carried[@]} -gt 0 ]] || die "ldd listed no libraries: $listing"

# --- data ------------------------------------------------------------------------------
# flam3's palette library (flam3-render and flamejit's library palettes) and
# test genome, where flam3 installs them.
flam3_data=/usr/share/flam3
[[ -f $flam3_data/flam3-palettes.xml ]] || die "$flam3_data/flam3-palettes.xml not found (Debian flam3-utils)"
cp "$flam3_data"/* "$stage/share/flam3/"
cp -R "$fj_root/genomes" "$stage/share/flamejit/"
mkdir -p "$stage/share/flamejit/benchmarks"
cp -R "$fj_root/benchmarks/genomes" "$stage/share/flamejit/benchmarks/"
if [[ $corpus == 1 ]]; then
    corpus_dir=$(cache_value FLAMEJIT_CORPUS_DIR)
    [[ -n $corpus_dir ]] || corpus_dir=$fj_root/../shared/corpus
    [[ -d $corpus_dir ]] || die "corpus folder $corpus_dir not found (FLAMEJIT_CORPUS_DIR); pass --no-corpus to bundle without it"
    cp -R "$corpus_dir/." "$stage/share/corpus/"
fi

# --- scripts ---------------------------------------------------------------------------
cp "$fj_root/tools/run_tests.sh" "$stage/run_tests.sh"
cp "$fj_root/tools/gpu_bench.sh" "$fj_root/tools/slurm_animate.sh" "$stage/tools/"
cat >"$stage/env.sh" <<'EOF'
# flamejit bundle — source this file (bash or zsh): the bundle's programs and
# libraries come first, and the tests read their inputs from the bundle.
# SPDX-License-Identifier: GPL-3.0-or-later
FJ_BUNDLE=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)
export FJ_BUNDLE
case ":${PATH:-}:" in *":$FJ_BUNDLE/bin:"*) ;; *) export PATH="$FJ_BUNDLE/bin${PATH:+:$PATH}" ;; esac
case ":${LD_LIBRARY_PATH:-}:" in
    *":$FJ_BUNDLE/lib:"*) ;;
    *) export LD_LIBRARY_PATH="$FJ_BUNDLE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ;;
esac
# flam3 (the carried flam3-render) reads its palettes only from
# $flam3_palettes or its install folder, which the target may lack.
export flam3_palettes="${flam3_palettes:-$FJ_BUNDLE/share/flam3/flam3-palettes.xml}"
# Where the test executables find their inputs (tests/test_support.h).
export FJ_SOURCE_DIR="$FJ_BUNDLE/share/flamejit"
export FJ_BINARY_DIR="$FJ_BUNDLE/bin"
export FJ_FLAMEJIT="$FJ_BUNDLE/bin/flamejit"
export FJ_FLAM3_DATA_DIR="$FJ_BUNDLE/share/flam3"
export FJ_STAND_IN_DRIVER="$FJ_BUNDLE/lib/libfj_stand_in_driver.so"
export FJ_STAND_IN_NVRTC="$FJ_BUNDLE/lib/libfj_stand_in_nvrtc.so"
export FJ_EMULATOR_INCLUDE="$FJ_BUNDLE/share/flamejit/emulator"
# Also without a carried corpus (--no-corpus): the tests that read it then
# say it is absent, rather than reading the build machine's path.
export FJ_CORPUS_DIR="$FJ_BUNDLE/share/corpus"
# Test scratch files go to a writable place, not into the bundle (which may
# sit on a read-only or shared file system).
export FJ_SCRATCH_DIR="${FJ_SCRATCH_DIR:-${TMPDIR:-/tmp}/flamejit-test-scratch-$(id -u)}"
EOF
chmod 755 "$stage/run_tests.sh" "$stage/tools/"*.sh

# --- manifest --------------------------------------------------------------------------
# The newest glibc symbol version any carried file asks for: the target's
# glibc must be at least that.
glibc=$(grep -aoh 'GLIBC_2\.[0-9][0-9.]*[0-9]' "$stage"/bin/* "$stage"/lib/* | sort -uV | tail -1)
commit=$(git -C "$fj_root" describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
{
    echo "$marker"
    echo "commit: $commit"
    echo "made: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m)"
    echo "needs: glibc >= ${glibc#GLIBC_}; NVIDIA driver for the CUDA backend"
    if [[ $with_nvrtc == 1 ]]; then echo "nvrtc: carried"; else echo "nvrtc: not carried (from the target's CUDA toolkit)"; fi
    echo "libraries:"
    for name in $(printf '%s\n' "${!carried[@]}" | sort); do echo "  $name (${carried[$name]})"; done
} >"$stage/MANIFEST"

rm -rf "$out"
mv "$stage" "$out"
trap - EXIT
echo "Bundle: $out ($(du -sh "$out" | cut -f1); $(ls "$out/bin" | wc -l) programs, $(ls "$out/lib" | wc -l) libraries; needs glibc >= ${glibc#GLIBC_})"
if [[ -n $archive ]]; then
    # Written beside FILE and renamed: an interrupted run leaves no half archive.
    part=$(mktemp "$archive.XXXXXX")
    trap 'rm -f "$part"' EXIT
    tar cf - -C "$(dirname "$out")" "$(basename "$out")" | xz --lzma2=preset=1,dict=64MiB >"$part" ||
        die "writing the archive $archive failed"
    chmod 644 "$part"
    mv -f "$part" "$archive"
    trap - EXIT
    echo "Archive: $archive ($(du -h "$archive" | cut -f1))"
fi
echo "On the target: source $out/env.sh; flamejit render ...; $out/run_tests.sh [--gpu]"
