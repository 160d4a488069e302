#!/usr/bin/env python3
"""Python-only sanity check of the differential corpus (no symdbg needed).

For every tests/data/programs/*.py (or the files given on the command line):
- a rough minipy check with Python's `ast`: only minipy constructs, conditions are bool,
  arithmetic on ints, one type per variable, declared inputs or `# entry: f`;
- runs it through run_python.py on generated inputs and reports the outcomes, failing on
  timeouts and on exception classes a minipy program cannot raise (TypeError, ...).

    python3 tests/py/check_corpus.py [-v] [files...]

The real type checker is symdbg's; this only catches corpus mistakes early.
"""

import ast
import glob
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MINIPY_EXC = {
    "ZeroDivisionError", "IndexError", "AssertionError", "RecursionError", "NameError",
    "UnboundLocalError", "ValueError",
}
EXC_CLASSES = MINIPY_EXC | {
    "BaseException", "Exception", "ArithmeticError", "LookupError", "RuntimeError",
    "OverflowError", "KeyError", "TypeError",
}
BUILTINS = {"len": ("tuple",), "abs": ("int",), "min": ("int", "int"), "max": ("int", "int")}
ANN = {"int", "bool", "tuple"}


class Checker:
    def __init__(self, path, tree):
        self.path = path
        self.tree = tree
        self.errors = []
        self.globals = {}
        self.functions = {}
        self.final = False

    def err(self, node, msg):
        if self.final:
            self.errors.append(f"{self.path}:{getattr(node, 'lineno', 0)}: {msg}")

    def ann(self, node):
        if node is None:
            return None
        if isinstance(node, ast.Constant) and node.value is None:
            return None
        if isinstance(node, ast.Name) and node.id in ANN:
            return node.id
        self.err(node, "bad annotation")
        return None

    def run(self):
        for s in self.tree.body:
            if isinstance(s, ast.FunctionDef):
                if s.decorator_list:
                    self.err(s, "decorators are not Python-runnable")
                params = []
                for a in s.args.args:
                    if a.annotation is None:
                        self.err(a, f"parameter {a.arg} not annotated")
                    params.append((a.arg, self.ann(a.annotation)))
                self.functions[s.name] = (params, self.ann(s.returns))
        # Fixpoint over variable types, then one final pass that reports errors.
        for final in (False, False, False, True):
            self.final = final
            self.block(self.tree.body, None, False)
            for s in self.tree.body:
                if isinstance(s, ast.FunctionDef):
                    self.function(s)
        return self.errors

    def function(self, f):
        params, ret = self.functions[f.name]
        scope = {"locals": dict(params), "assigned": set(p for p, _ in params), "ret": ret}
        for n in ast.walk(f):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                scope["assigned"].add(n.id)
        for n in f.body:
            if isinstance(n, ast.FunctionDef):
                self.err(n, "nested def")
        self.block(f.body, scope, False)
        if ret is not None and not self.ends_in_return(f.body):
            self.err(f, f"`{f.name}` may fall off its end")

    def ends_in_return(self, body):
        if not body:
            return False
        last = body[-1]
        if isinstance(last, ast.Return):
            return True
        if isinstance(last, ast.If):
            return self.ends_in_return(last.body) and self.ends_in_return(last.orelse)
        if isinstance(last, ast.Try):
            return self.ends_in_return(last.body) and all(
                self.ends_in_return(h.body) for h in last.handlers)
        return False

    def lookup(self, name, scope, node):
        if scope is not None and name in scope["assigned"]:
            return scope["locals"].get(name)
        if name in self.globals:
            return self.globals[name]
        if name in self.functions:
            self.err(node, f"function {name} used as a value")
            return None
        if self.final:
            self.err(node, f"unknown name {name}")
        return None

    def bind(self, name, ty, scope, node):
        table = self.globals if scope is None else scope["locals"]
        if name in BUILTINS or name in self.functions:
            self.err(node, f"assigning to {name}")
        if ty is None:
            return
        old = table.get(name)
        if old is None:
            table[name] = ty
        elif old != ty:
            self.err(node, f"{name} was {old}, now {ty}")

    def block(self, body, scope, in_loop):
        for s in body:
            self.stmt(s, scope, in_loop)

    def cond(self, e, scope):
        t = self.expr(e, scope)
        if t is not None and t != "bool":
            self.err(e, f"condition is {t}, not bool")

    def stmt(self, s, scope, in_loop):
        if isinstance(s, ast.AnnAssign):
            ty = self.ann(s.annotation)
            if not isinstance(s.target, ast.Name):
                self.err(s, "bad target")
                return
            if s.value is None:
                if scope is not None:
                    self.err(s, "declaration inside a function")
                self.bind(s.target.id, ty, scope, s)
            else:
                vt = self.expr(s.value, scope)
                if vt is not None and vt != ty:
                    self.err(s, f"annotated {ty}, value {vt}")
                self.bind(s.target.id, ty, scope, s)
        elif isinstance(s, ast.Assign):
            if len(s.targets) != 1 or not isinstance(s.targets[0], ast.Name):
                self.err(s, "only `name = e` assignments")
                return
            self.bind(s.targets[0].id, self.expr(s.value, scope), scope, s)
        elif isinstance(s, ast.AugAssign):
            if not isinstance(s.target, ast.Name):
                self.err(s, "bad target")
                return
            lt = self.lookup(s.target.id, scope, s)
            rt = self.expr(s.value, scope)
            if isinstance(s.op, ast.Add) and lt == "tuple":
                if rt not in (None, "tuple"):
                    self.err(s, "tuple += non-tuple")
            elif not isinstance(s.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)):
                self.err(s, "unsupported augmented operator")
            elif (lt not in (None, "int")) or (rt not in (None, "int")):
                self.err(s, "augmented arithmetic on non-int")
        elif isinstance(s, ast.Expr):
            if not isinstance(s.value, ast.Call):
                self.err(s, "expression statement that is not a call")
            self.expr(s.value, scope, statement=True)
        elif isinstance(s, (ast.Pass,)):
            pass
        elif isinstance(s, (ast.Break, ast.Continue)):
            if not in_loop:
                self.err(s, "break/continue outside a loop")
        elif isinstance(s, ast.Return):
            if scope is None:
                self.err(s, "return outside a function")
                return
            if s.value is None:
                if scope["ret"] is not None:
                    self.err(s, "bare return in a function with a result")
            else:
                t = self.expr(s.value, scope)
                if scope["ret"] is None or (t is not None and t != scope["ret"]):
                    self.err(s, f"returns {t}, declared {scope['ret']}")
        elif isinstance(s, ast.Assert):
            if s.msg is not None:
                self.err(s, "assert message")
            self.cond(s.test, scope)
        elif isinstance(s, ast.If):
            self.cond(s.test, scope)
            self.block(s.body, scope, in_loop)
            self.block(s.orelse, scope, in_loop)
        elif isinstance(s, ast.While):
            self.cond(s.test, scope)
            self.block(s.body, scope, True)
            self.block(s.orelse, scope, in_loop)
        elif isinstance(s, ast.For):
            if not isinstance(s.target, ast.Name):
                self.err(s, "only `for name in ...`")
                return
            it = s.iter
            if (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                    and it.func.id == "range"):
                if not 1 <= len(it.args) <= 3 or it.keywords:
                    self.err(s, "range takes 1 to 3 arguments")
                for a in it.args:
                    if self.expr(a, scope) not in (None, "int"):
                        self.err(s, "range of a non-int")
            elif self.expr(it, scope) not in (None, "tuple"):
                self.err(s, "for over a non-tuple")
            self.bind(s.target.id, "int", scope, s)
            self.block(s.body, scope, True)
            self.block(s.orelse, scope, in_loop)
        elif isinstance(s, ast.Try):
            if s.orelse or s.finalbody:
                self.err(s, "try/else or finally")
            self.block(s.body, scope, in_loop)
            for h in s.handlers:
                if h.name is not None:
                    self.err(h, "except ... as")
                if h.type is not None and not (
                        isinstance(h.type, ast.Name) and h.type.id in EXC_CLASSES):
                    self.err(h, "bad exception class")
                self.block(h.body, scope, in_loop)
        elif isinstance(s, ast.FunctionDef):
            if scope is not None:
                self.err(s, "nested def")
        else:
            self.err(s, f"unsupported statement {type(s).__name__}")

    def expr(self, e, scope, statement=False):
        if isinstance(e, ast.Constant):
            if isinstance(e.value, bool):
                return "bool"
            if isinstance(e.value, int):
                return "int"
            self.err(e, f"constant {e.value!r}")
            return None
        if isinstance(e, ast.Name):
            return self.lookup(e.id, scope, e)
        if isinstance(e, ast.Tuple):
            for x in e.elts:
                t = self.expr(x, scope)
                if t is not None and t != "int":
                    self.err(e, f"tuple element is {t}")
            return "tuple"
        if isinstance(e, ast.UnaryOp):
            t = self.expr(e.operand, scope)
            if isinstance(e.op, ast.Not):
                if t not in (None, "bool"):
                    self.err(e, "not on non-bool")
                return "bool"
            if t not in (None, "int"):
                self.err(e, "unary arithmetic on non-int")
            return "int"
        if isinstance(e, ast.BinOp):
            lt, rt = self.expr(e.left, scope), self.expr(e.right, scope)
            if not isinstance(e.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)):
                self.err(e, f"operator {type(e.op).__name__}")
            if isinstance(e.op, ast.Add) and "tuple" in (lt, rt):
                if lt not in (None, "tuple") or rt not in (None, "tuple"):
                    self.err(e, "tuple + non-tuple")
                return "tuple"
            if lt not in (None, "int") or rt not in (None, "int"):
                self.err(e, f"arithmetic on {lt}, {rt}")
            return "int"
        if isinstance(e, ast.BoolOp):
            for v in e.values:
                t = self.expr(v, scope)
                if t not in (None, "bool"):
                    self.err(e, "and/or on non-bool")
            return "bool"
        if isinstance(e, ast.Compare):
            ts = [self.expr(e.left, scope)] + [self.expr(c, scope) for c in e.comparators]
            for i, op in enumerate(e.ops):
                a, b = ts[i], ts[i + 1]
                if isinstance(op, (ast.Eq, ast.NotEq)):
                    if a is not None and b is not None and a != b:
                        self.err(e, f"comparing {a} with {b}")
                elif isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)):
                    if a not in (None, "int") or b not in (None, "int"):
                        self.err(e, "ordering on non-int")
                elif isinstance(op, (ast.In, ast.NotIn)):
                    if a not in (None, "int") or b not in (None, "tuple"):
                        self.err(e, "in needs int in tuple")
                else:
                    self.err(e, f"comparison {type(op).__name__}")
            return "bool"
        if isinstance(e, ast.IfExp):
            if self.expr(e.test, scope) not in (None, "bool"):
                self.err(e, "conditional on non-bool")
            a, b = self.expr(e.body, scope), self.expr(e.orelse, scope)
            if a is not None and b is not None and a != b:
                self.err(e, f"conditional of {a} and {b}")
            return a or b
        if isinstance(e, ast.Subscript) and isinstance(e.slice, ast.Slice):
            if self.expr(e.value, scope) not in (None, "tuple"):
                self.err(e, "slicing needs a tuple")
            for part in (e.slice.lower, e.slice.upper, e.slice.step):
                if part is not None and self.expr(part, scope) not in (None, "int"):
                    self.err(e, "slice bounds need ints")
            return "tuple"
        if isinstance(e, ast.Subscript):
            bt, it = self.expr(e.value, scope), self.expr(e.slice, scope)
            if bt not in (None, "tuple") or it not in (None, "int"):
                self.err(e, "indexing needs tuple[int]")
            return "int"
        if isinstance(e, ast.Call):
            if not isinstance(e.func, ast.Name) or e.keywords:
                self.err(e, "bad call")
                return None
            name = e.func.id
            ats = [self.expr(a, scope) for a in e.args]
            if name == "tuple":
                if e.args:
                    self.err(e, "tuple() with arguments")
                return "tuple"
            if name in BUILTINS:
                want = BUILTINS[name]
                if len(ats) != len(want) or any(
                        a is not None and a != w for a, w in zip(ats, want)):
                    self.err(e, f"bad call of {name}")
                return "int"
            if name in self.functions:
                params, ret = self.functions[name]
                if len(params) != len(ats) or any(
                        a is not None and a != p[1] for a, p in zip(ats, params)):
                    self.err(e, f"bad call of {name}")
                if ret is None and not statement:
                    self.err(e, f"procedure {name} used as a value")
                return ret
            self.err(e, f"unknown function {name}")
            return None
        self.err(e, f"unsupported expression {type(e).__name__}")
        return None


