#!/usr/bin/env python3
"""The lines CPython executes, for symdbg's coverage tests (issue 29).

Reads one JSON object on stdin: {"sources": [src, ...], "cases": [[k, {"x": 1, "t": [1,
2]}], ...]} and optionally "entries": [null | "f", ...] (one per source); runs sources[k]
as a module once per case, its inputs in the globals (JSON arrays become tuples), or, with
an entry, as `symdbg --entry f` does (tests/py/run_python.py): the module without the
inputs, then `f(**inputs)`; with `sys.settrace`, and prints a JSON list with one result
per case: {"lines": [executed line numbers], "pairs": [[line, next line in the same
frame]], "exception": bool, "stopped": bool}.

minipy's verification statements are no Python: before compiling, a line that starts
(after its indentation) with `invariant ` becomes `pass` (line numbers stay; symdbg's
coverage treats an invariant failure as a cut, the program without its annotations goes
on), one with `requires ` an `assert` (a broken precondition ends the run, in symdbg an
exception leaf or, at the entry, no input), and `predicate` is a decorator that returns
its function.
"""

import io
import json
import sys

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)

NAME = "<symdbg-coverage>"

# Lines one run may execute before it is stopped: some corpus programs loop forever on some
# inputs (symdbg cuts those paths with `bound` leaves). The lines a stopped run executed
# were executed; it counts as not ending normally ("exception": true, "stopped": true).
MAX_LINES = 200_000


class Runaway(BaseException):
    """Raised by the tracer when a run has executed MAX_LINES lines."""


def to_python(v):
    if isinstance(v, list):
        return tuple(to_python(x) for x in v)
    return v


def python_text(src):
    out = []
    for line in src.split("\n"):
        body = line.lstrip()
        if body.startswith("invariant "):
            line = line[: len(line) - len(body)] + "pass"
        elif body.startswith("requires "):
            line = line[: len(line) - len(body)] + "assert " + body[len("requires ") :]
        out.append(line)
    return "\n".join(out)


def run(code, inputs, entry=None):
    lines = set()
    pairs = set()
    last = {}
    count = [0]

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != NAME:
            return None
        if event == "line":
            count[0] += 1
            if count[0] > MAX_LINES:
                raise Runaway()
            line = frame.f_lineno
            lines.add(line)
            prev = last.get(frame)
            if prev is not None:
                pairs.add((prev, line))
            last[frame] = line
        return tracer

    args = {k: to_python(v) for k, v in inputs.items()}
    g = {"predicate": lambda f: f}
    if entry is None:
        g.update(args)
    exception = False
    stopped = False
    real_stdout, sys.stdout = sys.stdout, io.StringIO()
    sys.settrace(tracer)
    try:
        exec(code, g)
        if entry is not None:
            g[entry](**args)
    except Exception:
        exception = True
    except Runaway:
        exception = stopped = True
    finally:
        sys.settrace(None)
        sys.stdout = real_stdout
    return {
        "lines": sorted(lines),
        "pairs": sorted(pairs),
        "exception": exception,
        "stopped": stopped,
    }


def main():
    req = json.load(sys.stdin)
    codes = [compile(python_text(s), NAME, "exec") for s in req["sources"]]
    entries = req.get("entries") or [None] * len(codes)
    out = [run(codes[k], inputs, entries[k]) for k, inputs in req["cases"]]
    json.dump(out, sys.stdout)


main()
