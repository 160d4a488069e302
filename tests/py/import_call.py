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
import os
import sys

# The conversions and the traceback position are run_python.py's (the other oracle).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_python import identity, position, to_json, to_python  # noqa: E402


def failed(e, src):
    line, col = position(e, src)
    return {"outcome": "exception", "exception": type(e).__name__, "line": line,
            "col": col, "return_value": None}


def main():
    path, entry, raw = sys.argv[1], sys.argv[2], sys.stdin.read()
    inputs = {k: to_python(v) for k, v in json.loads(raw).items()}
    with open(path, encoding="utf-8") as fh:
        src = fh.read()
    if entry == "-":
        # The inputs last: an input may be named `__name__` or `predicate`.
        g = {"__name__": "__main__", "predicate": identity, **inputs}
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