def inputs_of(path, tree, entry):
    if entry is not None:
        for s in tree.body:
            if isinstance(s, ast.FunctionDef) and s.name == entry:
                return [(a.arg, a.annotation.id) for a in s.args.args]
        raise SystemExit(f"{path}: no function {entry}")
    return [(s.target.id, s.annotation.id) for s in tree.body
            if isinstance(s, ast.AnnAssign) and s.value is None]


def gen(ty, rnd):
    if ty == "bool":
        return rnd.random() < 0.5
    if ty == "tuple":
        return [rnd.randint(-6, 6) for _ in range(rnd.randint(0, 5))]
    r = rnd.random()
    if r < 0.08:
        return rnd.choice([10**20, -10**20, 2**64, -2**63, 123456789012345678901234567890])
    if r < 0.3:
        return rnd.choice([0, 1, -1])
    return rnd.randint(-6, 6)


def main():
    verbose = "-v" in sys.argv
    files = [a for a in sys.argv[1:] if a != "-v"] or sorted(
        glob.glob(os.path.join(ROOT, "tests/data/programs/*.py")))
    bad = 0
    for path in files:
        src = open(path, encoding="utf-8").read()
        first = src.splitlines()[0] if src else ""
        entry = first.split(":", 1)[1].strip() if first.startswith("# entry:") else None
        tree = ast.parse(src)
        errors = Checker(path, tree).run()
        ins = inputs_of(path, tree, entry)
        if entry is None and not ins:
            errors.append(f"{path}: no inputs declared")
        rnd = random.Random(os.path.basename(path))
        sets = [{n: gen(t, rnd) for n, t in ins} for _ in range(60)]
        req = json.dumps({"file": path, "entry": entry, "inputs": sets})
        out = subprocess.run([sys.executable, os.path.join(HERE, "run_python.py")],
                             input=req, capture_output=True, text=True, check=False)
        if out.returncode != 0:
            errors.append(f"{path}: run_python failed: {out.stderr.strip()}")
            results = []
        else:
            results = json.loads(out.stdout)
        kinds = {}
        for inp, r in zip(sets, results):
            k = r["exception"] or r["outcome"]
            kinds[k] = kinds.get(k, 0) + 1
            if r["outcome"] == "timeout" or (r["exception"] and r["exception"] not in MINIPY_EXC):
                errors.append(f"{path}: {k} for {inp}")
        for e in errors[:10]:
            print("ERROR", e)
        bad += bool(errors)
        if verbose or errors:
            print(f"{os.path.relpath(path, ROOT)}: {kinds}")
    print(f"{len(files)} programs, {bad} with problems")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
