#!/usr/bin/env python3
"""`run --json` against `run --tree` (issue 13, docs/PERFORMANCE.md).

    benches/modes.py RUNS BIN FILE ARGS...

Runs `BIN run FILE --tree ARGS` and `BIN run FILE --json ARGS` alternately (the order
reversed every other round), stdout to /dev/null, RUNS times each; prints the median wall
time of each, their ratio and the load average (the machines are shared: trust the ratio).
"""
import os
import statistics
import subprocess
import sys
import time

runs, binary, program = int(sys.argv[1]), sys.argv[2], sys.argv[3]
args = sys.argv[4:]
times = {"--tree": [], "--json": []}
for i in range(runs):
    for mode in ("--tree", "--json") if i % 2 == 0 else ("--json", "--tree"):
        start = time.perf_counter()
        subprocess.run([binary, "run", program, mode] + args,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times[mode].append((time.perf_counter() - start) * 1000)
tree, json = (statistics.median(times[m]) for m in ("--tree", "--json"))
print(f"{os.path.basename(program)} {' '.join(args)} | tree {tree:.1f} ms | json {json:.1f} ms"
      f" | json/tree {json / tree:.2f} | load {os.getloadavg()[0]:.1f}")
