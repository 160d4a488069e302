#!/usr/bin/env python3
"""The CPython oracle for symdbg's differential tests.

Reads one JSON request on stdin:

    {"file": "tests/data/programs/x.py", "entry": null | "f",
     "inputs": [ {"x": 3, "t": [1, 2], "b": true}, ... ]}

and runs the program once per input set, in this one Python process. Tuples arrive as JSON
arrays and are passed to the program as Python tuples.

- Module run (`entry` null): the inputs are put into a fresh globals dict and the module is
  executed with `exec(compile(src, path, "exec"), globals)`.
- Entry run (`entry` "f"): what `import module; module.f(**inputs)` does, as `symdbg exec
  --entry f` does (symdbg's src/lang/entry.rs): the whole module runs first in a fresh
  globals dict without the inputs (a declared input `x: int` binds nothing, so top-level
  code reading it raises NameError), then `f(**inputs)` is called. If the module raises,
  the import fails: that exception is the result, and the store is the module's globals.

Prints a JSON list with one result per input set, in the shape of `symdbg exec --json`:

    {"outcome": "normal" | "return" | "exception" | "timeout",
     "exception": null | "IndexError",
     "store": {...},        # module run: module globals that are int/bool/tuple (no dunders,
                            # no functions); entry run: the entry frame's locals at its exit
                            # (the module globals if the import failed)
     "return_value": null | value,   # entry run only
     "line": null | n, "col": null | n,  # exception: where CPython 3.11's traceback marks
                                         # the raise in the innermost frame (1-based; the
                                         # column in characters, as symdbg counts them)
     "trace": [],
     "stdout": "..."}       # what the run printed (sys.stdout captured), byte for byte

`timeout` is not a symdbg outcome: the program ran longer than the request's
`time_limit` (seconds, default TIME_LIMIT); a corpus program must never do that.

A batch is a JSON list of such requests; the answer is then the list of their answers (one
process for many programs). Recursion: the recursion limit is set so that the
executed module's frame is frame 1 of 1000, as when a script runs under `python3 prog.py`;
the corpus avoids depths anywhere near that limit anyway (only tiny or unbounded recursion).
"""

import contextlib
import io
import json
import signal
import sys

RECURSION_LIMIT = 1000
TIME_LIMIT = 10.0

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)


class Timeout(BaseException):
    """Raised by the alarm; a BaseException so that `except Exception` in a program does not
    swallow it. A bare `except:` still could: the alarm keeps firing every 50 ms until the
    run is over, and the run counts as timed out whatever happened after the first alarm."""


ALARM = {"fired": False}


def on_alarm(signum, frame):
    ALARM["fired"] = True
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    raise Timeout()


def to_python(value):
    if isinstance(value, list):
        return tuple(to_python(v) for v in value)
    return value


def to_json(value):
    if isinstance(value, tuple):
        return [to_json(v) for v in value]
    return value


def is_value(value):
    # bool is a subclass of int; both are kept (json.dumps keeps True as true).
    if isinstance(value, (bool, int)):
        return True
    return isinstance(value, tuple) and all(isinstance(v, int) for v in value)


def snapshot(names):
    return {
        k: to_json(v)
        for k, v in sorted(names.items())
        if not (k.startswith("__") and k.endswith("__")) and is_value(v)
    }


def identity(f):
    """`@predicate` is minipy syntax; in Python it is the identity decorator."""
    return f


def position(e, src):
    """(line, col) where CPython 3.11's traceback marks `e`'s raise: the innermost frame's
    instruction position (co_positions; the byte column becomes a character column)."""
    tb = e.__traceback__
    if tb is None:
        return None, None
    while tb.tb_next is not None:
        tb = tb.tb_next
    line, col = tb.tb_lineno, None
    positions = list(tb.tb_frame.f_code.co_positions())
    index = tb.tb_lasti // 2
    if index < len(positions) and positions[index][2] is not None:
        line, byte_col = positions[index][0], positions[index][2]
        lines = src.encode("utf-8").split(b"\n")
        text = lines[line - 1] if 0 < line <= len(lines) else b""
        col = len(text[:byte_col].decode("utf-8", errors="replace")) + 1
    return line, col


def depth():
    """Number of Python frames on the stack, this one included."""
    n, f = 0, sys._getframe()
    while f is not None:
        n, f = n + 1, f.f_back
    return n


def failure(result, e, src):
    result["outcome"] = "exception"
    result["exception"] = type(e).__name__
    result["line"], result["col"] = position(e, src)


