#!/usr/bin/env python3
"""Generate the benchmark programs of docs/PERFORMANCE.md into a directory.

  search_U.py   (a) linear search, symbolic needle and tuple, run with --unroll U
  ifs_N.py      (b) N independent ifs: 2^N paths
  ifs_assert_N.py   (b') the same with `assert s != N` at the end: one failing path
  ifs_assert_flipped_N.py   (b'') `assert s != 0`: only the all-else path fails, the
                    last one in the walk's order (issue 30; benches/first_cex.py)
  calls_D.py    (c) nested calls: a chain of clamp/max calls D deep, plus recursion

Usage: benches/programs.py OUTDIR
"""
import os
import sys

SEARCH = """\
def find(needle: int, haystack: tuple) -> int:
    i = 0
    while i < len(haystack):
        if haystack[i] == needle:
            return i
        i = i + 1
    return -1


x: int
t: tuple
r = find(x, t)
"""


def ifs(n, with_assert, fails_at=None):
    lines = [f"x{i}: int" for i in range(n)]
    lines.append("s = 0")
    for i in range(n):
        lines.append(f"if x{i} > 0:")
        lines.append("    s += 1")
    if with_assert:
        lines.append(f"assert s != {n if fails_at is None else fails_at}")
    return "\n".join(lines) + "\n"


def calls(depth):
    out = [
        "def clamp(v: int, lo: int, hi: int) -> int:",
        "    if v < lo:",
        "        return lo",
        "    if v > hi:",
        "        return hi",
        "    return v",
        "",
        "",
        "def sum_to(n: int) -> int:",
        "    if n <= 0:",
        "        return 0",
        "    return n + sum_to(n - 1)",
        "",
        "",
        "x: int",
        "y: int",
        "v = x",
    ]
    for k in range(depth):
        out.append(f"v = max(clamp(v, -{k + 1}, {k + 1}), y)")
    out.append("s = sum_to(y)")
    return "\n".join(out) + "\n"


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)

    def write(name, text):
        with open(os.path.join(outdir, name), "w") as f:
            f.write(text)

    write("search.py", SEARCH)
    for n in (6, 8, 10, 12, 14, 16, 18):
        write(f"ifs_{n}.py", ifs(n, False))
        write(f"ifs_assert_{n}.py", ifs(n, True))
        write(f"ifs_assert_flipped_{n}.py", ifs(n, True, 0))
    for d in (1, 2, 4, 6):
        write(f"calls_{d}.py", calls(d))


if __name__ == "__main__":
    main()
