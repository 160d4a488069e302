#!/usr/bin/env python3
"""Paired, interleaved runs of two binaries, CPU time (docs/PERFORMANCE.md, issue 30).

    benches/cpu_paired.py RUNS BIN_A BIN_B -- ARGS...

Runs BIN_A and BIN_B alternately (A B, B A, A B, ...) RUNS times each (stdout to
/dev/null) and prints the median CPU time (user + system, from the child's rusage: finer
than `/usr/bin/time`'s 10 ms) and peak RSS of each, the ratio B/A, and the load average at
the start and the end. CPU time is less sensitive to other processes than wall time, not immune to them:
trust the ratio of closely paired runs.
"""
import os
import statistics
import subprocess
import sys

runs = int(sys.argv[1])
bins = sys.argv[2:4]
args = sys.argv[5:]
load0 = os.getloadavg()[0]
cpu = {0: [], 1: []}
rss = {0: [], 1: []}
for i in range(runs):
    for k in (0, 1) if i % 2 == 0 else (1, 0):
        p = subprocess.Popen([bins[k]] + args, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        _, _, ru = os.wait4(p.pid, 0)
        u, s, m = ru.ru_utime, ru.ru_stime, ru.ru_maxrss
        cpu[k].append(float(u) + float(s))
        rss[k].append(int(m))
ca, cb = (statistics.median(cpu[k]) for k in (0, 1))
ra, rb = (statistics.median(rss[k]) for k in (0, 1))
print(f"{' '.join(args)} | A {ca:.3f} s {ra:.0f} KB | B {cb:.3f} s {rb:.0f} KB"
      f" | B/A {cb / ca:.3f} | load {load0:.1f}-{os.getloadavg()[0]:.1f}")
