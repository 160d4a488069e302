#!/usr/bin/env python3
"""Paired, interleaved runs of two binaries on the same arguments (docs/PERFORMANCE.md).

    benches/paired.py RUNS BIN_A BIN_B -- ARGS...

Runs BIN_A and BIN_B alternately (A B, B A, A B, ...) RUNS times each under
`/usr/bin/time -f %M`, and prints the median wall time and peak RSS of each and the ratio
B/A, with the load average at the end (the machines are shared: trust the ratio).
"""
import os
import statistics
import subprocess
import sys
import time

runs = int(sys.argv[1])
bins = sys.argv[2:4]
args = sys.argv[5:]
res = {i: ([], []) for i in range(2)}
for i in range(runs):
    for k in (0, 1) if i % 2 == 0 else (1, 0):
        t = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", bins[k]] + args,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        res[k][0].append((time.perf_counter() - t) * 1000)
        res[k][1].append(int(p.stderr.strip().splitlines()[-1]))
ma, mb = (statistics.median(res[k][0]) for k in (0, 1))
ra, rb = (statistics.median(res[k][1]) for k in (0, 1))
print(f"{' '.join(args)} | A {ma:.1f} ms {ra:.0f} KB | B {mb:.1f} ms {rb:.0f} KB"
      f" | B/A {mb / ma:.3f} | load {os.getloadavg()[0]:.1f}")
