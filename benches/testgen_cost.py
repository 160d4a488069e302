#!/usr/bin/env python3
"""testgen's CPU time per program, and whether two binaries write the same tests.

    benches/testgen_cost.py OUTDIR BIN [BIN_B] [--runs N] [--dir DIR] [--only NAME...]

For each program of DIR (default tests/data/mutation; its `# entry: f` line gives
`--entry`), runs `BIN testgen FILE --unroll 4` in both modes (`--fold off` and
`--fold auto`) and both formats (pytest and jsonl), and prints the CPU time (user + system
of the child, median of N runs, pytest format) per program and mode, and the totals. With
BIN_B the runs are paired (A B, B A, ...) and every output file of B is compared byte for
byte with A's: a difference is listed and the exit status is 1. OUTDIR/a and OUTDIR/b
hold the files (each written as OUTDIR/x/NAME, then moved: the same header).
"""
import os
import re
import statistics
import subprocess
import sys


def main():
    args = sys.argv[1:]
    runs, src, only = 1, "tests/data/mutation", []
    pos = []
    i = 0
    while i < len(args):
        if args[i] == "--runs":
            runs = int(args[i + 1])
            i += 2
        elif args[i] == "--dir":
            src = args[i + 1]
            i += 2
        elif args[i] == "--only":
            only = args[i + 1:]
            break
        else:
            pos.append(args[i])
            i += 1
    out, bins = pos[0], pos[1:]
    load0 = os.getloadavg()[0]
    progs = sorted(f for f in os.listdir(src) if f.endswith(".py"))
    if only:
        progs = [p for p in progs if p[:-3] in only or p in only]
    totals = [[0.0] * len(bins) for _ in range(2)]
    diffs = []
    for p in progs:
        path = os.path.abspath(os.path.join(src, p))
        text = open(path).read()
        m = re.search(r"^# entry: (\w+)", text, re.M)
        entry = ["--entry", m.group(1)] if m else []
        row = [p[:-3]]
        for mode, fold in enumerate(["off", "auto"]):
            cpu = [[] for _ in bins]
            files = []
            for r in range(runs):
                order = range(len(bins)) if r % 2 == 0 else reversed(range(len(bins)))
                for k in order:
                    d = os.path.join(out, "ab"[k])
                    os.makedirs(d, exist_ok=True)
                    # (written in OUTDIR/x, then moved: the header names the output)
                    x = os.path.join(out, "x")
                    os.makedirs(x, exist_ok=True)
                    for fmt in ("pytest", "jsonl"):
                        if fmt == "jsonl" and r > 0:
                            continue
                        name = f"test_{p[:-3]}_{fold}.{'py' if fmt == 'pytest' else 'jsonl'}"
                        o = os.path.join(x, name)
                        for f in (o, os.path.join(d, name)):
                            if os.path.exists(f):
                                os.remove(f)
                        cmd = [bins[k], "testgen", path, "--unroll", "4", "--fold", fold,
                               "--format", fmt, "-o", o, "--force"] + entry
                        pr = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                              stderr=subprocess.PIPE)
                        _, status, ru = os.wait4(pr.pid, 0)
                        pr.stderr.close()
                        if os.path.exists(o):
                            os.replace(o, os.path.join(d, name))
                        if fmt == "pytest":
                            cpu[k].append(ru.ru_utime + ru.ru_stime)
                        if k == 0 and r == 0:
                            files.append(name)
            meds = [statistics.median(c) for c in cpu]
            for k, v in enumerate(meds):
                totals[mode][k] += v
            row.append(" ".join(f"{v:7.3f}" for v in meds))
            if len(bins) == 2:
                for f in files:
                    a, b = (os.path.join(out, k, f) for k in "ab")
                    if not (os.path.exists(a) and os.path.exists(b)) or \
                            open(a, "rb").read() != open(b, "rb").read():
                        diffs.append(f)
        print(f"{row[0]:18} off {row[1]} | auto {row[2]}", flush=True)
    for mode, fold in enumerate(["off", "auto"]):
        print(f"total --fold {fold}: " + " ".join(f"{v:.2f}" for v in totals[mode]))
    both = [totals[0][k] + totals[1][k] for k in range(len(bins))]
    print("total both modes: " + " ".join(f"{v:.2f}" for v in both)
          + (f" | B/A {both[1] / both[0]:.3f}" if len(bins) == 2 else "")
          + f" | load {load0:.1f}-{os.getloadavg()[0]:.1f}")
    if diffs:
        print("DIFFERENT OUTPUT: " + " ".join(diffs))
        sys.exit(1)
    if len(bins) == 2:
        print(f"same output: all {len(progs) * 4} files")


main()