def module_run(code, src, inputs):
    # The inputs last: an input may be named `__name__` or `predicate`.
    g = {"__name__": "__main__", "predicate": identity}
    g.update(inputs)
    result = {"outcome": "normal", "exception": None, "return_value": None,
              "line": None, "col": None}
    # Calibrated against `python3 prog.py` (3.11): a script's module frame counts as frame 1
    # of 1000; here the exec() call costs one more level than the frames depth() sees.
    sys.setrecursionlimit(RECURSION_LIMIT + depth())
    try:
        exec(code, g)
    except Exception as e:  # noqa: BLE001 - every program exception is a result
        failure(result, e, src)
    finally:
        sys.setrecursionlimit(RECURSION_LIMIT + 50)
    result["store"] = snapshot(g)
    return result


def entry_run(code, src, entry, inputs):
    # An imported module's name is not "__main__"; minipy cannot tell the difference.
    g = {"__name__": "module", "predicate": identity}
    result = {"outcome": "return", "exception": None, "return_value": None, "store": {},
              "line": None, "col": None}
    # The module frame counts as frame 1, as in a module run.
    sys.setrecursionlimit(RECURSION_LIMIT + depth())
    try:
        exec(code, g)
    except Exception as e:  # noqa: BLE001 - the import fails: that is the result
        failure(result, e, src)
        result["store"] = snapshot(g)
        return result
    finally:
        sys.setrecursionlimit(RECURSION_LIMIT + 50)
    f = g.get(entry)
    if f is None or not callable(f):
        raise SystemExit(f"run_python.py: no function {entry!r}")
    # The entry frame will stand at depth() and must count as frame 2 (frame 1 is the module
    # frame of a script).
    sys.setrecursionlimit(RECURSION_LIMIT + depth() - 2)
    try:
        value = f(**inputs)
    except Exception as e:  # noqa: BLE001
        sys.setrecursionlimit(RECURSION_LIMIT + 50)
        failure(result, e, src)
        # The entry frame's locals at the moment the exception left it: the first traceback
        # entry that runs the entry function's code is the outermost call.
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code is not f.__code__:
            tb = tb.tb_next
        if tb is not None:
            result["store"] = snapshot(tb.tb_frame.f_locals)
        return result
    sys.setrecursionlimit(RECURSION_LIMIT + 50)
    result["return_value"] = to_json(value)
    result["store"] = entry_locals_at_return(f, inputs)
    return result


def entry_locals_at_return(f, inputs):
    """Run `f` again (programs are deterministic) under a profiler that snapshots the
    outermost entry frame's locals when it returns. A second run keeps the profiler out of
    the first one, whose recursion depth must not be disturbed."""
    state = {"frame": None, "locals": {}}

    def prof(frame, event, arg):
        if frame.f_code is not f.__code__:
            return
        if event == "call" and state["frame"] is None:
            state["frame"] = frame
        elif event == "return" and frame is state["frame"]:
            state["locals"] = snapshot(frame.f_locals)

    sys.setprofile(prof)
    try:
        # (the first run's output is the result's; this one's is dropped)
        with contextlib.redirect_stdout(io.StringIO()):
            f(**inputs)
    finally:
        sys.setprofile(None)
    return state["locals"]


TIMED_OUT = {"outcome": "timeout", "exception": None, "return_value": None, "store": {},
             "line": None, "col": None}


def run_one(code, src, entry, inputs, time_limit):
    ALARM["fired"] = False
    out = io.StringIO()
    try:
        signal.setitimer(signal.ITIMER_REAL, time_limit)
        try:
            with contextlib.redirect_stdout(out):
                if entry is None:
                    result = module_run(code, src, inputs)
                else:
                    result = entry_run(code, src, entry, inputs)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except Timeout:
        return dict(TIMED_OUT)
    if ALARM["fired"]:
        return dict(TIMED_OUT)
    result["stdout"] = out.getvalue()
    return result


def answer(request):
    path = request["file"]
    entry = request.get("entry")
    with open(path, encoding="utf-8") as fh:
        src = fh.read()
    code = compile(src, path, "exec")
    time_limit = float(request.get("time_limit", TIME_LIMIT))
    results = []
    for raw in request["inputs"]:
        inputs = {k: to_python(v) for k, v in raw.items()}
        r = run_one(code, src, entry, inputs, time_limit)
        r["trace"] = []
        results.append(r)
    return results


def main():
    request = json.load(sys.stdin)
    signal.signal(signal.SIGALRM, on_alarm)
    if isinstance(request, list):
        out = [answer(r) for r in request]
    else:
        out = answer(request)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
