#!/usr/bin/env bash
# flamejit — tools/gpu_bench.sh's phase that needs no GPU (coldcompile: NVRTC
# and nvJitLink in new processes) runs on this build and reports what a GPU
# session reads from it, so that the script a short turn on a GPU machine
# depends on is known to work before that turn: the machine's kernel and C
# library, each compile's time with the process's CPU time, page faults and
# context switches, the cgroup's CPU quota and throttling, the linked kernel's
# programs, and every variant of the linked compile (threads, nvJitLink
# preloaded, the three malloc settings); and the runs of the frame phase,
# which needs a GPU, made through a stand-in flamejit that records them.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tests/gpu_bench_test.sh BUILD_DIR   (ctest runs it as gpu_bench_test)
set -euo pipefail
build=$(cd "${1:?usage: gpu_bench_test.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/flamejit-gpu-bench-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
# tools/gpu_bench.sh's temporary folders (an empty kernel cache for each cold
# compile) are made here, so that the end can see it removed them.
export TMPDIR=$work
fail() { echo "gpu_bench_test: FAIL: $*" >&2; exit 1; }

# An unknown phase is refused before anything runs.
if out=$(cd "$src" && tools/gpu_bench.sh "$work/refused" full coldcompile,nosuch 2>&1); then
    fail "ran with an unknown phase"
fi
[[ $out == *"unknown phase 'nosuch'"* ]] || fail "unknown phase: unexpected message: $out"

(cd "$src" && FLAMEJIT=$build/flamejit tools/gpu_bench.sh "$work/out" full coldcompile) >"$work/log" 2>&1 \
    || fail "coldcompile phase: $(tail -20 "$work/log")"
summary=$work/out/summary.txt
[[ -f $summary ]] || fail "no summary.txt"
grep -q '^kernel: ' "$summary" || fail "the machine's kernel is not recorded"
grep -q '^transparent huge pages: ' "$summary" || fail "transparent huge pages are not recorded"
grep -q '^host CPU: .*threads usable of [0-9]* online; load average ' "$summary" || fail "the host's CPU is not recorded"
grep -q '^cgroup CPU quota: ' "$summary" || fail "the cgroup's CPU quota is not recorded"
# Three rounds of: expensive8 alone and after linear3, both forms (6 flames);
# 8 linked variants; the specialized kernel with three mallocs.
variants=("all cores" "8 threads" "4 threads" "2 threads" "nvJitLink preloaded" "glibc's malloc"
          "one malloc arena" "malloc huge pages")
for v in "${variants[@]}"; do
    [[ $(grep -c "^linked, $v:\$" "$summary") == 3 ]] || fail "linked, $v: not three rounds"
done
for v in "flamejit's malloc" "glibc's malloc" "malloc huge pages"; do
    [[ $(grep -c "^specialized, $v:\$" "$summary") == 3 ]] || fail "specialized, $v: not three rounds"
done
compiles=$(grep -c 'compiled in' "$summary")
usage=$(grep -c '^ *process during the compile: CPU [0-9]* ms, [0-9]* page faults, [0-9]* context switches$' "$summary")
# 3 × (6 flames + 8 linked + 3 specialized) + 2 traced = 53.
[[ $compiles == 53 ]] || fail "$compiles compiles reported, not 53"
[[ $usage == "$compiles" ]] || fail "$usage of $compiles compiles report the process's usage"
# Each process (3 × (4 + 8 + 3) = 45) says what the cgroup's quota held it back.
throttling=$(grep -cE '^ *cgroup CPU throttling(: not reported| during the process: [0-9]+ periods, [0-9.]+ ms)$' "$summary")
[[ $throttling == 45 ]] || fail "$throttling processes report the cgroup's throttling, not 45"
# The linked ones (3 × (3 flames + 8 variants) = 33) say where their programs ran.
[[ $(grep -c '^ *programs on [0-9]* threads' "$summary") == 33 ]] || fail "linked compiles without their programs"
grep -q 'cache hit' "$summary" && fail "a compile found its kernel cached"
# The traced compiles leave NVRTC's traces, which tools/nvrtc_trace.py reads
# into their phases (a front end, NVVM and ptxas that took time).
for rep in 1 2; do
    trace=$work/out/nvrtc-trace-expensive8-$rep.json
    [[ -s $trace ]] || fail "no NVRTC trace of traced compile $rep"
    phases=$("$src/tools/nvrtc_trace.py" "$trace") || fail "nvrtc_trace.py could not read $trace"
    for phase in "front end" "NVVM" "ptxas"; do
        grep -qE "^\| $phase \| [0-9]+\.[0-9] \|$" <<<"$phases" || fail "trace $rep: no $phase time"
        grep -qE "^\| $phase \| 0\.0 \|$" <<<"$phases" && fail "trace $rep: $phase took no time"
    done
done

# The frame phase needs a GPU; a stand-in flamejit that records how it is
# called shows the runs it makes: issue 7's frame with the specialized
# kernel, its xforms as calls and --kernel auto; expensive8 alone,
# specialized and auto, twice; the sorted exchange in blocks of 256 and
# 1024, a genome of 24 xforms inlined and as calls twice, and with FJ_BEFORE
# that build between two of this one's, each run with a kernel cache of its
# own that is empty.
cat >"$work/recorder" <<'RECORDER'
#!/usr/bin/env bash
[[ ${1:-} == bench ]] || exit 0
echo "cache $FLAMEJIT_CACHE_DIR files $(find "$FLAMEJIT_CACHE_DIR" -type f | wc -l)" \
     "nvrtc [${FLAMEJIT_NVRTC_OPTIONS:-}] $0 $*" >>"${0%/*}/calls"
RECORDER
chmod +x "$work/recorder"
cp "$work/recorder" "$work/before"
(cd "$src" && FLAMEJIT=$work/recorder FJ_BEFORE=$work/before tools/gpu_bench.sh "$work/frame" full frame) \
    >"$work/frame.log" 2>&1 || fail "frame phase: $(tail -20 "$work/frame.log")"
calls=$work/calls
[[ $(wc -l <"$calls") == 15 ]] || fail "frame phase: $(wc -l <"$calls") runs, not 15"
[[ $(cut -d' ' -f2 "$calls" | sort -u | wc -l) == 15 ]] || fail "frame phase: runs shared a kernel cache"
[[ $(grep -c ' files 0 ' "$calls") == 15 ]] || fail "frame phase: a run's kernel cache was not empty"
run() { sed -n "${1}p" "$calls"; }
for n in $(seq 15); do
    [[ $(run $n) == *" bench throughput "*" --backend cuda --size 1920x1080 --quality 1000"* ]] ||
        fail "frame phase: run $n is not issue 7's frame: $(run $n)"
done
for n in 1 2 3 8 9 14 15; do
    [[ $(run $n) == *"/expensive8.flam3 "* && $(run $n) == *"/xaos.flam3 "* && $(run $n) != *many24* ]] ||
        fail "frame phase: run $n is not the benchmark set: $(run $n)"
done
for n in 4 5 6 7; do
    [[ $(run $n) == *" bench throughput "*"/expensive8.flam3 --backend"* && $(run $n) != *xaos* ]] ||
        fail "frame phase: run $n is not expensive8 alone: $(run $n)"
done
for n in 10 11 12 13; do
    [[ $(run $n) == *" bench throughput "*"/compile/many24.flam3 --backend"* ]] ||
        fail "frame phase: run $n is not the genome of 24 xforms alone: $(run $n)"
done
for n in 2 11 13; do
    [[ $(run $n) == *"nvrtc [-DFJ_XFORM_CALLS --split-compile=0]"* ]] || fail "frame phase: run $n is not xforms as calls"
done
[[ $(grep -c 'nvrtc \[\]' "$calls") == 12 ]] || fail "frame phase: NVRTC options in runs other than the calls'"
for n in 3 5 7; do
    [[ $(run $n) == *"--kernel auto"* ]] || fail "frame phase: run $n is not --kernel auto"
done
[[ $(grep -c -- '--kernel' "$calls") == 3 ]] || fail "frame phase: --kernel in other runs than auto's"
[[ $(run 8) == *"--shuffle sorted --json"* ]] || fail "frame phase: the eighth run is not the sorted exchange"
[[ $(run 9) == *"--shuffle sorted --block 1024 --json"* ]] || fail "frame phase: the ninth run is not sorted in 1024"
[[ $(grep -c -- '--shuffle' "$calls") == 2 ]] || fail "frame phase: --shuffle in other runs than the sorted ones"
[[ $(run 14) == *"$work/before "* ]] || fail "frame phase: the fourteenth run is not FJ_BEFORE's"
[[ $(grep -c "$work/before " "$calls") == 1 ]] || fail "frame phase: FJ_BEFORE ran more than once"
leftover=$(find "$work" -mindepth 1 -maxdepth 1 -name 'tmp.*' | wc -l)
[[ $leftover == 0 ]] || fail "gpu_bench.sh left $leftover temporary folders"
# Each phase's start and the end are timed, and the archive holds the summary.
grep -qE '^== phase frame \(at [0-9]+ s\)$' "$work/frame/summary.txt" || fail "the frame phase's start is not timed"
grep -qE '^== done: frame \(at [0-9]+ s\)$' "$work/frame/summary.txt" || fail "the batch's end is not timed"
tar xzf "$work/frame.tar.gz" -O frame/summary.txt | cmp -s - "$work/frame/summary.txt" ||
    fail "frame.tar.gz does not hold the final summary"

# A budget: a phase that would start after it is listed as skipped. The first
# run of the frame phase takes longer than the budget of 1 s.
cat >"$work/slow" <<'SLOW'
#!/usr/bin/env bash
[[ ${1:-} == bench && ! -e ${0%/*}/slow-ran ]] || exit 0
touch "${0%/*}/slow-ran"
sleep 1.5
SLOW
chmod +x "$work/slow"
(cd "$src" && FLAMEJIT=$work/slow FJ_BENCH_BUDGET=1 tools/gpu_bench.sh "$work/budget" full frame,cpu) \
    >"$work/budget.log" 2>&1 || fail "budget: $(tail -20 "$work/budget.log")"
grep -q '^== phase frame (at 0 s)$' "$work/budget/summary.txt" || fail "budget: the frame phase did not run first"
grep -qE '^== phase cpu: skipped, the budget of 1 s is spent \(at [1-9][0-9]* s\)$' "$work/budget/summary.txt" ||
    fail "budget: the cpu phase was not skipped: $(cat "$work/budget/summary.txt")"
if (cd "$src" && FJ_BENCH_BUDGET=soon tools/gpu_bench.sh "$work/bad" full cpu) >/dev/null 2>&1; then
    fail "ran with a budget that is not whole seconds"
fi

# A batch killed midway (a machine's time running out) leaves the archive of
# the phases it finished, at FJ_BENCH_ARCHIVE: here the stand-in kills the
# batch in the cpu phase, after the frame phase.
cat >"$work/killer" <<'KILLER'
#!/usr/bin/env bash
[[ " $* " == *" --backend cpu "* ]] && kill -KILL "$PPID"
exit 0
KILLER
chmod +x "$work/killer"
mkdir -p "$work/kept"
# (The shell's own line on the killed job goes to the log too.)
{ (cd "$src" && FLAMEJIT=$work/killer FJ_BENCH_ARCHIVE=$work/kept/results.tar.gz \
    tools/gpu_bench.sh "$work/cut" full frame,cpu) >"$work/cut.log" 2>&1; } 2>>"$work/cut.log" &&
    fail "the batch was not killed"
[[ -f $work/kept/results.tar.gz && ! -e $work/cut.tar.gz ]] || fail "killed: no archive at FJ_BENCH_ARCHIVE"
kept=$(tar xzf "$work/kept/results.tar.gz" -O cut/summary.txt)
[[ $kept == *"== phase frame (at "* && $kept == *"many24"* && $kept != *"== phase cpu"* ]] ||
    fail "killed: the archive does not hold the frame phase alone: $kept"
# Within the long frame phase the archive follows each run: killed in its
# fourth run, the batch leaves the first three.
cat >"$work/killer4" <<'KILLER'
#!/usr/bin/env bash
[[ ${1:-} == bench ]] || exit 0
echo run >>"${0%/*}/killer4-runs"
[[ $(wc -l <"${0%/*}/killer4-runs") == 4 ]] && kill -KILL "$PPID"
exit 0
KILLER
chmod +x "$work/killer4"
{ (cd "$src" && FLAMEJIT=$work/killer4 FJ_BENCH_ARCHIVE=$work/kept/frame.tar.gz \
    tools/gpu_bench.sh "$work/cut4" full frame) >"$work/cut4.log" 2>&1; } 2>>"$work/cut4.log" &&
    fail "the batch was not killed in the frame phase"
[[ -f $work/kept/frame.tar.gz ]] || fail "killed in the frame phase: no archive of its first runs"
kept=$(tar xzf "$work/kept/frame.tar.gz" -O cut4/summary.txt)
[[ $kept == *"quality 1000, auto"* && $kept != *"expensive8-alone-1"* ]] ||
    fail "killed in the frame phase: the archive does not hold its first three runs: $kept"
if (cd "$src" && FJ_BENCH_ARCHIVE=$work/cut/in.tar.gz tools/gpu_bench.sh "$work/cut" full cpu) >/dev/null 2>&1; then
    fail "accepted an archive inside the results folder"
fi
echo "gpu_bench_test: coldcompile phase ran, $compiles compiles reported; frame phase's runs as planned;" \
     "budget and archive of a killed batch as documented"
