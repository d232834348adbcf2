#!/usr/bin/env bash
# What an engine worker moves in what `kinetics gate` measures: the same
# library (Examples/engines/soa_springs.c) on both sides, one side in the
# gate's process and the other in a worker (`--in-process-side`, the side
# alternating from run to run), RUNS runs at each ANIMATIONS, at the gate's
# defaults (99% confidence, 2% minimum effect, 60 s). A worker that moved
# the frame by 2% or more would show as regressions or improvements; the
# gate calls identical builds different in at most 1% of runs. Then, at each
# size, the measured frames are counted under callgrind once in a worker
# (before) and once in the gate's own copy of the program (after): the
# instructions per frame of the two routes, and their change.
#
#   scripts/gate-workers.sh        RUNS=50 ANIMATIONS="1000 10000 100000" by default
#
# Prints the verdicts' counts per size and writes every run's verdict,
# estimate and rounds to gate-workers.tsv (in OUT, default a temporary
# folder). KINETICS names a kinetics binary to use instead of building the
# release one.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${RUNS:-50}
read -r -a sizes <<<"${ANIMATIONS:-1000 10000 100000}"
# KINETICS, or the release build (made now).
kinetics=${KINETICS:-$(scripts/build-release.sh && echo .build/release/kinetics)}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
cc -O2 -shared -fPIC -I Sources/CKineticsEngine/include -o "$out/libsoa.so" Examples/engines/soa_springs.c -lm

table=$out/gate-workers.tsv
printf 'animations\trun\tin_process\tverdict\tchange\trounds\n' >"$table"
for size in "${sizes[@]}"; do
    for run in $(seq 1 "$runs"); do
        side=$([[ $((run % 2)) == 1 ]] && echo after || echo before)
        "$kinetics" gate --before "$out/libsoa.so" --after "$out/libsoa.so" --animations "$size" \
            --in-process-side "$side" --no-value-check --format csv --output "$out/run.csv" 2>/dev/null || true
        # Columns: rounds (2), ratio (5), verdict (10).
        awk -F, -v size="$size" -v run="$run" -v side="$side" 'NR == 2 {
            printf "%s\t%s\t%s\t%s\t%+.2f%%\t%s\n", size, run, side, $10, ($5 - 1) * 100, $2 }' "$out/run.csv" >>"$table"
    done
    echo "$size springs, $runs runs, one side in a worker and the other in-process: $(awk -F'\t' -v n="$size" \
        '$1 == n { count[$4]++ } END { for (v in count) printf "%s %d, ", v, count[v] }' "$table" | sed 's/, $//')"
    "$kinetics" gate --before "$out/libsoa.so" --after "$out/libsoa.so" --animations "$size" --count instructions \
        --in-process-side after --format csv --output "$out/count.csv" 2>/dev/null
    awk -F, -v n="$size" 'NR == 2 { printf "%s springs, instructions per frame: in a worker %s, in-process %s, change %s%%\n", n, $2, $3, $4 }' \
        "$out/count.csv"
done
echo "every run: $table"
