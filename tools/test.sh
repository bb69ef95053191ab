#!/usr/bin/env bash
# flamejit test suite: the quick-start set-up, then every test through ctest.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
source "$(dirname "$0")/setup.sh"
fj_setup
cd "$FJ_BUILD"
ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" "$@"
