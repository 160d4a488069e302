#!/usr/bin/env python3
"""The first counterexample whatever the branch order (issue 30 item 1, docs/PERFORMANCE.md).

    benches/first_cex.py RUNS BIN_A BIN_B [N ...]

For each N (default 16 18), writes programs of N independent ifs (benches/programs.py's
shape (b')): `natural` (`assert s != N`: the all-then path fails, the walk's first),
`flipped` (`assert s != 0`: only the all-else path fails, the walk's last) and
`flipped+loops` (flipped, with a loop over an input before the ifs and `while j < s` after
them), then runs `BIN run PROGRAM --counterexamples --first --max-nodes 10000000` (and
the same with `--fold auto`: "natural/fold" etc.; FIRST_CEX_FOLD=0 leaves those out)
with BIN_A and BIN_B
alternately (A B, B A, ...) RUNS times each and prints the median CPU time (user + system,
from getrusage of the finished child) of each, the ratio B/A, whether both printed the same
counterexample, and the load average (the machines are shared: CPU time is the figure).
"""
import os
import resource
import statistics
import subprocess
import sys
import tempfile


def ifs(n, cond):
    lines = [f"x{i}: int" for i in range(n)]
    lines.append("s = 0")
    for i in range(n):
        lines.append(f"if x{i} > 0:")
        lines.append("    s += 1")
    lines.append(f"assert {cond}")
    return "\n".join(lines) + "\n"


def ifs_loops(n):
    lines = [f"x{i}: int" for i in range(n)] + ["y: int", "i = 0", "while i < y:", "    i += 1"]
    lines.append("s = 0")
    for i in range(n):
        lines.append(f"if x{i} > 0:")
        lines.append("    s += 1")
    lines += ["j = 0", "while j < s:", "    j += 1", "assert s + j != 0"]
    return "\n".join(lines) + "\n"


def cpu_run(argv):
    """(CPU seconds of the child, its stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, p.stdout


def main():
    runs = int(sys.argv[1])
    bins = sys.argv[2:4]
    sizes = [int(a) for a in sys.argv[4:]] or [16, 18]
    with tempfile.TemporaryDirectory() as d:
        for n in sizes:
            programs = (
                ("natural", ifs(n, f"s != {n}")),
                ("flipped", ifs(n, "s != 0")),
                ("flipped+loops", ifs_loops(n)),
            )
            folds = ([], ["--fold", "auto"]) if os.environ.get("FIRST_CEX_FOLD") != "0" else ([],)
            for (name, text), fold in ((p, f) for f in folds for p in programs):
                path = os.path.join(d, f"{name}_{n}.py")
                with open(path, "w") as f:
                    f.write(text)
                if fold:
                    name += "/fold"
                args = ["run", path, "--counterexamples", "--first", "--max-nodes", "10000000"]
                args += fold
                times = ([], [])
                outs = (set(), set())
                for i in range(runs):
                    for k in (0, 1) if i % 2 == 0 else (1, 0):
                        cpu, out = cpu_run([bins[k]] + args)
                        times[k].append(cpu)
                        outs[k].add(out.replace(d, ""))
                ma, mb = (statistics.median(t) for t in times)
                same = "same" if outs[0] == outs[1] and len(outs[0]) == 1 else "DIFFERENT"
                ratio = f"{mb / ma:.3f}" if ma > 0 else "-"
                print(f"{name} N={n} | A {ma:.3f} CPU-s | B {mb:.3f} CPU-s | B/A {ratio}"
                      f" | output {same} | load {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
