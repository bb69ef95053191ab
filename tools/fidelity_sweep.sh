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
#   --recheck N       render each flagged flame N more times with each renderer
#                     (default 6; 0: none) and give its pooled R: the mean
#                     flamejit-to-flam3 distance over all pairs of their images
#                     over the mean flam3-to-flam3 one. One pair of flam3
#                     renders that happen to be close reads a high R; the
#                     pooled R of a flame flamejit renders as flam3 does is 1
#                     within a few percent
#   --confirm-above P a flagged flame whose pooled R exceeds P (default 1.08)
#                     is listed as confirmed
# FLAMEJIT names the binary (default build/flamejit). Writes OUT_DIR/sweep.tsv
# (one row a flame) and OUT_DIR/summary.txt (the command, flamejit's and
# flam3's versions, count, median and highest R over the flames that are not
# nearly blank, the flagged flames and their pooled R, the confirmed ones).
set -euo pipefail
usage() { sed -n '9,32p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
first=1000 count=40 size=200x150 quality=150 varied=0 backend=cpu threads=2 flag=1.15 recheck=6 confirm=1.08 out=
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
        --recheck) recheck=${2:?}; shift 2 ;;
        --confirm-above) confirm=${2:?}; shift 2 ;;
        -h|--help) usage ;;
        -*) echo "fidelity_sweep: unknown option $1" >&2; usage ;;
        *) [[ -z $out ]] || usage; out=$1; shift ;;
    esac
done
[[ -n $out ]] || usage
[[ $first =~ ^[0-9]+$ && $count =~ ^[1-9][0-9]*$ && $threads =~ ^[1-9][0-9]*$ && $recheck =~ ^[0-9]+$ ]] ||
    { echo "fidelity_sweep: --first, --count, --threads and --recheck take whole numbers" >&2; exit 2; }
for value in "$flag" "$confirm"; do
    [[ $value =~ ^[0-9]+([.][0-9]+)?$ ]] ||
        { echo "fidelity_sweep: --flag-above and --confirm-above take numbers, not $value" >&2; exit 2; }
done
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

# flam3-render's image of flame SEED at isaac seed ISAAC, to OUT.
flam3_image() {
    env in="g$1.flam3" out="$3" isaac_seed="$2" nthreads="$threads" verbose=0 flam3-render >/dev/null 2>&1 ||
        { echo "fidelity_sweep: flam3-render failed on g$1.flam3" >&2; exit 1; }
}

# flamejit's image of flame SEED at its seed RNG_SEED, to OUT.
flamejit_image() {
    "$flamejit" render "g$1.flam3" -o "$3" --backend "$backend" --threads "$threads" --seed "$2" \
        >/dev/null 2>"$3.log" || { echo "fidelity_sweep: flamejit failed on g$1.flam3: $(head -1 "$3.log")" >&2; exit 1; }
    rm -f "$3.log"
}

# The mean of one distance of flamejit compare (error_ab: its first two
# images; error_ca: the third from the first) over pairs of images, a pair
# a line "A B C" on stdin.
mean_error() {
    local key=$1 a b c json
    while read -r a b c; do
        json=$("$flamejit" compare "$a" "$b" "$c" --json)
        field "$key"
    done | awk '{ total += $1 } END { printf "%.9g", total / NR }'
}

