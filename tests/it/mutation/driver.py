"""Mutation score driver (tests/it/mutation.rs): python3 is the oracle.

argv: a JSON file {"original": path, "mutants": [path, ...], "tests": [path, ...],
"entry": name or null, "inputs": [{name: value}, ...]} (tuples as lists).
Prints one JSON line: for each mutant, [distinguishable, killed]:
- distinguishable: some random input makes the mutant end differently from the original
  (exception class, or final module variables / the entry's return value);
- killed: some test function of the generated test files fails on the mutant.
Every run has a budget of executed lines (a mutant may loop forever): past it, the run
ends as "budget" (a test that runs out of budget fails). A test's budget on a mutant is ten
times what it executed on the original (at least BUDGET): a test on a large input (a model
the minimiser could not shrink on a busy machine) is slow, not wrong.
"""
import importlib.util
import json
import pathlib
import sys
import types

BUDGET = 20000
# The original's tests: generous (their inputs may be large), never a loop that does not end.
ORIGINAL_BUDGET = 5000000


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


def run_test(function, budget):
    """Run one test function within `budget` executed lines: (passed, lines executed)."""
    left = [budget]

    def tracer(frame, event, arg):
        if event == "line":
            left[0] -= 1
            if left[0] < 0:
                raise Budget()
        return tracer

    sys.settrace(tracer)
    try:
        function()
        return True, budget - left[0]
    except BaseException:  # a failed assert, an unexpected exception, Budget
        return False, budget - left[0]
    finally:
        sys.settrace(None)


def killed(test_modules, mutant, budgets):
    """Does some test fail on `mutant`? `budgets`: each test's line budget, by (module
    index, name); filled in with ten times what the test executed when it is None (the
    original's run)."""
    original = budgets is None
    used = {}
    for k, (module, source) in enumerate(test_modules):
        module.SOURCE = pathlib.Path(mutant)
        try:
            for name in dir(module):
                if not name.startswith("test_"):
                    continue
                budget = ORIGINAL_BUDGET if original else budgets[(k, name)]
                passed, lines = run_test(getattr(module, name), budget)
                used[(k, name)] = max(BUDGET, 10 * lines)
                if not passed:
                    return True, used
        finally:
            module.SOURCE = source
    return False, used


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
    original_killed, budgets = killed(tests, job["original"], None)
    out = []
    for mutant in job["mutants"]:
        if run_source(mutant, entry, inputs[0] if inputs else {}) == ("syntax",):
            out.append([False, False])
            continue
        differs = any(run_source(mutant, entry, i) != e for i, e in zip(inputs, expected))
        out.append([differs, killed(tests, mutant, budgets)[0]])
    print(json.dumps({"original_fails": original_killed, "mutants": out}))


main()
