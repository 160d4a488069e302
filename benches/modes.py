#!/usr/bin/env python3
"""`run --json` against `run --tree` (issue 13, docs/PERFORMANCE.md).

    benches/modes.py RUNS BIN FILE ARGS...

Runs `BIN run FILE --tree ARGS` and `BIN run FILE --json ARGS` alternately (the order
reversed every other round), stdout to /dev/null, RUNS times each; prints the median wall
time and the median CPU time (user + system of the child, issue 30) of each, their ratios
and the load average (the machines are shared: trust the ratio, CPU time more than wall).
"""
import os
import resource
import statistics
import subprocess
import sys
import time


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


runs, binary, program = int(sys.argv[1]), sys.argv[2], sys.argv[3]
args = sys.argv[4:]
load0 = os.getloadavg()[0]
times = {"--tree": [], "--json": []}
cpus = {"--tree": [], "--json": []}
for i in range(runs):
    for mode in ("--tree", "--json") if i % 2 == 0 else ("--json", "--tree"):
        start, c = time.perf_counter(), cpu()
        subprocess.run([binary, "run", program, mode] + args,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times[mode].append((time.perf_counter() - start) * 1000)
        cpus[mode].append(cpu() - c)
tree, json = (statistics.median(times[m]) for m in ("--tree", "--json"))
ctree, cjson = (statistics.median(cpus[m]) for m in ("--tree", "--json"))
print(f"{os.path.basename(program)} {' '.join(args)} | tree {tree:.1f} ms | json {json:.1f} ms"
      f" | json/tree {json / tree:.2f} | CPU tree {ctree:.3f} s | CPU json {cjson:.3f} s"
      f" | CPU json/tree {cjson / ctree:.2f} | load {load0:.1f}-{os.getloadavg()[0]:.1f}")
