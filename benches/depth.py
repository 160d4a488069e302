#!/usr/bin/env python3
"""Per-node cost against depth (issue 13, docs/PERFORMANCE.md "A flat engine on deep paths").

    benches/depth.py RUNS DIR BIN...

DIR holds the programs of `benches/programs.py DIR`. For each binary, runs `base.py` (the
fixed cost of a run) and the linear search at `--unroll 80` and `640` under
`perf stat -e task-clock` (CPU time), all commands interleaved, the order reversed every
other round; prints the medians, the cost per node with the base subtracted and the ratio
of unroll 640 to unroll 80 per node (the goal: at most 1.3).
"""
import os
import statistics
import subprocess
import sys

runs, d, bins = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
cases = [("base", [f"{d}/base.py"]), ("u80", [f"{d}/search.py", "--unroll", "80"]),
         ("u640", [f"{d}/search.py", "--unroll", "640"])]
nodes = {"u80": 566, "u640": 4486}
res = {(b, c): [] for b in bins for c, _ in cases}
for i in range(runs):
    order = [(b, c, a) for b in bins for c, a in cases]
    if i % 2:
        order.reverse()
    for b, c, a in order:
        p = subprocess.run(["perf", "stat", "-x,", "-e", "task-clock", b, "run"] + a
                           + ["--counterexamples", "--max-nodes", "10000000"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        line = [l for l in p.stderr.splitlines() if "task-clock" in l][0]
        res[(b, c)].append(float(line.split(",")[0]))
for b in bins:
    m = {c: statistics.median(res[(b, c)]) for c, _ in cases}
    per = {c: (m[c] - m["base"]) * 1000 / nodes[c] for c in nodes}
    print(f"{b}: base {m['base']:.1f} ms, u80 {m['u80']:.1f} ms, u640 {m['u640']:.1f} ms; "
          f"per node u80 {per['u80']:.1f} us, u640 {per['u640']:.1f} us, "
          f"ratio {per['u640'] / per['u80']:.2f}")
print(f"load {os.getloadavg()[0]:.1f}")