# Flame SEED's pooled R: `recheck` more images from each renderer, then the
# mean flamejit-to-flam3 distance over every pair across the two sets over
# the mean flam3-to-flam3 distance over every pair within flam3's.
pooled_ratio() {
    local seed=$1 k f g c
    for ((k = 1; k <= recheck; ++k)); do
        flam3_image "$seed" "ref$k" "A$seed-$k.png"
        flamejit_image "$seed" "$((seed * 1000 + k))" "C$seed-$k.png"
    done
    local refs=("A$seed.png" "B$seed.png") ours=("C$seed.png")
    for ((k = 1; k <= recheck; ++k)); do refs+=("A$seed-$k.png") ours+=("C$seed-$k.png"); done
    local between within
    between=$(for c in "${ours[@]}"; do for f in "${refs[@]}"; do echo "$f $f $c"; done; done | mean_error error_ca)
    within=$(for ((f = 0; f < ${#refs[@]}; ++f)); do for ((g = f + 1; g < ${#refs[@]}; ++g)); do
        echo "${refs[f]} ${refs[g]} ${refs[g]}"; done; done | mean_error error_ab)
    awk -v b="$between" -v w="$within" 'BEGIN { printf "%.4f", (w > 0 ? b / w : 0) }'
}

rm -f flagged.txt
printf 'seed\tR\tR_A\tR_B\terror_AB\tlevel_shift\tlevel_spread\tsymmetry\ttemplate\tnote\tpooled_R\n' >sweep.tsv
for ((seed = first; seed < first + count; ++seed)); do
    IFS='|' read -r attributes symmetry < <(settings "$seed")
    echo "<flame size=\"$width $height\" quality=\"$quality\" estimator_minimum=\"0\" estimator_curve=\"0.4\"" \
        "gamma=\"4\" brightness=\"4\" vibrancy=\"1\" background=\"0 0 0\" $attributes/>" >"t$seed.flam3"
    env seed="$seed" isaac_seed="gen$seed" template="t$seed.flam3" symmetry="$symmetry" use_vars="$variations" \
        flam3-genome >"g$seed.flam3" 2>/dev/null || { echo "fidelity_sweep: flam3-genome failed for seed $seed" >&2; exit 1; }
    flam3_image "$seed" refA "A$seed.png"
    flam3_image "$seed" refB "B$seed.png"
    flamejit_image "$seed" "$seed" "C$seed.png"
    json=$("$flamejit" compare "A$seed.png" "B$seed.png" "C$seed.png" --json)
    ratio=$(field ratio) error_ab=$(field error_ab)
    row=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$seed" "$ratio" "$(field ratio_a)" "$(field ratio_b)" \
        "$error_ab" "$(field level_shift)" "$(field level_spread)" "$symmetry" "$attributes")
    # A nearly blank image (flam3's two renders apart by under 0.01 of a
    # level a sample: a few lit pixels) gives a ratio of a handful of
    # pixels, which says nothing: noted, and left out of the summary.
    note= pooled=
    awk -v e="$error_ab" 'BEGIN { exit !(e < 0.01) }' && note=blank
    if [[ -z $note ]] && awk -v r="$ratio" -v f="$flag" 'BEGIN { exit !(r == "null" || r > f) }'; then
        ((recheck == 0)) || pooled=$(pooled_ratio "$seed")
        echo "$seed $pooled" >>flagged.txt
    else
        rm -f "A$seed.png" "B$seed.png" "C$seed.png" "t$seed.flam3"
    fi
    printf '%s\t%s\t%s\n' "$row" "$note" "$pooled" >>sweep.tsv
done

{
    echo "command: tools/fidelity_sweep.sh --first $first --count $count --size $size --quality $quality$( ((varied)) &&
        echo ' --varied') --backend $backend --threads $threads --flag-above $flag --recheck $recheck --confirm-above $confirm"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "flamejit: $("$flamejit" info --json 2>/dev/null | sed -nE 's/.*"commit": *"([^"]*)".*/\1/p' | head -1)"
    echo "flam3: $(dpkg-query -W -f '${Version}' flam3-utils 2>/dev/null || echo unknown)"
    echo "flames: $count ($(awk -F'\t' '$10 == "blank"' sweep.tsv | wc -l) nearly blank, left out below)"
    tail -n +2 sweep.tsv | awk -F'\t' '$10 != "blank"' | cut -f1,2 | sort -t$'\t' -k2 -g | awk -F'\t' '
        { seed[NR] = $1; r[NR] = $2 }
        END {
            if (NR == 0) exit
            median = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
            printf "median R: %.4f\nhighest R: %.4f (seed %s)\n", median, r[NR], seed[NR]
        }'
    # Each flagged flame with its pooled R; those above the confirming bound.
    [[ -f flagged.txt ]] || : >flagged.txt
    echo "flagged (R > $flag): $(awk '{ printf "%s%s ", $1, $2 == "" ? "" : " (pooled " $2 ")" }' flagged.txt)"
    ((recheck == 0)) ||
        echo "confirmed (pooled R > $confirm): $(awk -v p="$confirm" '$2 > p { printf "%s ", $1 }' flagged.txt)"
} >summary.txt
cat summary.txt
