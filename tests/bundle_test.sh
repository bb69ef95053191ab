#!/usr/bin/env bash
# flamejit — the relocatable bundle (tools/bundle.sh) works away from the build.
# Made from this build into a temporary folder outside the project, every
# carried binary must find each library it needs in the bundle's lib/ (all
# but glibc's and the NVIDIA driver's, which the target provides), and
# flamejit and a test executable must run from it with a scrubbed
# environment, in another folder, without naming the project or build tree.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tests/bundle_test.sh BUILD_DIR   (ctest runs it as bundle_test)
set -euo pipefail
build=$(cd "${1:?usage: bundle_test.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/flamejit-bundle-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "bundle_test: FAIL: $*" >&2; exit 1; }
b=$work/bundle

# A missing build is a clear error, not a half-made bundle.
if out=$("$src/tools/bundle.sh" --build "$work/no-build" "$work/x" 2>&1); then fail "bundled a missing build"; fi
[[ $out == *"no build at"* ]] || fail "missing build: unexpected message: $out"
[[ ! -e $work/x ]] || fail "missing build left $work/x behind"

# Made twice into the same folder: the second run replaces the first.
corpus=(); grep -q '^FLAMEJIT_CORPUS_DIR:' "$build/CMakeCache.txt" \
    && [[ -d $(sed -n 's/^FLAMEJIT_CORPUS_DIR:[A-Z]*=//p' "$build/CMakeCache.txt") ]] || corpus=(--no-corpus)
# The second also as one archive.
for run in 1 2; do
    archive=(); [[ $run == 1 ]] || archive=(--archive "$work/bundle.tar.xz")
    "$src/tools/bundle.sh" --build "$build" ${corpus[@]+"${corpus[@]}"} ${archive[@]+"${archive[@]}"} "$b" \
        >"$work/bundle-$run.log" 2>&1 || fail "tools/bundle.sh (run $run): $(cat "$work/bundle-$run.log")"
done
grep -q '^Bundle: ' "$work/bundle-2.log" || fail "no size line: $(cat "$work/bundle-2.log")"
grep -q '^Archive: ' "$work/bundle-2.log" || fail "no archive line: $(cat "$work/bundle-2.log")"
# The archive unpacks to the bundle, file for file, and is far smaller.
mkdir "$work/unpacked"
tar xJf "$work/bundle.tar.xz" -C "$work/unpacked" || fail "the archive does not unpack"
diff -r "$b" "$work/unpacked/bundle" >/dev/null || fail "the unpacked archive differs from the bundle"
[[ $(($(stat -c %s "$work/bundle.tar.xz") * 4)) -lt $(du -sb "$b" | cut -f1) ]] ||
    fail "the archive is more than a quarter of the bundle's size"
[[ -z $(find "$work" -maxdepth 1 -name 'bundle.tar.xz.*') ]] || fail "the archive's temporary file was left"
rm -rf "$work/unpacked" "$work/bundle.tar.xz"
if "$src/tools/bundle.sh" --build "$build" --archive "$b/inside.tar.xz" "$b" >/dev/null 2>&1; then
    fail "wrote an archive inside the folder it replaces"
fi
touch "$work/mine"
if "$src/tools/bundle.sh" --build "$build" "$work" >/dev/null 2>&1; then fail "replaced a folder that is not a bundle"; fi
[[ -e $work/mine ]] || fail "a refused bundle run removed files"

for f in flamejit flam3-render flam3-genome flam3-animate genome_test gpu_backend_test; do
    [[ -x $b/bin/$f ]] || fail "bin/$f missing"
done
for f in env.sh run_tests.sh tools/gpu_bench.sh lib/libfj_stand_in_driver.so lib/libfj_stand_in_nvrtc.so \
         share/flamejit/emulator/cuda_emulator.h share/flam3/flam3-palettes.xml \
         share/flamejit/genomes/default.flam3 share/flamejit/benchmarks/genomes/xaos.flam3; do
    [[ -e $b/$f ]] || fail "$f missing"
done

# Every library of every carried binary resolves inside lib/, or is one the
# target must provide.
excluded='^(ld-linux.*|libc|libm|libmvec|libdl|libpthread|librt|libresolv|libutil|libanl|libnsl|libBrokenLocale|libthread_db|libc_malloc_debug|libnss_[[:alnum:]]+|libcuda|libnvidia-[^.]+)\.so'
checked=0 file=""
listing=$(env -i LD_LIBRARY_PATH="$b/lib" ldd "$b"/bin/* "$b"/lib/* 2>&1) || fail "ldd: $listing"
while IFS= read -r line; do
    if [[ $line != [[:space:]]* ]]; then file=${line%:} file=${file##*/}; continue; fi
    read -r name arrow path _ <<<"$line"
    [[ $arrow == "=>" ]] || continue
    checked=$((checked + 1))
    [[ $path != not ]] || fail "$file: $name not found"
    [[ $name =~ $excluded || $path == "$b/lib/"* ]] || fail "$file: $name resolves outside the bundle ($path)"
done <<<"$listing"
[[ $checked -gt 0 ]] || fail "ldd listed no libraries at all"
# What is excluded must not be carried either (it would shadow the target's).
for f in "$b"/lib/*; do
    [[ ! $(basename "$f") =~ $excluded ]] || fail "lib/ carries $(basename "$f"), which must come from the target"
done

# From elsewhere, with nothing of this machine's environment. Where a private
# mount namespace can be made (as root, or through a user namespace), the
# project and build trees and flam3's data folder are hidden as well, as on
# a target that has none of them.
mkdir -p "$work/elsewhere" "$work/home" "$work/empty"
cat >"$work/run.sh" <<'EOF'
set -euo pipefail
b=$1 hidden=$2
if [[ $hidden == yes ]]; then
    for d in "${@:3}"; do [[ ! -e $d || -z $(ls -A "$d") ]] || { echo "$d is not hidden"; exit 1; }; done
fi
source "$b/env.sh"
source "$b/env.sh"   # twice, as a login script may: PATH grows once
[[ $(tr ":" "\n" <<<"$PATH" | grep -c "^$b/bin\$") == 1 ]] || { echo "PATH: $PATH"; exit 1; }
[[ $(command -v flamejit) == "$b/bin/flamejit" && $(command -v flam3-render) == "$b/bin/flam3-render" ]]
env | grep -E "^(FJ_|flam3_|LD_LIBRARY_PATH|PATH)" >env.txt
flamejit --help >/dev/null
flamejit render "$FJ_SOURCE_DIR/genomes/default.flam3" --backend cpu --quality 2 --threads 2 --seed 1 -o default.png
# A library palette with $flam3_palettes unset: from flam3's install folder,
# or where that is hidden, the bundle's copy.
printf '%s\n' '<flame size="64 48" scale="20" palette="5" quality="5">' \
    '<xform weight="1" color="0" linear="1" coefs="0.5 0 0 0.5 0 0"/>' \
    '<xform weight="1" color="1" spherical="1" coefs="0.5 0 0 0.5 0.5 0"/></flame>' >library.flam3
env -u flam3_palettes flamejit render library.flam3 --backend cpu --threads 2 --seed 1 -o library.png
registry_test >registry.log 2>&1 || { cat registry.log; exit 1; }
# The CUDA backend's host side, on the carried stand-in driver.
cuda_host_test >cuda_host.log 2>&1 || { cat cuda_host.log; exit 1; }
# A generated kernel on the carried stand-ins, with the carried emulator:
# one case (xaos, against the CPU backend) is enough to show they work from
# here; the build's own run of emulated_kernels_test covers the rest.
emulated_kernels_test --test-case='*under xaos*' >emulated.log 2>&1 || { cat emulated.log; exit 1; }
grep -q 'test cases: *1 | *1 passed' emulated.log || { cat emulated.log; exit 1; }
EOF
hide=("$src" "$build")
[[ -d /usr/share/flam3 ]] && hide+=(/usr/share/flam3)
namespace=()
for try in "unshare -m --propagation private" "unshare -rm --propagation private"; do
    # A probe that bind-mounts, as some containers allow the namespace but not that.
    if $try bash -c 'mount --bind "$1" "$1"' probe "$work/empty" 2>/dev/null; then read -ra namespace <<<"$try"; break; fi
done
cd "$work/elsewhere"
if [[ ${#namespace[@]} -gt 0 ]]; then
    hidden=yes
    # The bind mounts exist only inside the namespace, for the run below.
    "${namespace[@]}" bash -c 'empty=$1 n=$2; shift 2; for d in "${@:1:n}"; do [[ ! -d $d ]] || mount --bind "$empty" "$d" || exit 1; done; shift "$n"; exec "$@"' \
        hide "$work/empty" "${#hide[@]}" "${hide[@]}" \
        env -i PATH=/usr/bin:/bin HOME="$work/home" bash "$work/run.sh" "$b" yes "${hide[@]}" >run.log 2>&1 \
        || fail "running from the bundle, trees hidden: $(cat run.log)"
else
    hidden="no (no mount namespace here)"
    env -i PATH=/usr/bin:/bin HOME="$work/home" bash "$work/run.sh" "$b" no >run.log 2>&1 \
        || fail "running from the bundle: $(cat run.log)"
fi
[[ -s default.png && -s library.png ]] || fail "no image from the bundle's flamejit: $(cat run.log)"
if grep -F -e "$src" -e "$build" env.txt run.log; then fail "the bundle's environment or output names the project or build tree"; fi
echo "bundle_test: passed ($checked library references checked; trees hidden: $hidden; $(du -sh "$b" | cut -f1))"
