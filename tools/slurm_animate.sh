#!/usr/bin/env bash
# flamejit — Slurm job array for an animation: one array task per GPU, each rendering its shard.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage (N tasks render frames FIRST..LAST of SEQUENCE, one GPU each):
#   FRAMES=0:9999 sbatch --array=0-$((N-1)) tools/slurm_animate.sh SEQUENCE 'out/frame%05d.png' [flamejit options]
# Environment:
#   FRAMES    FIRST:LAST[:STEP] (default: flam3-animate's range, first keyframe to last - 1)
#   FLAMEJIT  the flamejit binary (default: flamejit on PATH, else build/flamejit beside this script)
#   SEED      random seed shared by all tasks (default 1), so a re-run draws the same frames
#
# On nodes without the build's packages, use a bundle (tools/bundle.sh):
# `source BUNDLE/env.sh` before sbatch. Slurm hands the submitting shell's
# environment to the tasks (its --export=ALL default), so they find the
# bundle's flamejit on PATH and its libraries on LD_LIBRARY_PATH; sbatch runs
# a copy of this script, so its own folder cannot say where the bundle is.
#
# Task I of N renders slice I of N (`--shard I/N`) with `--resume`, so the
# array needs no coordination: re-submitting the same array (or `scontrol
# requeue` after a preemption) renders only frames that are missing or were
# cut short. Every frame is written under a temporary name and renamed.
# Use a contiguous array starting anywhere (0-99, 100-199): the slice number
# is the task id minus the array's first id. Extra options (--quality,
# --temporal-samples, --bits 16, ...) are passed to `flamejit animate`.
#
#SBATCH --job-name=flamejit-animate
#SBATCH --gres=gpu:1
#SBATCH --cpus-per-task=4
#SBATCH --requeue
#SBATCH --output=flamejit-animate-%A_%a.log
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: FRAMES=A:B sbatch --array=0-(N-1) $0 SEQUENCE OUTPUT_PATTERN [flamejit animate options]" >&2
    exit 2
fi
if [[ -z "${SLURM_ARRAY_TASK_ID:-}" || -z "${SLURM_ARRAY_TASK_COUNT:-}" ]]; then
    echo "$0: not running as a Slurm array task (submit with sbatch --array=0-(N-1))" >&2
    exit 2
fi

sequence=$1
pattern=$2
shift 2

flamejit=${FLAMEJIT:-}
if [[ -z "$flamejit" ]]; then
    if command -v flamejit > /dev/null; then
        flamejit=$(command -v flamejit)
    else
        flamejit="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/flamejit"
    fi
fi

slice=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0}))
count=$SLURM_ARRAY_TASK_COUNT
frames=()
if [[ -n "${FRAMES:-}" ]]; then
    frames=(--frames "$FRAMES")
fi

echo "task $SLURM_ARRAY_TASK_ID: shard $slice/$count on $(hostname), GPU ${CUDA_VISIBLE_DEVICES:-?}"
mkdir -p "$(dirname "$pattern")"
# Slurm confines the task to its GPU, which the driver then numbers 0.
exec "$flamejit" animate "$sequence" "${frames[@]}" -o "$pattern" --shard "$slice/$count" --resume \
    --backend cuda --seed "${SEED:-1}" "$@"
