"""Mutation score driver (tests/it/mutation.rs): python3 is the oracle.

argv: a JSON file {"original": path, "mutants": [path, ...], "tests": [path, ...],
"entry": name or null, "inputs": [{name: value}, ...]} (tuples as lists).
Prints one JSON line: for each mutant, [distinguishable, killed]:
- distinguishable: some random input makes the mutant end differently from the original
  (exception class, or final module variables / the entry's return value);
- killed: some test function of the generated test files fails on the mutant.
Every run has a budget of executed lines (a mutant may loop forever): past it, the run
ends as "budget" (a test that runs out of budget fails).
"""
import importlib.util
import json
import pathlib
import sys
import types

BUDGET = 20000


class Budget(Exception):
    pass


def run_source(path, entry, inputs):
    src = pathlib.Path(path).read_text(encoding="utf-8")
    try:
        code = compile(src, str(path), "exec")
    except SyntaxError:
        return ("syntax",)
    module = types.ModuleType("m")
    module.predicate = lambda f: f
    if entry is None:
        module.__dict__.update(inputs)
    left = [BUDGET]

    def tracer(frame, event, arg):
        if event == "line":
            left[0] -= 1
            if left[0] < 0:
                raise Budget()
        return tracer

    sys.settrace(tracer)
    try:
        exec(code, module.__dict__)
        if entry is not None:
            return ("return", repr(getattr(module, entry)(**inputs)))
        g = {k: repr(v) for k, v in module.__dict__.items()
             if not k.startswith("__") and isinstance(v, (int, bool, tuple))}
        return ("normal", sorted(g.items()))
    except Budget:
        return ("budget",)
    except Exception as e:  # the class is the outcome, as symdbg compares them
        return ("exception", type(e).__name__)
    finally:
        sys.settrace(None)


def load_tests(path):
    spec = importlib.util.spec_from_file_location(pathlib.Path(path).stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def killed(test_modules, mutant):
    for module, original in test_modules:
        module.SOURCE = pathlib.Path(mutant)
        try:
            for name in dir(module):
                if not name.startswith("test_"):
                    continue
                left = [BUDGET]

                def tracer(frame, event, arg):
                    if event == "line":
                        left[0] -= 1
                        if left[0] < 0:
                            raise Budget()
                    return tracer

                sys.settrace(tracer)
                try:
                    getattr(module, name)()
                except BaseException:  # a failed assert, an unexpected exception, Budget
                    return True
                finally:
                    sys.settrace(None)
        finally:
            module.SOURCE = original
    return False


def main():
    job = json.loads(pathlib.Path(sys.argv[1]).read_text())
    entry = job["entry"]
    inputs = [{k: tuple(v) if isinstance(v, list) else v for k, v in i.items()}
              for i in job["inputs"]]
    expected = [run_source(job["original"], entry, i) for i in inputs]
    tests = []
    for t in job["tests"]:
        m = load_tests(t)
        tests.append((m, m.SOURCE))
    original_killed = killed(tests, job["original"])
    out = []
    for mutant in job["mutants"]:
        if run_source(mutant, entry, inputs[0] if inputs else {}) == ("syntax",):
            out.append([False, False])
            continue
        differs = any(run_source(mutant, entry, i) != e for i, e in zip(inputs, expected))
        out.append([differs, killed(tests, mutant)])
    print(json.dumps({"original_fails": original_killed, "mutants": out}))


main()
