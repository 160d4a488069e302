#!/usr/bin/env bash
# Print the performance table of docs/PERFORMANCE.md: for each benchmark program, the
# median over RUNS runs of wall time, nodes, nodes/s, solver checks per node, share of wall
# time inside Z3, time per node outside Z3, and peak memory per node.
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

measure() { # name file extra-args...
    local name=$1 file=$2; shift 2
    for _ in $(seq "$runs"); do
        /usr/bin/time -f '%M' -o "$dir/rss" "$bin" run "$file" --json --max-nodes 10000000 "$@" > "$dir/out.json"
        python3 - "$dir/out.json" "$(cat "$dir/rss")" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["stats"]
print(s["nodes"], s["solver_checks"], s["solver_ms"], s["total_ms"], sys.argv[2])
PY
    done | python3 - "$name" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
name = sys.argv[1]
med = lambda k: statistics.median(r[k] for r in rows)
nodes, checks, solver_ms, total_ms, rss_kb = (med(k) for k in range(5))
print(f"| {name} | {int(nodes)} | {total_ms:.1f} | {nodes / (total_ms / 1000):,.0f} | "
      f"{checks / nodes:.2f} | {100 * solver_ms / total_ms:.0f}% | "
      f"{1000 * (total_ms - solver_ms) / nodes:.1f} | {1024 * rss_kb / nodes:,.0f} |")
PY
}

echo "| program | nodes | wall ms (median of $runs) | nodes/s | checks/node | time in Z3 | µs/node outside Z3 | peak bytes/node |"
echo "|---|---|---|---|---|---|---|---|"
for u in 2 5 10 20; do measure "(a) search, unroll $u" "$dir/search.py" --unroll "$u"; done
for n in 6 8 10 12 14; do measure "(b) $n ifs" "$dir/ifs_$n.py"; done
for d in 1 2 4 6; do measure "(c) calls, depth $d" "$dir/calls_$d.py"; done
