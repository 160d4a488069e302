#!/usr/bin/env python3
"""CPython's answer for one run, for tests/it/trust.rs.

    python3 import_call.py FILE ENTRY|- < INPUTS_JSON

ENTRY `-`: a module run (the inputs are put into the globals, as run_python.py does).
ENTRY `f`: `import module; module.f(**inputs)` (the module is imported from FILE).
`@predicate` is minipy syntax; the harness defines `predicate` as the identity decorator.
Prints one JSON object: {"outcome", "exception", "line", "col", "return_value"}, where
line/col (1-based) are where CPython 3.11's traceback marks the innermost frame's raise
(the column in characters, as symdbg and editors count them; CPython counts bytes).
"""

import importlib.util
import json
import sys


def to_python(v):
    return tuple(v) if isinstance(v, list) else v


def to_json(v):
    return list(v) if isinstance(v, tuple) else v


def failed(e, src):
    tb = e.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    line, col = tb.tb_lineno, None
    positions = list(tb.tb_frame.f_code.co_positions())
    index = tb.tb_lasti // 2
    if index < len(positions) and positions[index][2] is not None:
        # CPython's column counts UTF-8 bytes; symdbg's (an editor's) counts characters.
        line, byte_col = positions[index][0], positions[index][2]
        lines = src.encode("utf-8").split(b"\n")
        text = lines[line - 1] if 0 < line <= len(lines) else b""
        col = len(text[:byte_col].decode("utf-8", errors="replace")) + 1
    return {"outcome": "exception", "exception": type(e).__name__, "line": line,
            "col": col, "return_value": None}


def main():
    path, entry, raw = sys.argv[1], sys.argv[2], sys.stdin.read()
    inputs = {k: to_python(v) for k, v in json.loads(raw).items()}
    identity = lambda f: f  # noqa: E731
    with open(path, encoding="utf-8") as fh:
        src = fh.read()
    if entry == "-":
        g = dict(inputs, __name__="__main__", predicate=identity)
        code = compile(src, path, "exec")
        try:
            exec(code, g)
        except Exception as e:  # noqa: BLE001
            print(json.dumps(failed(e, src)))
            return
        print(json.dumps({"outcome": "normal", "exception": None, "line": None,
                          "col": None, "return_value": None}))
        return
    spec = importlib.util.spec_from_file_location("module", path)
    module = importlib.util.module_from_spec(spec)
    module.predicate = identity
    try:
        spec.loader.exec_module(module)
        value = getattr(module, entry)(**inputs)
    except Exception as e:  # noqa: BLE001
        print(json.dumps(failed(e, src)))
        return
    print(json.dumps({"outcome": "return", "exception": None, "line": None, "col": None,
                      "return_value": to_json(value)}))


if __name__ == "__main__":
    main()
