#!/usr/bin/env bash
# flamejit — a wide fidelity sweep: many random flam3-genome flames, each
# rendered by flam3-render at two seeds (A, B) and once by flamejit (C), and
# the fidelity ratio R of C against them (flamejit compare). The test suites
# hold a few dozen fixed genomes; this finds the rare flame where flamejit
# and flam3 part ways (a flame whose steps mostly blow up was found so).
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tools/fidelity_sweep.sh [options] OUT_DIR
#   --first SEED      first flam3-genome seed (default 1000)
#   --count N         flames (default 40)
#   --size WxH        image size (default 200x150)
#   --quality Q       quality (default 150)
#   --varied          vary the template by seed: 14 filter shapes, supersample
#                     1-2, DE radius 0/4/8, both palette modes, symmetry -3..3,
#                     highlight power (default: one template, gaussian filter, DE)
#   --backend B       flamejit's backend (default cpu)
#   --threads N       threads of flam3-render and flamejit (default 2)
#   --flag-above R    list flames whose R exceeds R, keeping their images
#                     (default 1.15); the others' images are removed
# FLAMEJIT names the binary (default build/flamejit). Writes OUT_DIR/sweep.tsv
# (one row a flame) and OUT_DIR/summary.txt (the command, flamejit's and
# flam3's versions, count, median and highest R over the flames that are not
# nearly blank, the flagged flames).
set -euo pipefail
usage() { sed -n '9,24p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
first=1000 count=40 size=200x150 quality=150 varied=0 backend=cpu threads=2 flag=1.15 out=
while (($#)); do
    case $1 in
        --first) first=${2:?}; shift 2 ;;
        --count) count=${2:?}; shift 2 ;;
        --size) size=${2:?}; shift 2 ;;
        --quality) quality=${2:?}; shift 2 ;;
        --varied) varied=1; shift ;;
        --backend) backend=${2:?}; shift 2 ;;
        --threads) threads=${2:?}; shift 2 ;;
        --flag-above) flag=${2:?}; shift 2 ;;
        -h|--help) usage ;;
        -*) echo "fidelity_sweep: unknown option $1" >&2; usage ;;
        *) [[ -z $out ]] || usage; out=$1; shift ;;
    esac
done
[[ -n $out ]] || usage
[[ $first =~ ^[0-9]+$ && $count =~ ^[1-9][0-9]*$ && $threads =~ ^[1-9][0-9]*$ ]] ||
    { echo "fidelity_sweep: --first, --count and --threads take whole numbers" >&2; exit 2; }
[[ $size =~ ^([1-9][0-9]*)x([1-9][0-9]*)$ ]] || { echo "fidelity_sweep: --size must be WxH" >&2; exit 2; }
width=${BASH_REMATCH[1]} height=${BASH_REMATCH[2]}
flamejit=${FLAMEJIT:-build/flamejit}
[[ -x $flamejit ]] || { echo "fidelity_sweep: no flamejit binary at $flamejit (set FLAMEJIT)" >&2; exit 2; }
for tool in flam3-genome flam3-render; do
    command -v "$tool" >/dev/null || { echo "fidelity_sweep: $tool not found (Debian flam3-utils)" >&2; exit 2; }
done
mkdir -p "$out"
flamejit=$(cd "$(dirname "$flamejit")" && pwd)/$(basename "$flamejit")
cd "$out"
variations=$(seq -s, 0 98)  # every flam3 3.1.1 variation
shapes=(gaussian hermite box triangle bell bspline mitchell blackman catrom hanning hamming lanczos3 lanczos2 quadratic)

# The template's attributes and flam3-genome's symmetry for a seed.
settings() {
    local s=$1
    if ((varied)); then
        local palette=linear highlight=-1
        ((s % 2)) || palette=step
        ((s % 5)) || highlight=1
        echo "supersample=\"$((s / 14 % 2 + 1))\" filter=\"1\" filter_shape=\"${shapes[s % 14]}\"" \
            "estimator_radius=\"$((s / 3 % 3 * 4))\" palette_mode=\"$palette\" highlight_power=\"$highlight\"" \
            "|$((s % 7 == 4 ? 0 : s % 7 - 3))"
    else
        echo "supersample=\"1\" filter=\"0.5\" filter_shape=\"gaussian\" estimator_radius=\"9\" palette_mode=\"step\"|0"
    fi
}

