#!/usr/bin/env bash
# What `kinetics gate` catches and what it lets through, measured: the C
# example engine (Examples/engines/soa_springs.c) against
#   - a build of it made slower by a known amount
#     (scripts/gate/soa_springs_slowed.c): the detection rate;
#   - an identical build, compiled again to a second file and so loaded
#     at other addresses: the false-alarm rate;
# each over RUNS runs of `kinetics gate --before … --after …` at the
# defaults (99% confidence, 2% minimum effect, 60 s), 10,000 springs.
#
# The slowdown is measured as a user would: the slowed engine beside the
# original in one `kinetics bench` run, BENCH_RUNS times (median and range
# of the p50 ratios).
#
#   scripts/gate-power.sh       RUNS=50 EXTRA="50 75 100" ANIMATIONS=10000 by default
#
# EXTRA lists the slowed builds: multiply-adds per 1,000 springs a frame
# (docs/bench.md gives the slowdown each made on the machines measured).
# Prints the rates and writes every run's verdict to gate-power.tsv (in
# OUT, default a temporary folder). KINETICS names a kinetics binary to use
# instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${RUNS:-50}
read -r -a extras <<<"${EXTRA:-50 75 100}"
animations=${ANIMATIONS:-10000}
bench_runs=${BENCH_RUNS:-7}
# KINETICS, or the release build (made now).
kinetics=${KINETICS:-$(scripts/build-release.sh && echo .build/release/kinetics)}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

include=(-I Sources/CKineticsEngine/include -I Examples/engines)
cc -O2 -shared -fPIC "${include[@]}" -o "$out/libsoa.so" Examples/engines/soa_springs.c -lm
cc -O2 -shared -fPIC "${include[@]}" -o "$out/libsoa-again.so" Examples/engines/soa_springs.c -lm
for extra in "${extras[@]}"; do
    cc -O2 -shared -fPIC "${include[@]}" -DEXTRA="$extra" -o "$out/libslowed-$extra.so" \
        scripts/gate/soa_springs_slowed.c -lm
done
cmp -s "$out/libsoa.so" "$out/libsoa-again.so" && identical="byte for byte" || identical="not byte for byte"

echo "kinetics gate power, $(date -u '+%Y-%m-%d %H:%M UTC'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs) ($(nproc) cores), $animations springs, $runs runs each"
printf 'pair\trun\tstatus\tverdict\trounds\tchange\tlower\tupper\tseconds\n' >"$out/gate-power.tsv"
printf 'pair\trun\tratio\n' >"$out/bench-ratios.tsv"
gate() {  # pair-name after-library run
    local status=0
    "$kinetics" gate --before "$out/libsoa.so" --after "$2" --animations "$animations" --format csv \
        --output "$out/gate.csv" 2>/dev/null || status=$?
    # Columns: rounds (2), ratio (5), lower (6), upper (7), verdict (10), seconds (13).
    awk -F, -v pair="$1" -v run="$3" -v status="$status" 'NR == 2 {
        printf "%s\t%s\t%s\t%s\t%s\t%.4f\t%.4f\t%.4f\t%.1f\n", pair, run, status, $10, $2, $5 - 1, $6 - 1, $7 - 1, $13
    }' "$out/gate.csv" >>"$out/gate-power.tsv"
}
bench_ratio() {  # pair-name slowed-library run
    "$kinetics" bench --engine-library "$out/libsoa.so" --engine-library "$2" --engine soa-springs \
        --engine soa-springs-slowed --animations "$animations" --no-bezier --no-value-check --format csv \
        --output "$out/bench.csv"
    # Columns: engine (1), p50_ns (7).
    awk -F, -v pair="$1" -v run="$3" 'NR > 1 { p50[$1] = $7 }
        END { printf "%s\t%s\t%.6f\n", pair, run, p50["soa-springs-slowed"] / p50["soa-springs"] }' \
        "$out/bench.csv" >>"$out/bench-ratios.tsv"
}
# The slowed builds and the identical one in turns, so that the machine's
# moods fall on all of them; each slowed build's slowdown measured as a
# user would, beside the original in one bench run, every few rounds.
for ((run = 1; run <= runs; run++)); do
    for extra in "${extras[@]}"; do
        gate "slowed-$extra" "$out/libslowed-$extra.so" "$run"
        if ((run <= bench_runs)); then bench_ratio "slowed-$extra" "$out/libslowed-$extra.so" "$run"; fi
    done
    gate identical "$out/libsoa-again.so" "$run"
done

# A column of numbers (percent when scaled by 100) as "median (min to max)".
spread() {  # column-values... scale
    sort -g | awk -v scale="$1" '{ v[NR] = $1 * scale }
        END { if (NR == 0) { print "-"; exit }
              m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
              printf "%+5.1f%% (%+.1f to %+.1f)", m, v[1], v[NR] }'
}
echo "build                      bench ratio: median (range)   gate estimate: median (range)   flagged (exit 2)   verdicts                      seconds: median, max"
for pair in "${extras[@]/#/slowed-}" identical; do
    name=$pair
    [[ $pair == identical ]] && name="identical ($identical)"
    bench=$(awk -F'\t' -v p="$pair" '$1 == p { print $3 - 1 }' "$out/bench-ratios.tsv" | spread 100)
    estimate=$(awk -F'\t' -v p="$pair" '$1 == p { print $6 }' "$out/gate-power.tsv" | spread 100)
    seconds=$(awk -F'\t' -v p="$pair" '$1 == p { print $9 }' "$out/gate-power.tsv" | sort -g |
        awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.1f, %.1f", m, v[NR] }')
    counts=$(awk -F'\t' -v p="$pair" '$1 == p { n++; if ($3 == 2) flagged++; verdict[$4]++ }
        END { printf "%3d of %-3d %3.0f%%\t", flagged, n, 100 * flagged / n
              sep = ""; split("regression improvement unchanged inconclusive", order, " ")
              for (i = 1; i <= 4; i++) if (verdict[order[i]]) { printf "%s%s %d", sep, order[i], verdict[order[i]]; sep = ", " } }' \
        "$out/gate-power.tsv")
    printf '%-26s %-29s %-31s %-18s %-29s %s\n' "$name" "$bench" "$estimate" "${counts%%$'\t'*}" "${counts#*$'\t'}" "$seconds"
done
echo "every run: $out/gate-power.tsv, $out/bench-ratios.tsv"
