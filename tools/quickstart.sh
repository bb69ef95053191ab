#!/usr/bin/env bash
# flamejit quick start: install what is missing, build, render the bundled genome.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
source "$(dirname "$0")/setup.sh"
fj_setup
out="$FJ_ROOT/out/default.png"
mkdir -p "$(dirname "$out")"
"$FJ_BUILD/flamejit" render "$FJ_ROOT/genomes/default.flam3" -o "$out"
echo "Rendered $out"
