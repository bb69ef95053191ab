#!/usr/bin/env bash
# flamejit — everything that needs a GPU, in one batch: the GPU test suites,
# compute-sanitizer on every shuffle strategy, on the shared and packed
# accumulation modes, on strips and on render state, and the benchmarks.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage (from the project root, after a build into build/):
#   tools/gpu_bench.sh RESULTS_DIR [quick] [PHASES]
# or from a bundle made by tools/bundle.sh (a machine without the build), in
# any folder:
#   BUNDLE/tools/gpu_bench.sh RESULTS_DIR [quick] [PHASES]
# Writes logs and JSON into RESULTS_DIR, and the whole folder as
# RESULTS_DIR.tar.gz, made again after every phase (and every run of the
# long frame and codegen phases), so that a batch cut off midway (a machine
# lent for minutes) keeps what it had found;
# copy the JSON files that matter into benchmarks/results/ with the device,
# driver and command they name. summary.txt gives each phase's start in
# seconds since the batch began, for sizing the next batch.
# "quick" shortens the benchmarks (smaller sizes, fewer qualities); "full"
# (or empty) keeps them. PHASES, comma-separated, picks what runs (default:
# all, in this order): tests, sanitize, startup, post, throughput, frame,
# codegen, coldcompile, launch, switch, strategies, cpu, shuffle, animate; a
# long batch can so be split over several shorter sessions into one folder
# (a short turn for issue 7's figures: tests,coldcompile,frame).
# Environment: FLAMEJIT (the flamejit binary; default build/flamejit, or the
# bundle's), FJ_TEST_RUNNER (command line that runs the GPU suites; default
# `ctest --test-dir build -L gpu --output-on-failure`, or the bundle's
# `run_tests.sh --gpu`), FLAM3 (set: compare throughput with flam3-render),
# FJ_BEFORE (another flamejit binary that the startup and frame phases time
# too),
# POST_COST (the post_cost tool; default beside flamejit), NVRTC_OPTIONS_TOOL
# (tools/nvrtc_options.cpp's program; default beside flamejit),
# NVRTC_OPTIONS_REPEAT and NVRTC_OPTIONS_COLD (its rounds in the codegen
# phase; default 7 and 3; fewer for a short turn on a GPU machine),
# FJ_BENCH_BUDGET (seconds: no phase starts after the batch has run that
# long; the rest are listed as skipped), FJ_BENCH_ARCHIVE (the archive's path
# instead of RESULTS_DIR.tar.gz, outside RESULTS_DIR).
set -uo pipefail
all_phases=tests,sanitize,startup,post,throughput,frame,codegen,coldcompile,launch,switch,strategies,cpu,shuffle,animate
usage="usage: tools/gpu_bench.sh RESULTS_DIR [quick|full] [${all_phases}]"
out=${1:?$usage}
quick=${2:-}
phases=${3:-$all_phases}
[[ $quick == "" || $quick == quick || $quick == full ]] || { echo "$usage" >&2; exit 2; }
for p in ${phases//,/ }; do
    [[ ,$all_phases, == *",$p,"* ]] || { echo "gpu_bench: unknown phase '$p'; $usage" >&2; exit 2; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)  # phases may run tools from other folders
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -f $here/env.sh && -x $here/run_tests.sh ]]; then
    # A bundle: its env.sh puts its libraries, flam3-render and test inputs first.
    source "$here/env.sh"
    fj=${FLAMEJIT:-$here/bin/flamejit}
    genomes=$here/share/flamejit/benchmarks/genomes
    tests=${FJ_TEST_RUNNER:-"$(printf %q "$here/run_tests.sh") --gpu"}
    test_bin=$here/bin
    describe() { head -3 "$here/MANIFEST"; }
else
    fj=${FLAMEJIT:-build/flamejit}
    genomes=benchmarks/genomes
    tests=${FJ_TEST_RUNNER:-ctest --test-dir build -L gpu --output-on-failure}
    test_bin=build/tests
    describe() { git describe --always --dirty; }
fi
post_cost=${POST_COST:-$(dirname "$fj")/post_cost}
nvrtc_tool=${NVRTC_OPTIONS_TOOL:-$(dirname "$fj")/nvrtc_options}
# Every temporary folder of the run (the empty kernel caches of the cold
# compiles among them) lies in one, removed at the end.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export TMPDIR=$scratch
export FLAMEJIT_CACHE_DIR=${FLAMEJIT_CACHE_DIR:-$(mktemp -d)}

