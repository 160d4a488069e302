#!/usr/bin/env bash
# The cost of `run --explain` (docs/PERFORMANCE.md): for each example and each benchmark
# program (benches/programs.py), the median over RUNS runs of the wall-clock time of
# `symdbg run FILE --json` and of `symdbg run FILE --json --explain`, the ratio, and what
# --explain explained (pruned branches, explained leaves, Z3 calls with and without).
#
#   benches/explain_table.sh [RUNS] [BIN]   (default 5, target/release/symdbg)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
bin=${2:-target/release/symdbg}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 benches/programs.py "$dir"

measure() { # name file extra-args...
    local name=$1 file=$2; shift 2
    python3 - "$bin" "$runs" "$name" "$file" "$@" <<'PY'
import json, statistics, subprocess, sys, time
bin, runs, name, file, *extra = sys.argv[1:]
def one(flags):
    t = time.perf_counter()
    out = subprocess.run([bin, "run", file, "--json", *extra, *flags],
                         capture_output=True, check=True, timeout=300).stdout
    return 1000 * (time.perf_counter() - t), json.loads(out)
plain, explained = [], []
for _ in range(int(runs)):
    plain.append(one([]))
    explained.append(one(["--explain"]))
p = statistics.median(t for t, _ in plain)
e = statistics.median(t for t, _ in explained)
doc = explained[0][1]
nodes = doc["stats"]["nodes"]
pruned = sum(len(n["pruned"] or []) for n in doc["nodes"])
leaves = sum(1 for n in doc["nodes"] if n["explanation"])
z_plain = plain[0][1]["stats"]["z3_calls"]
z_expl = doc["stats"]["z3_calls"]
print(f"| {name} | {nodes} | {pruned} | {leaves} | {p:.1f} | {e:.1f} | {e / p:.2f}× | {z_plain} | {z_expl} |")
PY
}

echo "| program | nodes | pruned | leaves explained | ms plain (median of $runs) | ms --explain | ratio | Z3 calls plain | Z3 calls --explain |"
echo "|---|---|---|---|---|---|---|---|---|"
for f in examples/*.py; do
    measure "$(basename "$f")" "$f" --unroll 3 --max-nodes 5000
done
for u in 2 5 10; do measure "(a) search, unroll $u" "$dir/search.py" --unroll "$u"; done
for n in 6 8 10; do measure "(b) $n ifs" "$dir/ifs_$n.py"; done
for n in 6 8; do measure "(b') $n ifs + assert" "$dir/ifs_assert_$n.py"; done
for d in 1 2 4 6; do measure "(c) calls, depth $d" "$dir/calls_$d.py"; done
