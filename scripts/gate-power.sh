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
# (on the 2-core development machine, 100 slows the frame by about 5%).
# Prints the rates and writes every run's verdict to gate-power.tsv (in
# OUT, default a temporary folder). KINETICS names a kinetics binary to use
# instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${RUNS:-50}
read -r -a extras <<<"${EXTRA:-50 75 100}"
animations=${ANIMATIONS:-10000}
bench_runs=${BENCH_RUNS:-7}
kinetics=${KINETICS:-}
if [[ -z $kinetics ]]; then
    swift build -c release --product kinetics >/dev/null
    kinetics=.build/release/kinetics
fi
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
    "$kinetics" gate --before "$out/libsoa.so" --after "$2" --animations "$animations" --format json \
        --output "$out/gate.json" 2>/dev/null || status=$?
    python3 - "$1" "$3" "$status" "$out/gate.json" >>"$out/gate-power.tsv" <<'PY'
import json, sys
pair, run, status, path = sys.argv[1:5]
report = json.load(open(path))
c = report["results"][0]["comparison"]
print("\t".join([pair, run, status, c["verdict"], str(c["rounds"]), f"{c['ratio'] - 1:.4f}",
                 f"{c['lower'] - 1:.4f}", f"{c['upper'] - 1:.4f}", f"{report['seconds']:.1f}"]))
PY
}
bench_ratio() {  # pair-name slowed-library run
    "$kinetics" bench --engine-library "$out/libsoa.so" --engine-library "$2" --engine soa-springs \
        --engine soa-springs-slowed --animations "$animations" --no-bezier --no-value-check --format json |
        python3 -c 'import json, sys
r = {x["configuration"]["engine"]: x["p50"] for x in json.load(sys.stdin)["results"]}
print(sys.argv[1], sys.argv[2], r["soa-springs-slowed"] / r["soa-springs"], sep="\t")' "$1" "$3" >>"$out/bench-ratios.tsv"
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

python3 - "$out/gate-power.tsv" "$out/bench-ratios.tsv" "$identical" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
ratios = list(csv.DictReader(open(sys.argv[2]), delimiter="\t"))
pairs = []
for r in rows:
    if r["pair"] not in pairs:
        pairs.append(r["pair"])
pairs.sort(key=lambda p: (p == "identical", int(p.split("-")[1]) if "-" in p else 0))
print("build                      bench ratio: median (range)   gate estimate: median (range)   flagged (exit 2)   verdicts                      seconds: median, max")
for pair in pairs:
    mine = [r for r in rows if r["pair"] == pair]
    flagged = sum(r["status"] == "2" for r in mine)
    verdicts = ", ".join(f"{v} {n}" for v in ("regression", "improvement", "unchanged", "inconclusive")
                         if (n := sum(r["verdict"] == v for r in mine)))
    seconds = sorted(float(r["seconds"]) for r in mine)
    changes = [100 * float(r["change"]) for r in mine]
    bench = [100 * (float(r["ratio"]) - 1) for r in ratios if r["pair"] == pair]
    bench_text = f"{statistics.median(bench):+5.1f}% ({min(bench):+.1f} to {max(bench):+.1f})" if bench else "-"
    name = pair if pair != "identical" else f"identical ({sys.argv[3]})"
    print(f"{name:<26} {bench_text:<29} {statistics.median(changes):+5.1f}% ({min(changes):+.1f} to {max(changes):+.1f})"
          f"{'':<8} {flagged:>3} of {len(mine):<3} {100 * flagged / len(mine):3.0f}%   {verdicts:<29} {statistics.median(seconds):.1f}, {seconds[-1]:.1f}")
PY
echo "every run: $out/gate-power.tsv, $out/bench-ratios.tsv"