step() { echo "== $*" | tee -a "$out/summary.txt"; }
# LOG COMMAND...: runs the command with its output in LOG and prints its exit
# status and whole-process wall seconds.
wall() {
    local log=$1 start end status
    shift
    start=$(date +%s.%N)
    "$@" >"$log" 2>&1
    status=$?
    end=$(date +%s.%N)
    awk -v s=$status -v t0="$start" -v t1="$end" 'BEGIN { printf "%d %.3f\n", s, t1 - t0 }'
}
budget=${FJ_BENCH_BUDGET:-0}
[[ $budget =~ ^[0-9]+$ ]] || { echo "gpu_bench: FJ_BENCH_BUDGET must be whole seconds, not '$budget'" >&2; exit 2; }
archive=${FJ_BENCH_ARCHIVE:-$out.tar.gz}
archive_dir=$(cd "$(dirname "$archive")" 2>/dev/null && pwd) ||
    { echo "gpu_bench: FJ_BENCH_ARCHIVE's folder $(dirname "$archive") does not exist" >&2; exit 2; }
archive=$archive_dir/$(basename "$archive")
[[ $archive_dir/ != "$out"/* ]] || { echo "gpu_bench: FJ_BENCH_ARCHIVE must lie outside $out" >&2; exit 2; }
# The results so far, as one file, replaced whole (written beside, then renamed).
save() { tar czf "$archive.part" -C "$(dirname "$out")" "$(basename "$out")" && mv -f "$archive.part" "$archive"; }
began=$SECONDS ran=0
# PHASE: whether it runs (asked for, and the budget not spent). The
# archive is brought up to date before each phase that follows another.
wanted() {
    [[ ,$phases, == *",$1,"* ]] || return 1
    ((ran)) && save
    if ((budget > 0 && SECONDS - began >= budget)); then
        step "phase $1: skipped, the budget of $budget s is spent (at $((SECONDS - began)) s)"
        return 1
    fi
    ran=1
    step "phase $1 (at $((SECONDS - began)) s)"
}
# The folder of this process's cgroup that holds its CPU quota and throttling
# counters (cgroup v2's, or v1's cpu controller), or nothing. A quota lets
# many threads at once spend a period's share early and then wait for the
# next period: what a compile on every core would run into.
cpu_cgroup() {
    local id controllers path dir
    while IFS=: read -r id controllers path; do
        case ",$controllers," in
            ,,) for dir in "/sys/fs/cgroup$path" /sys/fs/cgroup; do
                    [[ -f $dir/cpu.max ]] && { echo "${dir%/}"; return; }
                done ;;
            *,cpu,*) for dir in "/sys/fs/cgroup/$controllers$path" "/sys/fs/cgroup/cpu$path" /sys/fs/cgroup/cpu; do
                    [[ -f $dir/cpu.cfs_quota_us ]] && { echo "${dir%/}"; return; }
                done ;;
        esac
    done </proc/self/cgroup 2>/dev/null
}
cgroup=$(cpu_cgroup)
cpu_quota() {
    [[ -n $cgroup ]] || { echo "no cgroup CPU controller found"; return; }
    local quota period
    if [[ -f $cgroup/cpu.max ]]; then
        read -r quota period <"$cgroup/cpu.max"
    else
        quota=$(<"$cgroup/cpu.cfs_quota_us") period=$(<"$cgroup/cpu.cfs_period_us")
    fi
    if [[ $quota == max || $quota == -1 ]]; then
        echo "no quota ($cgroup)"
    else
        awk -v q="$quota" -v p="$period" -v d="$cgroup" \
            'BEGIN { printf "%.2f CPUs (%d us of CPU time a period of %d us; %s)\n", q / p, q, p, d }'
    fi
}
# Periods throttled and milliseconds throttled so far (v2 counts
# microseconds, v1 nanoseconds); "- -" without a controller.
cpu_throttled() {
    [[ -f $cgroup/cpu.stat ]] || { echo "- -"; return; }
    awk '$1 == "nr_throttled" { n = $2 } $1 == "throttled_usec" { t = $2 / 1e3 } $1 == "throttled_time" { t = $2 / 1e6 }
         END { printf "%d %.1f\n", n, t }' "$cgroup/cpu.stat"
}
# BEFORE (cpu_throttled's output): the throttling since, as a report line.
throttled_since() {
    local n0 t0 n1 t1
    read -r n0 t0 <<<"$1"
    read -r n1 t1 <<<"$(cpu_throttled)"
    if [[ $n0 == - ]]; then
        echo "    cgroup CPU throttling: not reported"
    else
        awk -v n="$((n1 - n0))" -v t0="$t0" -v t1="$t1" \
            'BEGIN { printf "    cgroup CPU throttling during the process: %d periods, %.1f ms\n", n, t1 - t0 }'
    fi
}
# TOOL LABEL COMMAND...: one sanitizer run, bounded, since the tools slow
# kernels down by 10-100x.
sanitize_command() {
    local tool=$1 label=$2
    shift 2
    step "compute-sanitizer --tool $tool, $label"
    timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 9 "$@" >"$out/sanitizer-$tool-${label// /-}.txt" 2>&1
    echo "exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer-$tool-${label// /-}.txt" | tail -1)" \
        | tee -a "$out/summary.txt"
}
# TOOL LABEL RENDER_OPTIONS...: a render of the small genome, on one block per
# SM (racecheck took over a minute on an H200's full pool of 8 blocks per SM;
# the hazards it looks for are within a block).
sanitize() {
    local tool=$1 label=$2
    shift 2
    sanitize_command "$tool" "$label" \
        "$fj" render "$small" --backend cuda --quality 4 --blocks-per-sm 1 -o "$out/sanitized.png" "$@"
}

step "device"
# The operating system too: compiles in new processes ran slower on the GPU
# machine than its CPU speed accounts for, and page faults and memory calls
# cost more in some virtual machines and sandboxes than in others.
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv || true; "$fj" info; describe || true
  echo "kernel: $(uname -srm); $(ldd --version 2>&1 | head -1)"
  echo "host CPU: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) threads usable of" \
       "$(getconf _NPROCESSORS_ONLN) online; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "cgroup CPU quota: $(cpu_quota)"
  echo "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1)"; } \
    >"$out/info.txt" 2>&1
cat "$out/info.txt" >>"$out/summary.txt"

if wanted tests; then
    step "GPU test suites ($tests)"
    bash -c "$tests" >"$out/gpu-tests.txt" 2>&1
    tail -3 "$out/gpu-tests.txt" >>"$out/summary.txt"
fi

if wanted sanitize; then
    if ! command -v compute-sanitizer >/dev/null; then
        step "compute-sanitizer not found: skipped"
    else
        # The xaos genome (its lazy proposal included) at a small size: the races
        # and barriers checked do not depend on the image size.
        small=$out/xaos-320x180.flam3
        sed 's/size="1920 1080"/size="320 180"/' "$genomes/xaos.flam3" >"$small"
        for tool in racecheck synccheck memcheck; do
            for shuffle in ring full none divergent sorted; do
                sanitize "$tool" "shuffle $shuffle" --shuffle "$shuffle"
            done
            # The accumulation modes with shared state of their own: the shared
            # cache (claims, shared atomics, the end-of-launch flush) and the
            # packed words with their flush kernel. racecheck of a whole render
            # with the shared cache did not finish in 379 s (every lane's first
            # ~1000 rounds run under it): below, it checks the GPU suite's
            # accumulation-mode case instead, small frames in launches of 16
            # rounds.
            for acc in shared packed; do
                [[ $tool == racecheck && $acc == shared ]] || sanitize "$tool" "accumulate $acc" --accumulate "$acc"
            done
        done
        sanitize_command racecheck "accumulation modes test" "$test_bin/gpu_backend_test" \
            -tc='*every accumulation mode*'
        # Strips (histograms of some rows; points moved by the strip's first
        # row) and render state (the histogram copied out, and back in to resume).
        sanitize memcheck "strips 3" --strips 3
        sanitize memcheck "save state" --save-state "$out/sanitized.fjstate"
        sanitize memcheck "resume state" --quality 8 --resume-state "$out/sanitized.fjstate"
        rm -f "$out/sanitized.png" "$out/sanitized.fjstate"
    fi
fi

if wanted startup; then
    # A new process's wait for its first image (issue 7's budgets: a cold
    # compile under 300 ms, a cache hit under 5 ms): `render` of the default
    # genome at quality 1 with an empty kernel cache, then again with the
    # kernel cached, and `compile` alone (NVRTC, no context), three of each,
    # whole process. The CUDA backend compiles while the driver makes its
    # context, so cold minus warm is the part of the compile that the
    # context did not hide; an FJ_BEFORE binary from before that overlap
    # (commit 13a2664) shows the whole compile there.
    step "startup: render (empty and warm kernel cache) and compile, whole process"
    start_dir=$out/startup
    mkdir -p "$start_dir"
    default_genome=$genomes/../../genomes/default.flam3
    for bin in "$fj" ${FJ_BEFORE:+"$FJ_BEFORE"}; do
        name=$(basename "$bin")
        for rep in 1 2 3; do
            cache=$(mktemp -d)
            for kind in empty warm; do
                read -r status secs < <(FLAMEJIT_CACHE_DIR=$cache wall "$start_dir/$name-render-$kind-$rep.log" \
                    "$bin" render "$default_genome" --backend cuda --quality 1 --seed 1 -o "$start_dir/first.png")
                echo "$name render, $kind cache: exit $status, $secs s" | tee -a "$out/summary.txt"
            done
            rm -rf "$cache"
            cache=$(mktemp -d)
            read -r status secs < <(FLAMEJIT_CACHE_DIR=$cache wall "$start_dir/$name-compile-$rep.log" \
                "$bin" compile "$default_genome")
            echo "$name compile, empty cache: exit $status, $secs s" | tee -a "$out/summary.txt"
            rm -rf "$cache"
            # The costliest benchmark kernel, specialized and starting linked
            # (--kernel auto: the frame waits for the linked compile only).
            for kernel in specialized auto; do
                cache=$(mktemp -d)
                read -r status secs < <(FLAMEJIT_CACHE_DIR=$cache wall "$start_dir/$name-expensive8-$kernel-$rep.log" \
                    "$bin" render "$genomes/expensive8.flam3" --backend cuda --quality 1 --seed 1 --kernel $kernel \
                    -o "$start_dir/first.png")
                echo "$name render expensive8 --kernel $kernel, empty cache: exit $status, $secs s" |
                    tee -a "$out/summary.txt"
                rm -rf "$cache"
            done
        done
    done
    rm -f "$start_dir/first.png"
fi

size=1920x1080 scale=1 quality=100 qualities=10,20,50,100 ref=2000
[ "$quick" = quick ] && size=960x540 scale=0.5 quality=20 qualities=5,10,20 ref=400
if wanted post; then
    # Issue 4's measure: the CUDA post-pass skipping empty space (the
    # cub::DeviceSelect list of non-empty cells, tiles of empty filter
    # windows) and visiting every cell and pixel, on the same histogram,
    # alternating (the benchmark genomes are 1920x1080).
    step "post-pass with and without skipping empty cells and tiles, quality $quality"
    "$post_cost" "$genomes"/*.flam3 --cuda --quality $quality --repeat 9 --json "$out/post-compaction.json" 2>&1 \
        | tee -a "$out/summary.txt"
fi
# Every accumulation mode (packed is lossy in hot cells: its JSON rows carry
# packed_carries, which must be 0 for its timing to count as exact).
if wanted throughput; then
    # Issue 7's frame budget: a 1080p quality-1000 frame, compile excluded
    # (the first run with an empty kernel cache, so its compile column is the
    # cold compile; the runs below load the same kernels from the cache).
    step "bench throughput, 1920x1080 quality 1000"
    "$fj" bench throughput "$genomes"/*.flam3 --backend cuda --size 1920x1080 --quality 1000 \
        --json "$out/throughput-q1000.json" 2>&1 | tee -a "$out/summary.txt"
    for acc in atomic scalar warp shared packed; do
        step "bench throughput --accumulate $acc"
        "$fj" bench throughput "$genomes"/*.flam3 --backend cuda --size $size --quality $quality \
            --accumulate $acc ${FLAM3:+--flam3} --json "$out/throughput-$acc.json" 2>&1 | tee -a "$out/summary.txt"
    done
fi
if wanted frame; then
    # Issue 7's figures in a short turn: a 1080p quality-1000 frame of every
    # benchmark genome, each run with an empty kernel cache (so its compile
    # column is a cold compile in the process), with the specialized kernel,
    # with its xforms as calls and NVVM on every core (-DFJ_XFORM_CALLS
    # --split-compile=0: compiles in less time, its speed unmeasured;
    # benchmarks/README.md "Xforms as calls") and with --kernel auto
    # (compile: the time to the first launch, which the linked kernel makes);
    # expensive8 alone in new processes, specialized and auto;
    # the sorted exchange (--shuffle sorted) in blocks of 256 and 1024 (xaos
    # without lazy rounds: README, "Xaos without idle lanes"); then the same calls
    # against the inlined xforms for a genome of 24 xforms. With FJ_BEFORE,
    # that build's specialized kernel between two runs of this one's: an A/B
    # of the iteration.
    calls="-DFJ_XFORM_CALLS --split-compile=0"
    frame_run() {  # LABEL FLAMEJIT NVRTC_OPTIONS [flamejit options]; the genomes: frame_genomes
        step "bench throughput, 1920x1080 quality 1000, $1${3:+ (FLAMEJIT_NVRTC_OPTIONS=$3)}"
        local cache
        cache=$(mktemp -d)
        FLAMEJIT_CACHE_DIR=$cache FLAMEJIT_NVRTC_OPTIONS=$3 "$2" bench throughput "${frame_genomes[@]}" \
            --backend cuda --size 1920x1080 --quality 1000 "${@:4}" --json "$out/frame-$1.json" 2>&1 |
            tee -a "$out/summary.txt"
        rm -rf "$cache"
        save  # the phase is long: what its runs found so far, should the batch be cut off
    }
    frame_genomes=("$genomes"/*.flam3)
    frame_run specialized "$fj" ""
    frame_run calls "$fj" "$calls"
    frame_run auto "$fj" "" --kernel auto
    # The cold compile as a user meets it: a new process whose one flame is
    # expensive8, its kernel cache empty, so that the compile column holds
    # NVRTC's loading and first compile as well (the driver's context made
    # meanwhile): the specialized kernel, and --kernel auto's time to its
    # first launch (the linked kernel's), twice each, alternating.
    frame_genomes=("$genomes/expensive8.flam3")
    for round in 1 2; do
        frame_run "expensive8-alone-$round" "$fj" ""
        frame_run "expensive8-auto-alone-$round" "$fj" "" --kernel auto
    done
    frame_genomes=("$genomes"/*.flam3)
    frame_run sorted "$fj" "" --shuffle sorted
    frame_run sorted-1024 "$fj" "" --shuffle sorted --block 1024
    # Whether --shuffle auto should sort on a GPU too, as it does on the CPU
    # from a third of the lane-rounds idle (README, "Xaos without idle
    # lanes"): every flame of the corpus's Fractorium examples (xaos and rare
    # xforms, idle shares from 0 to 83 %), ring and sorted twice, alternating;
    # render's lines give each flame's iteration rate and the ring's idle share.
    corpus=${FJ_CORPUS_DIR:-../shared/corpus}/fractorium-examples
    if [[ -d $corpus ]]; then
        mkdir -p "$scratch/lazy"
        for round in 1 2; do
            for shuffle in ring sorted; do
                step "render $corpus/*.flame, 1920x1080 quality 100, --shuffle $shuffle (round $round)"
                "$fj" render "$corpus"/*.flame --backend cuda --size 1920x1080 --quality 100 --shuffle $shuffle \
                    --seed 1 --progress none -o "$scratch/lazy/" 2>&1 | grep -E 'samples in|lazy selection|flamejit' |
                    tee -a "$out/summary.txt"
                save
            done
        done
    else
        step "no corpus at $corpus: the Fractorium examples' ring against sorted not run"
    fi
    frame_genomes=("$genomes/compile/many24.flam3")
    for round in 1 2; do
        frame_run "many24-$round" "$fj" ""
        frame_run "many24-calls-$round" "$fj" "$calls"
    done
    if [[ -n ${FJ_BEFORE:-} ]]; then
        frame_genomes=("$genomes"/*.flam3)
        frame_run before "$FJ_BEFORE" ""
        frame_run specialized-again "$fj" ""
    fi
fi
if wanted codegen; then
    # Code shapes that compile faster but change the generated code
    # (benchmarks/README.md "Compile path"), adopted only if the GPU agrees:
    # now the linked kernel (--kernel linked: each xform a program of its
    # own, compiled on this machine's cores at once, called instead of
    # inlined) under its default bound of 32 registers and under 64 (fewer
    # registers saved around each call, half the threads an SM holds), and
    # --kernel auto with each (the linked kernel runs while the specialized
    # one compiles in the background, then gives way to it: its compile
    # column is the time to the first launch, its stand_in_launches how many
    # launches the linked kernel ran). The trigonometry's shapes, ptxas's -O1
    # and the xforms' shared prologue were measured here before (the guard
    # adopted, the others not). Each run has a kernel cache of its own (and
    # flamejit turns NVRTC's own cache off), so its compile column is a cold
    # compile; the shapes alternate, twice at quality $quality and once at
    # 1000 (where the grid is the occupancy's, which the registers decide), to
    # show the drift within the phase.
    codegen_run() {  # QUALITY LABEL NVRTC_OPTIONS [flamejit options]
        step "bench throughput, quality $1, FLAMEJIT_NVRTC_OPTIONS=$3 ${*:4}"
        local cache
        cache=$(mktemp -d)
        FLAMEJIT_CACHE_DIR=$cache FLAMEJIT_NVRTC_OPTIONS=$3 "$fj" bench throughput "$genomes"/*.flam3 \
            --backend cuda --size $size --quality "$1" "${@:4}" --json "$out/throughput-q$1-$2.json" 2>&1 |
            tee -a "$out/summary.txt"
        rm -rf "$cache"
        save
    }
    for round in "" -again; do
        codegen_run $quality flamejit$round ""
        codegen_run $quality linked$round "" --kernel linked
        codegen_run $quality linked64$round "" --kernel linked --linked-registers 64
        codegen_run $quality auto$round "" --kernel auto
        codegen_run $quality auto64$round "" --kernel auto --linked-registers 64
    done
    codegen_run 1000 flamejit ""
    codegen_run 1000 linked "" --kernel linked
    codegen_run 1000 linked64 "" --kernel linked --linked-registers 64
    codegen_run 1000 auto "" --kernel auto
    codegen_run 1000 auto64 "" --kernel auto --linked-registers 64
    # What the lazy selection costs a flame that takes it for a rare xform
    # (README, "Rare xforms spread over the lanes"): linear3 as it is and with
    # its third xform drawn 1 time in 201; all three are linear, so only the
    # selection differs (its idle rounds and acceptance draws). Alternating.
    rare=$out/linear3-rare.flam3
    awk '/<xform weight="1"/ && ++n == 3 { sub(/weight="1"/, "weight=\"0.01\"") } 1' "$genomes/linear3.flam3" >"$rare"
    for round in 1 2; do
        for g in "$genomes/linear3.flam3" "$rare"; do
            step "bench throughput $(basename "$g" .flam3), quality $quality, round $round"
            "$fj" bench throughput "$g" --backend cuda --size $size --quality $quality \
                --json "$out/throughput-$(basename "$g" .flam3)-$round.json" 2>&1 | tee -a "$out/summary.txt"
        done
    done
    # The same shapes' compile times alone, interleaved, on this machine's
    # cores and NVRTC.
    step "NVRTC compile times of the code shapes (nvrtc_options)"
    (cd "$genomes/../.." && "$nvrtc_tool" --arch sm_90 --repeat "${NVRTC_OPTIONS_REPEAT:-7}" \
        --cold "${NVRTC_OPTIONS_COLD:-3}" --set -DFJ_SHARED_PROLOGUE --tag device \
        --out "$out") >"$out/nvrtc-options-device.log" 2>&1
    echo "exit $?" | tee -a "$out/summary.txt"
    sed -n '/^## Option sets/,/^## Kernels/p' "$out/nvrtc-options-device.md" 2>/dev/null | tee -a "$out/summary.txt"
fi
if wanted coldcompile; then
    # Kernel compiles in new processes, each with an empty kernel cache
    # (a few seconds in all: the phase for a short turn on a GPU machine).
    # A new process's compile, both forms: expensive8 alone, and after
    # linear3 in the same process (its second compile). In 2026-11-28's
    # batch a new process's linked compile took 0.15-0.25 s longer than the
    # same compile inside bench throughput; this separates the process's
    # first compile from the rest.
    step "compile, new process: expensive8 alone and after linear3, specialized and linked"
    pair=$(mktemp)
    { echo "<flames>"; cat "$genomes/linear3.flam3" "$genomes/expensive8.flam3"; echo "</flames>"; } >"$pair"
    for rep in 1 2 3; do
        for kernel in specialized linked; do
            for input in "$genomes/expensive8.flam3" "$pair"; do
                label=$([[ $input == "$pair" ]] && echo "after linear3" || echo alone)
                # Each flame's time, and for the linked kernel where it went
                # (its slowest program, all of them, nvJitLink's loading,
                # each program's span).
                { echo "$kernel, $label:"
                  before=$(cpu_throttled)
                  FLAMEJIT_CACHE_DIR=$(mktemp -d) "$fj" compile "$input" --kernel $kernel 2>&1 |
                      grep -E 'compiled in|^  linked:|^  programs on|^  process' |
                      sed -E 's/  registers.*//; s/^/    /'
                  throttled_since "$before"; } | tee -a "$out/summary.txt"
            done
        done
    done
    rm -f "$pair"
    # The linked compile of a new process, varied one thing at a time: fewer
    # threads for its programs (if they slow each other down), nvJitLink
    # loaded with the process (if its loading holds the others up), and
    # malloc: glibc's own settings instead of flamejit's (engine/malloc_policy.h:
    # on the development VM half the page faults), one arena, huge pages (if
    # fresh memory on many threads is what costs). Each compile prints each
    # program's span and thread, and the process's CPU time, page faults and
    # context switches meanwhile.
    step "compile, new process: expensive8 linked, threads and process set-up varied"
    nvjitlink=""
    ld_path=${LD_LIBRARY_PATH:-}
    for lib_dir in ${ld_path//:/ } /usr/local/cuda/lib64; do
        [[ -f $lib_dir/libnvJitLink.so.13 ]] && { nvjitlink=$lib_dir/libnvJitLink.so.13; break; }
    done
    echo "nvJitLink to preload: ${nvjitlink:-not found (that variant loads it as usual)}" | tee -a "$out/summary.txt"
    # flamejit's malloc settings as tunables, for the variants that set
    # tunables of their own (any malloc tunable leaves flamejit's out).
    policy=glibc.malloc.top_pad=16777216:glibc.malloc.mmap_threshold=33554432
    for rep in 1 2 3; do
        for variant in "all cores" "8 threads" "4 threads" "2 threads" "nvJitLink preloaded" "glibc's malloc" \
            "one malloc arena" "malloc huge pages"; do
            pre=() extra=()
            case $variant in
                *threads) extra=(--compile-threads "${variant% threads}") ;;
                "nvJitLink preloaded") pre=(${nvjitlink:+LD_PRELOAD=$nvjitlink}) ;;
                "glibc's malloc") pre=(GLIBC_TUNABLES=glibc.malloc.perturb=0) ;;
                "one malloc arena") pre=(MALLOC_ARENA_MAX=1) ;;
                "malloc huge pages") pre=(GLIBC_TUNABLES=$policy:glibc.malloc.hugetlb=1) ;;
            esac
            { echo "linked, $variant:"
              before=$(cpu_throttled)
              env "${pre[@]}" FLAMEJIT_CACHE_DIR="$(mktemp -d)" "$fj" compile "$genomes/expensive8.flam3" \
                  --kernel linked "${extra[@]}" 2>&1 |
                  grep -E 'compiled in|^  linked:|^  programs on|^  process' |
                  sed -E 's/  registers.*//; s/^/    /'
              throttled_since "$before"; } | tee -a "$out/summary.txt"
        done
        # The specialized kernel, one program on one thread, with glibc's
        # settings and on huge pages as well: on the development VM huge
        # pages take its page faults from 8,900 to 3,300 at the same speed,
        # which would pay where faults cost more.
        for variant in "flamejit's malloc" "glibc's malloc" "malloc huge pages"; do
            pre=()
            case $variant in
                "glibc's malloc") pre=(GLIBC_TUNABLES=glibc.malloc.perturb=0) ;;
                "malloc huge pages") pre=(GLIBC_TUNABLES=$policy:glibc.malloc.hugetlb=1) ;;
            esac
            { echo "specialized, $variant:"
              before=$(cpu_throttled)
              env "${pre[@]}" FLAMEJIT_CACHE_DIR="$(mktemp -d)" "$fj" compile "$genomes/expensive8.flam3" 2>&1 |
                  grep -E 'compiled in|^  process' | sed -E 's/  registers.*//; s/^/    /'
              throttled_since "$before"; } | tee -a "$out/summary.txt"
        done
    done
    # The same compile phase by phase: NVRTC's own trace of expensive8's
    # specialized kernel, the one compile of a new process, twice
    # (tools/nvrtc_trace.py reads the nvrtc-trace-*.json files). NVRTC adds
    # .json to the name, and fails a compile whose trace file exists, hence
    # one name per run.
    step "compile, new process: expensive8 specialized, traced (-fdevice-time-trace)"
    for rep in 1 2; do
        FLAMEJIT_CACHE_DIR=$(mktemp -d) FLAMEJIT_NVRTC_OPTIONS="-fdevice-time-trace=$out/nvrtc-trace-expensive8-$rep" \
            "$fj" compile "$genomes/expensive8.flam3" 2>&1 | grep -E 'compiled in|^  process' |
            sed -E 's/  registers.*//; s/^/    /' | tee -a "$out/summary.txt"
    done
