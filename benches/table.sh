#!/usr/bin/env bash
# Print the performance table of docs/PERFORMANCE.md: for each benchmark program, the
# median over RUNS runs of the run's time (exploration plus a model at every satisfiable
# leaf, as `run --json` reports it in stats.total_ms), time per node, nodes/s, solver checks
# per node, share of that time inside Z3, time per node outside Z3, peak RSS, and peak RSS
# per node above the fixed cost of a run (measured on a one-statement program).
#
#   benches/table.sh [RUNS]        (default 5; builds the release binary first)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
cargo build --release --quiet
bin=target/release/symdbg
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 benches/programs.py "$dir"
# The fixed cost of a run (process, Z3 context): peak RSS on a one-statement program.
echo "x: int" > "$dir/base.py"
/usr/bin/time -f '%M' -o "$dir/base_rss" "$bin" run "$dir/base.py" --json > /dev/null
base_kb=$(cat "$dir/base_rss")

measure() { # name file extra-args...
    local name=$1 file=$2; shift 2
    : > "$dir/rows"
    for _ in $(seq "$runs"); do
        /usr/bin/time -f '%M' -o "$dir/rss" "$bin" run "$file" --json --max-nodes 10000000 "$@" > "$dir/out.json"
        python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["stats"]
print(s["nodes"], s["solver_checks"], s["solver_ms"], s["total_ms"], sys.argv[2])
' "$dir/out.json" "$(cat "$dir/rss")" >> "$dir/rows"
    done
    python3 -c '
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[2]) if l.strip()]
med = lambda k: statistics.median(r[k] for r in rows)
nodes, checks, solver_ms, total_ms, rss_kb = (med(k) for k in range(5))
base_kb = float(sys.argv[3])
print(f"| {sys.argv[1]} | {int(nodes)} | {total_ms:.1f} | {1000 * total_ms / nodes:.3f} | "
      f"{nodes / (total_ms / 1000):,.0f} | {checks / nodes:.2f} | {100 * solver_ms / total_ms:.0f}% | "
      f"{1000 * (total_ms - solver_ms) / nodes:.1f} | {rss_kb / 1024:.0f} | "
      f"{1024 * max(rss_kb - base_kb, 0) / nodes:,.0f} |")
' "$name" "$dir/rows" "$base_kb"
}

echo "| program | nodes | ms (median of $runs) | µs/node | nodes/s | checks/node | time in Z3 | µs/node outside Z3 | peak MB | bytes/node above base |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for u in 2 5 10 20; do measure "(a) search, unroll $u" "$dir/search.py" --unroll "$u"; done
for n in 6 8 10 12 14; do measure "(b) $n ifs" "$dir/ifs_$n.py"; done
for d in 1 2 4 6; do measure "(c) calls, depth $d" "$dir/calls_$d.py"; done