# The value of one key of flamejit compare's JSON, held in $json.
field() { sed -E "s/.*\"$1\":(null|-?[0-9.eE+-]+).*/\1/" <<<"$json"; }

rm -f flagged.txt
printf 'seed\tR\tR_A\tR_B\terror_AB\tlevel_shift\tlevel_spread\tsymmetry\ttemplate\tnote\n' >sweep.tsv
for ((seed = first; seed < first + count; ++seed)); do
    IFS='|' read -r attributes symmetry < <(settings "$seed")
    echo "<flame size=\"$width $height\" quality=\"$quality\" estimator_minimum=\"0\" estimator_curve=\"0.4\"" \
        "gamma=\"4\" brightness=\"4\" vibrancy=\"1\" background=\"0 0 0\" $attributes/>" >"t$seed.flam3"
    env seed="$seed" isaac_seed="gen$seed" template="t$seed.flam3" symmetry="$symmetry" use_vars="$variations" \
        flam3-genome >"g$seed.flam3" 2>/dev/null || { echo "fidelity_sweep: flam3-genome failed for seed $seed" >&2; exit 1; }
    for s in A B; do
        env in="g$seed.flam3" out="$s$seed.png" isaac_seed="ref$s" nthreads="$threads" verbose=0 flam3-render \
            >/dev/null 2>&1 || { echo "fidelity_sweep: flam3-render failed on g$seed.flam3" >&2; exit 1; }
    done
    "$flamejit" render "g$seed.flam3" -o "C$seed.png" --backend "$backend" --threads "$threads" --seed "$seed" \
        >/dev/null 2>"C$seed.log" || { echo "fidelity_sweep: flamejit failed on g$seed.flam3: $(head -1 "C$seed.log")" >&2; exit 1; }
    json=$("$flamejit" compare "A$seed.png" "B$seed.png" "C$seed.png" --json)
    ratio=$(field ratio) error_ab=$(field error_ab)
    # A nearly blank image (flam3's two renders apart by under 0.01 of a
    # level a sample: a few lit pixels) gives a ratio of a handful of
    # pixels, which says nothing: noted, and left out of the summary.
    note=
    awk -v e="$error_ab" 'BEGIN { exit !(e < 0.01) }' && note=blank
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$seed" "$ratio" "$(field ratio_a)" \
        "$(field ratio_b)" "$error_ab" "$(field level_shift)" "$(field level_spread)" "$symmetry" \
        "$attributes" "$note" >>sweep.tsv
    if [[ -z $note ]] && awk -v r="$ratio" -v f="$flag" 'BEGIN { exit !(r == "null" || r > f) }'; then
        echo "$seed" >>flagged.txt
    else
        rm -f "A$seed.png" "B$seed.png" "C$seed.png" "C$seed.log" "t$seed.flam3"
    fi
done

{
    echo "command: tools/fidelity_sweep.sh --first $first --count $count --size $size --quality $quality$( ((varied)) &&
        echo ' --varied') --backend $backend --threads $threads --flag-above $flag"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "flamejit: $("$flamejit" info --json 2>/dev/null | sed -nE 's/.*"commit": *"([^"]*)".*/\1/p' | head -1)"
    echo "flam3: $(dpkg-query -W -f '${Version}' flam3-utils 2>/dev/null || echo unknown)"
    echo "flames: $count ($(grep -c $'\tblank$' sweep.tsv) nearly blank, left out below)"
    tail -n +2 sweep.tsv | awk -F'\t' '$10 != "blank"' | cut -f1,2 | sort -t$'\t' -k2 -g | awk -F'\t' '
        { seed[NR] = $1; r[NR] = $2 }
        END {
            if (NR == 0) exit
            median = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
            printf "median R: %.4f\nhighest R: %.4f (seed %s)\n", median, r[NR], seed[NR]
        }'
    echo "flagged (R > $flag): $([[ -f flagged.txt ]] && tr '\n' ' ' <flagged.txt)"
} >summary.txt
cat summary.txt
