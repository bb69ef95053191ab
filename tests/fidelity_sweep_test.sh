#!/usr/bin/env bash
# flamejit — tools/fidelity_sweep.sh runs on this build: its table has a row
# of numbers a flame, its summary the count, median and highest fidelity
# ratio and flamejit's commit, flames above the flag keep their images and
# the others do not, a flagged flame's pooled ratio is about 1 for this build
# and well above it for a stand-in that renders a quarter of the samples
# asked for, and bad options are refused before any work.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tests/fidelity_sweep_test.sh BUILD_DIR   (ctest runs it as fidelity_sweep_test)
set -euo pipefail
build=$(cd "${1:?usage: fidelity_sweep_test.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/flamejit-fidelity-sweep-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "fidelity_sweep_test: FAIL: $*" >&2; exit 1; }
command -v flam3-render >/dev/null || fail "flam3-render not installed (Debian flam3-utils): tools/test.sh installs it"
sweep() { FLAMEJIT=$build/flamejit "$src/tools/fidelity_sweep.sh" "$@"; }

for bad in "--nosuch" "--size 64" "--count 0" "--recheck two" "--confirm-above 1.x"; do
    # shellcheck disable=SC2086
    if sweep $bad "$work/refused" >/dev/null 2>&1; then fail "ran with $bad"; fi
done
[[ ! -e $work/refused/sweep.tsv ]] || fail "a refused run wrote its table"

sweep --first 7 --count 2 --size 64x48 --quality 10 "$work/plain" >"$work/log" 2>&1 || fail "plain run: $(tail -5 "$work/log")"
[[ $(wc -l <"$work/plain/sweep.tsv") == 3 ]] || fail "plain run: not a header and two rows"
awk -F'\t' 'NR > 1 && !($1 ~ /^[0-9]+$/ && $2 ~ /^[0-9.]+$/ && $2 > 0.3 && $2 < 5) { bad = 1 } END { exit bad }' \
    "$work/plain/sweep.tsv" || fail "a row without a seed and a ratio: $(cat "$work/plain/sweep.tsv")"
summary=$work/plain/summary.txt
grep -Eq '^flames: 2 \([0-9] nearly blank, left out below\)$' "$summary" || fail "summary: no count"
grep -Eq '^median R: [0-9.]+$' "$summary" || fail "summary: no median"
grep -Eq '^highest R: [0-9.]+ \(seed (7|8)\)$' "$summary" || fail "summary: no highest"
grep -Eq '^flamejit: [0-9a-f]{7,}' "$summary" || fail "summary: no flamejit commit"
while IFS=$'\t' read -r seed ratio _; do
    if awk -v r="$ratio" 'BEGIN { exit !(r > 1.15) }'; then
        [[ -f $work/plain/C$seed.png ]] || fail "flagged flame $seed lost its image"
    else
        [[ ! -e $work/plain/C$seed.png ]] || fail "flame $seed (R $ratio, not flagged) kept its image"
    fi
done < <(tail -n +2 "$work/plain/sweep.tsv")

sweep --varied --first 40 --count 2 --size 64x48 --quality 10 --flag-above 0 --recheck 2 "$work/varied" >"$work/log" 2>&1 ||
    fail "varied run: $(tail -5 "$work/log")"
grep -Eq '^flagged \(R > 0\): 40 \(pooled [0-9.]+\) 41 \(pooled [0-9.]+\) $' "$work/varied/summary.txt" ||
    fail "varied run: both flames not flagged with a pooled ratio"
for f in A40.png B40.png C40.png A40-2.png C40-2.png A41.png C41.png C41-1.png; do
    [[ -f $work/varied/$f ]] || fail "flagged image $f not kept"
done
# Rendered as flam3 renders them, each pooled ratio is near 1 (0.95-1.00
# when this test was written) and neither flame is confirmed.
awk -F'\t' 'NR > 1 && !($11 > 0.8 && $11 < 1.2) { bad = 1 } END { exit bad }' "$work/varied/sweep.tsv" ||
    fail "varied run: a pooled ratio far from 1: $(cut -f1,2,11 "$work/varied/sweep.tsv")"
grep -q '^confirmed (pooled R > 1.08): $' "$work/varied/summary.txt" || fail "varied run: a flame confirmed"
# Seed 40: filter shape 40 % 14 = 12 (lanczos2), supersample 40 / 14 % 2 + 1 = 1, symmetry 40 % 7 - 3 = 2.
grep -q 'filter_shape="lanczos2"' "$work/varied/sweep.tsv" || fail "varied run: seed 40's filter"
awk -F'\t' '$1 == 40 { exit !($8 == 2) }' "$work/varied/sweep.tsv" || fail "varied run: seed 40's symmetry"
# A stand-in flamejit that plots a quarter of the samples asked for: its
# images are noisier than flam3's, which a pooled ratio shows (1.24-1.37
# when this test was written) where one pair of flam3 images may not.
cat >"$work/fewer" <<EOF
#!/usr/bin/env bash
if [[ \$1 == render ]]; then exec "$build/flamejit" "\$@" --quality-scale 0.25; fi
exec "$build/flamejit" "\$@"
EOF
chmod +x "$work/fewer"
FLAMEJIT=$work/fewer "$src/tools/fidelity_sweep.sh" --varied --first 40 --count 2 --size 64x48 --quality 10 \
    --flag-above 0 --recheck 2 "$work/fewer-samples" >"$work/log" 2>&1 || fail "stand-in run: $(tail -5 "$work/log")"
grep -q '^confirmed (pooled R > 1.08): 40 41 $' "$work/fewer-samples/summary.txt" ||
    fail "a quarter of the samples not confirmed: $(cut -f1,2,11 "$work/fewer-samples/sweep.tsv")"
echo "fidelity_sweep_test: ok"
