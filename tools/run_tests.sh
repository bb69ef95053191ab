#!/usr/bin/env bash
# flamejit — runs the test executables directly, without ctest: a machine
# given only a bundle (tools/bundle.sh copies this script into it) has no
# ctest and no build tree. Also works from tools/ on a build tree.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: run_tests.sh [--gpu | --no-gpu] [--keep] [--list] [SUITE...] [-- DOCTEST_OPTIONS]
#   --gpu      only the GPU suites (gpu_*; each prints why and passes where
#              no device works)
#   --no-gpu   every suite but the GPU ones
#   --keep     keep logs and scratch files when everything passes (they are
#              always kept after a failure)
#   --list     name the suites that would run, and stop
#   SUITE      run these suites only (cli_test, or cli)
#   DOCTEST_OPTIONS go to every suite (e.g. -tc='*flam3*')
# Each suite runs in a fresh folder under $TMPDIR with its output in a log;
# a failing suite's log is printed. Ends with a summary; exit status 1 when a
# suite fails (or none was found), 2 on bad usage.
# Environment: FJ_TEST_TIMEOUT (seconds per suite; default 900, as ctest's),
# FJ_BUILD_DIR (the build tree, when run from tools/; default build/).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ -f $here/env.sh ]]; then
    # In a bundle: its env.sh points the tests at the bundle's inputs.
    source "$here/env.sh"
    tests_dir=$here/bin
else
    tests_dir=${FJ_BUILD_DIR:-$(cd "$here/.." && pwd)/build}/tests
fi

only="" keep=0 list=0 wanted=() doctest_args=()
usage() { echo "usage: $0 [--gpu | --no-gpu] [--keep] [--list] [SUITE...] [-- DOCTEST_OPTIONS]" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
    case $1 in
        --gpu) only=gpu; shift ;;
        --no-gpu) only=cpu; shift ;;
        --keep) keep=1; shift ;;
        --list) list=1; shift ;;
        --) shift; doctest_args=("$@"); break ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; /SPDX/d; s/^# \{0,1\}//'; exit 0 ;;
        -*) usage ;;
        *) wanted+=("${1%_test}_test"); shift ;;
    esac
done

if [[ -n $only && ${#wanted[@]} -gt 0 ]]; then
    echo "run_tests.sh: name suites or give --gpu/--no-gpu, not both" >&2
    exit 2
fi
suites=()
for exe in "$tests_dir"/*_test; do
    [[ -f $exe && -x $exe ]] || continue
    name=$(basename "$exe")
    case $only in
        gpu) [[ $name == gpu_* ]] || continue ;;
        cpu) [[ $name == gpu_* ]] && continue ;;
    esac
    if [[ ${#wanted[@]} -gt 0 ]]; then
        match=0
        for w in ${wanted[@]+"${wanted[@]}"}; do [[ $w == "$name" ]] && match=1; done
        [[ $match == 1 ]] || continue
    fi
    suites+=("$name")
done
for w in ${wanted[@]+"${wanted[@]}"}; do
    [[ -x $tests_dir/$w ]] || { echo "run_tests.sh: no test executable $tests_dir/$w" >&2; exit 1; }
done
if [[ ${#suites[@]} -eq 0 ]]; then
    echo "run_tests.sh: no test executables to run in $tests_dir" >&2
    exit 1
fi
if [[ $list == 1 ]]; then
    printf '%s\n' "${suites[@]}"
    exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/flamejit-tests.XXXXXX") || exit 1
export FJ_SCRATCH_DIR="$work/scratch"
timeout_s=${FJ_TEST_TIMEOUT:-900}
runner=()
command -v timeout >/dev/null && runner=(timeout --kill-after=30 "$timeout_s")

failed=() n=0 total=${#suites[@]} started=$SECONDS
for name in "${suites[@]}"; do
    n=$((n + 1))
    log="$work/$name.log"
    mkdir -p "$work/$name"
    t0=$SECONDS
    # (The ${a[@]+"${a[@]}"} form: an empty array under set -u in bash < 4.4.)
    (cd "$work/$name" && ${runner[@]+"${runner[@]}"} "$tests_dir/$name" ${doctest_args[@]+"${doctest_args[@]}"}) >"$log" 2>&1
    status=$?
    took=$((SECONDS - t0))
    if [[ $status -eq 0 ]]; then
        # A GPU suite passes where no device works; say so rather than hide it.
        note=""
        [[ $name == gpu_* ]] && note=$(grep -m1 -iE 'MESSAGE: .*(skipped|unavailable)' "$log" | sed 's/.*MESSAGE: *//' | cut -c1-100)
        printf '%3d/%d %-28s passed  %4d s%s\n' "$n" "$total" "$name" "$took" "${note:+  ($note)}"
    else
        what="failed (exit $status)"
        [[ $status -eq 124 || $status -eq 137 ]] && what="timed out after ${timeout_s} s"
        printf '%3d/%d %-28s %s  %4d s\n' "$n" "$total" "$name" "$what" "$took"
        sed 's/^/    /' "$log"
        failed+=("$name")
    fi
done

echo
echo "$((total - ${#failed[@]})) of $total suites passed in $((SECONDS - started)) s"
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "failed: ${failed[*]}"
    echo "logs and scratch files: $work"
    exit 1
fi
if [[ $keep == 1 ]]; then echo "logs and scratch files: $work"; else rm -rf "$work"; fi
exit 0
