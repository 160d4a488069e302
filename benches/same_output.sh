#!/bin/bash
# benches/same_output.sh BIN OUTDIR: run every program of examples/ and tests/data/programs/
# in five modes with BIN, timings masked, into OUTDIR; compare two binaries' OUTDIRs with
# `diff -r` (outputs, stderr and exit codes must be byte-identical; docs/PERFORMANCE.md).
BIN=$(realpath "$1"); OUT=$2; mkdir -p "$OUT"; OUT=$(realpath "$OUT")
MODES=("--json" "--json --explain" "--json --fold auto" "--counterexamples" "--tree")
cd "$(dirname "$0")/.."
for f in $(find examples tests/data/programs -name '*.py' | sort); do
  name=$(echo "$f" | tr '/' '_')
  for mode in "${MODES[@]}"; do
    m=$(echo "$mode" | tr ' ' '_')
    # shellcheck disable=SC2086
    timeout 30 "$BIN" run "$f" $mode --max-nodes 3000 > "$OUT/$name$m.out" 2> "$OUT/$name$m.err"
    echo "rc=$?" >> "$OUT/$name$m.err"
    sed -i -E 's/"(solver_ms|total_ms)":[0-9.e+-]+/"\1":T/g' "$OUT/$name$m.out"
  done
done