fi
if wanted launch; then
    # The launch shape against the default (256 threads a block, as many
    # blocks per SM as the occupancy allows), in one run: other block sizes,
    # and fewer resident blocks per SM.
    for shape in default "--block 128" "--block 512" "--blocks-per-sm 2" "--blocks-per-sm 4"; do
        label=${shape// /}
        label=${label#--}
        step "bench throughput, launch shape: $shape"
        # shellcheck disable=SC2086  # the shape is two words
        "$fj" bench throughput "$genomes"/*.flam3 --backend cuda --size $size --quality $quality \
            ${shape#default} --json "$out/throughput-launch-$label.json" 2>&1 | tee -a "$out/summary.txt"
    done
fi
if wanted switch; then
    # The design's reason to exist, in iterations/s: the same genomes through
    # the switch kernel every other renderer of that kind would run, against
    # the specialized kernel, one render each (render's "samples in" line
    # gives the iteration rate; a xaos genome's idle share follows it).
    # NVRTC takes 1-6 minutes for each switch kernel (the
    # benchmark genomes need three: plain, final xform, xaos), and `bench
    # throughput --kernel switch` would build three more for its ceilings:
    # FLAMEJIT_CACHE_DIR may name a cache that holds them already (`flamejit
    # compile GENOME --kernel switch --arch sm_90` builds them without a GPU).
    for g in "$genomes"/*.flam3; do
        for kernel in switch specialized; do
            echo "$(basename "$g" .flam3), $kernel: $("$fj" render "$g" --backend cuda --kernel $kernel --quality $quality \
                --size-scale "$scale" --seed 1 -o "$out/kernel.png" 2>&1 | grep ' samples in ')" | tee -a "$out/summary.txt"
        done
    done
    rm -f "$out/kernel.png"
fi
if wanted strategies; then
    # Each shuffle strategy's speed on whole frames (its quality per sample
    # is the shuffle phase's).
    for shuffle in ring full none divergent sorted; do
        step "bench throughput --shuffle $shuffle"
        "$fj" bench throughput "$genomes"/*.flam3 --backend cuda --size $size --quality $quality \
            --shuffle $shuffle --json "$out/throughput-$shuffle.json" 2>&1 | tee -a "$out/summary.txt"
    done
fi
if wanted cpu; then
    step "bench throughput, CPU backend, same genomes"
    "$fj" bench throughput "$genomes"/*.flam3 --backend cpu --size $size --quality $((quality / 10 + 1)) \
        ${FLAM3:+--flam3} --json "$out/throughput-cpu.json" 2>&1 | tee -a "$out/summary.txt"
fi
if wanted shuffle; then
    step "bench shuffle (GPU, equal samples and equal time)"
    "$fj" bench shuffle "$genomes/linear3.flam3" "$genomes/spherical4.flam3" "$genomes/xaos.flam3" \
        --backend cuda --strategies none,ring,full,divergent,sorted --block 128,256,512,1024 --size $size \
        --qualities $qualities --reference-quality $ref --no-de \
        --json "$out/shuffle-gpu.json" --plot "$out/shuffle-gpu.svg" 2>&1 | tee -a "$out/summary.txt"
fi
if wanted animate; then
    # Frames per second of an animation (a flam3-genome sequence between two
    # random genomes, quality 10, flam3's 1000 time steps per frame), whole
    # process: the CUDA backend, the CPU backend and flam3-animate on all
    # cores; frame 2 of each backend against two flam3-animate seeds; and
    # images per second of a batch of stills.
    step "animate: frames/s, CUDA and CPU backends and flam3-animate"
    anim=$out/animate
    mkdir -p "$anim"
    printf '<flame size="%s" quality="10" supersample="1" filter="0.5" temporal_samples="1000"/>\n' "${size/x/ }" \
        >"$anim/template.flam3"
    env seed=41 isaac_seed=g41 noedits=1 repeat=2 template="$anim/template.flam3" flam3-genome >"$anim/pair.flam3"
    env sequence="$anim/pair.flam3" nframes=8 seed=41 isaac_seed=s41 noedits=1 flam3-genome >"$anim/seq.flam3"
    timed() {  # LABEL FRAMES COMMAND...: whole-process seconds and frames/s
        local label=$1 frames=$2 status secs
        shift 2
        read -r status secs < <(wall "$anim/$label.log" "$@")
        awk -v l="$label" -v s="$status" -v n="$frames" -v t="$secs" \
            'BEGIN { printf "%s: exit %d, %d frames in %.2f s, %.3f frames/s\n", l, s, n, t, n / t }' \
            | tee -a "$out/summary.txt"
    }
    # Each new structure's kernel compiled when its first frame comes
    # (--compile-threads 0), then by compile threads while frames render
    # (the default), each with an empty kernel cache.
    for threads in 0 default; do
        ahead=()
        [[ $threads == default ]] || ahead=(--compile-threads "$threads")
        FLAMEJIT_CACHE_DIR=$(mktemp -d) timed "cuda-compile-threads-$threads" 24 "$fj" animate "$anim/seq.flam3" \
            --frames 1:24 --backend cuda --seed 1 -o "$anim/cuda_%05d.png" "${ahead[@]}"
        grep -E "^rendered|^render workers" "$anim/cuda-compile-threads-$threads.log" | tee -a "$out/summary.txt"
    done
    # A batch of stills of eight structures (random genomes, one render
    # process), the same way: images per second.
    for i in 1 2 3 4 5 6 7 8; do
        env seed=$((60 + i)) isaac_seed=b$i noedits=1 template="$anim/template.flam3" flam3-genome \
            >"$anim/still$i.flam3"
    done
    for threads in 0 default; do
        ahead=()
        [[ $threads == default ]] || ahead=(--compile-threads "$threads")
        FLAMEJIT_CACHE_DIR=$(mktemp -d) timed "cuda-stills-compile-threads-$threads" 8 "$fj" render \
            "$anim"/still?.flam3 --backend cuda --seed 1 -o "$anim/" "${ahead[@]}"
    done
    timed cuda 24 "$fj" animate "$anim/seq.flam3" --frames 1:24 --backend cuda --seed 1 -o "$anim/cuda_%05d.png"
    # Nearly empty frames of one time step: each used to run its chains'
    # ~1000 settling rounds one launch at a time.
    timed cuda-empty 24 "$fj" animate "$anim/seq.flam3" --frames 1:24 --backend cuda --seed 1 --quality 0.01 \
        --temporal-samples 1 -o "$anim/empty_%05d.png"
    grep -E "^frame 2:" "$anim/cuda-empty.log" | tee -a "$out/summary.txt"
    timed cpu 3 "$fj" animate "$anim/seq.flam3" --frames 1:3 --backend cpu --seed 1 -o "$anim/cpu_%05d.png"
    timed flam3-animate 3 env in="$anim/seq.flam3" prefix="$anim/flam3a_" begin=1 end=3 nthreads="$(nproc)" \
        isaac_seed=a verbose=0 flam3-animate
    env in="$anim/seq.flam3" prefix="$anim/flam3b_" begin=2 end=2 nthreads="$(nproc)" isaac_seed=b verbose=0 \
        flam3-animate >/dev/null 2>&1
    for backend in cuda cpu; do
        echo "frame 2, $backend: $("$fj" compare "$anim/flam3a_00002.png" "$anim/flam3b_00002.png" \
            "$anim/${backend}_00002.png" 2>&1 | head -1)" | tee -a "$out/summary.txt"
    done
    rm -f "$anim"/*.png
fi
step "done: $phases (at $((SECONDS - began)) s)"
# One file to carry back.
save
