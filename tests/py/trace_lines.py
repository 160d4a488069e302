#!/usr/bin/env python3
"""The lines CPython executes, for symdbg's coverage tests (issue 29).

Reads one JSON object on stdin: {"sources": [src, ...], "cases": [[k, {"x": 1, "t": [1,
2]}], ...]}; runs sources[k] as a module once per case, its inputs in the globals (JSON
arrays become tuples), with `sys.settrace`, and prints a JSON list with one result per
case: {"lines": [executed line numbers], "pairs": [[line, next line in the same frame]],
"exception": bool}.
"""

import json
import sys

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)

NAME = "<symdbg-coverage>"


def to_python(v):
    if isinstance(v, list):
        return tuple(to_python(x) for x in v)
    return v


def run(code, inputs):
    lines = set()
    pairs = set()
    last = {}

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != NAME:
            return None
        if event == "line":
            line = frame.f_lineno
            lines.add(line)
            prev = last.get(frame)
            if prev is not None:
                pairs.add((prev, line))
            last[frame] = line
        return tracer

    g = {k: to_python(v) for k, v in inputs.items()}
    exception = False
    sys.settrace(tracer)
    try:
        exec(code, g)
    except Exception:
        exception = True
    finally:
        sys.settrace(None)
    return {"lines": sorted(lines), "pairs": sorted(pairs), "exception": exception}


def main():
    req = json.load(sys.stdin)
    codes = [compile(s, NAME, "exec") for s in req["sources"]]
    out = [run(codes[k], inputs) for k, inputs in req["cases"]]
    json.dump(out, sys.stdout)


main()
