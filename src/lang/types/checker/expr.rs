//! Checking expressions: operators, names, calls, quantifiers.

use super::hints::{a, mismatch, plural, show, similar};
use super::{Checker, Cx, Lookup};
use crate::base::Span;
use crate::diagnostics::Diagnostic;
use crate::lang::ast::{BinOp, BoolOp, CmpOp, Expr, ExprKind, Ident, Type, UnaryOp, BUILTINS};
use crate::lang::types::{builtin_signature, type_of};

/// Python builtins that minipy does not have.
const UNSUPPORTED_BUILTINS: &[&str] = &[
    "input",
    "str",
    "float",
    "list",
    "dict",
    "set",
    "sorted",
    "sum",
    "reversed",
    "enumerate",
    "zip",
    "map",
    "filter",
    "isinstance",
    "type",
    "divmod",
    "pow",
    "round",
    "open",
    "iter",
    "next",
    "hash",
    "id",
];

impl Checker<'_> {
    /// The type of `e` from its shape, without reporting anything (for hints).
    pub(super) fn shape(&self, cx: &Cx<'_>, e: &Expr) -> Option<Type> {
        type_of(e, &|n| self.var(cx, n), self.functions)
    }

    /// The type of a variable visible in `cx`, without reporting anything.
    pub(super) fn var(&self, cx: &Cx<'_>, name: &str) -> Option<Type> {
        if cx.quantified.iter().any(|q| q == name) {
            return Some(Type::Int);
        }
        if cx.scope.defines(name) {
            return cx.scope.ty(name);
        }
        if cx.func.is_some() {
            return self.globals.ty(name);
        }
        None
    }

    pub(super) fn lookup(&self, cx: &Cx<'_>, name: &str) -> Lookup {
        if cx.quantified.iter().any(|q| q == name) {
            return Lookup::Var(Some(Type::Int));
        }
        if cx.scope.defines(name) {
            return Lookup::Var(cx.scope.ty(name));
        }
        if cx.func.is_some() && self.globals.defines(name) {
            // Also when the function only updates `name` (`name += 1`): that is reported
            // once, at the update.
            return Lookup::Var(self.globals.ty(name));
        }
        if self.functions.contains_key(name) {
            return Lookup::Function;
        }
        if BUILTINS.contains(&name) || name == "print" {
            return Lookup::Builtin;
        }
        Lookup::Missing
    }

    /// Read a variable; report it if it is not one. `hint` is the type its use suggests.
    pub(super) fn lookup_or_report(
        &mut self,
        cx: &mut Cx<'_>,
        name: &str,
        span: Span,
        hint: Option<Type>,
    ) -> Option<Type> {
        match self.lookup(cx, name) {
            Lookup::Var(t) => t,
            Lookup::Function | Lookup::Builtin => {
                self.err(
                    Diagnostic::error(format!("`{name}` is a function, not a value"), span)
                        .with_label("functions are not values in minipy")
                        .with_note(format!("help: call it: `{name}(...)`")),
                );
                None
            }
            Lookup::Missing => {
                match cx.undeclared.iter_mut().find(|(n, _, _)| n == name) {
                    Some((_, _, hints)) => hints.extend(hint),
                    None => {
                        cx.undeclared
                            .push((name.to_string(), span, hint.into_iter().collect()))
                    }
                }
                None
            }
        }
    }

    /// Check an expression and return its type (`None` if it is ill-typed; the error has
    /// been reported). `hint` is the type the context expects, used only to suggest a
    /// declaration for an undeclared name.
    pub(super) fn expr(&mut self, cx: &mut Cx<'_>, e: &Expr, hint: Option<Type>) -> Option<Type> {
        match &e.kind {
            ExprKind::Int(_) => Some(Type::Int),
            ExprKind::Bool(_) => Some(Type::Bool),
            ExprKind::Name(n) => self.lookup_or_report(cx, n, e.span, hint),
            ExprKind::Tuple(items) => {
                for item in items {
                    match self.expr(cx, item, Some(Type::Int)) {
                        Some(Type::Tuple) => self.err(
                            Diagnostic::error(
                                "nested tuples are not supported in minipy",
                                item.span,
                            )
                            .with_label("a tuple inside a tuple")
                            .with_note("note: minipy tuples hold `int`s only"),
                        ),
                        Some(Type::Bool) => self.err(
                            mismatch(item.span, Type::Int, Type::Bool)
                                .with_note("note: minipy tuples hold `int`s only"),
                        ),
                        _ => {}
                    }
                }
                Some(Type::Tuple)
            }
            ExprKind::Unary {
                op: UnaryOp::Not,
                operand,
            } => {
                self.cond(cx, operand, "the operand of `not`");
                Some(Type::Bool)
            }
            ExprKind::Unary { op, operand } => {
                if let Some(f) = self
                    .expr(cx, operand, Some(Type::Int))
                    .filter(|t| *t != Type::Int)
                {
                    self.err(
                        mismatch(operand.span, Type::Int, f)
                            .with_label(format!("unary `{}` needs an `int`", op.symbol())),
                    );
                }
                Some(Type::Int)
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(cx, e, *op, lhs, rhs, hint),
            ExprKind::BoolOp { op, lhs, rhs } => {
                let what = match op {
                    BoolOp::And => "an operand of `and`",
                    BoolOp::Or => "an operand of `or`",
                };
                self.cond(cx, lhs, what);
                self.cond(cx, rhs, what);
                Some(Type::Bool)
            }
            ExprKind::Compare { first, rest } => {
                self.compare(cx, first, rest);
                Some(Type::Bool)
            }
            ExprKind::Index { base, index } => {
                if let Some(t @ (Type::Int | Type::Bool)) = self.expr(cx, base, Some(Type::Tuple)) {
                    self.err(
                        Diagnostic::error(
                            format!("cannot index into a value of type `{t}`"),
                            base.span,
                        )
                        .with_label(format!("{} cannot be indexed", a(t)))
                        .with_note("note: only tuples can be indexed"),
                    );
                }
                if let Some(f) = self
                    .expr(cx, index, Some(Type::Int))
                    .filter(|t| *t != Type::Int)
                {
                    self.err(
                        mismatch(index.span, Type::Int, f)
                            .with_label(format!("tuple indices are `int`s, found {}", a(f))),
                    );
                }
                Some(Type::Int)
            }
            ExprKind::Slice { base, lo, hi, step } => {
                if let Some(t @ (Type::Int | Type::Bool)) = self.expr(cx, base, Some(Type::Tuple)) {
                    self.err(
                        Diagnostic::error(format!("cannot slice a value of type `{t}`"), base.span)
                            .with_label(format!("{} cannot be sliced", a(t)))
                            .with_note("note: only tuples can be sliced"),
                    );
                }
                for part in [lo, hi, step].into_iter().flatten() {
                    if let Some(f) = self
                        .expr(cx, part, Some(Type::Int))
                        .filter(|t| *t != Type::Int)
                    {
                        self.err(
                            mismatch(part.span, Type::Int, f)
                                .with_label(format!("slice bounds are `int`s, found {}", a(f))),
                        );
                    }
                }
                Some(Type::Tuple)
            }
            ExprKind::IfExp { cond, then, orelse } => {
                self.cond(cx, cond, "the condition of a conditional expression");
                let hint = hint
                    .or_else(|| self.shape(cx, then))
                    .or_else(|| self.shape(cx, orelse));
                let tt = self.expr(cx, then, hint);
                let et = self.expr(cx, orelse, hint.or(tt));
                match (tt, et) {
                    (Some(x), Some(y)) if x != y => {
                        self.err(
                            Diagnostic::error(
                                format!("the two sides of a conditional expression have types `{x}` and `{y}`"),
                                then.span.to(orelse.span),
                            )
                            .with_label(format!("`{x}` if ... else `{y}`"))
                            .with_note("note: a value keeps one type in minipy"),
                        );
                        Some(x)
                    }
                    (x, y) => x.or(y),
                }
            }
            ExprKind::Call { func, args } => self.call(cx, e, func, args, false),
            ExprKind::Quantifier {
                kind,
                var,
                lo,
                hi,
                body,
            } => {
                for bound in lo.iter().chain(std::iter::once(hi)) {
                    if let Some(f) = self
                        .expr(cx, bound, Some(Type::Int))
                        .filter(|t| *t != Type::Int)
                    {
                        self.err(
                            mismatch(bound.span, Type::Int, f)
                                .with_label("`range` bounds are `int`s"),
                        );
                    }
                }
                cx.quantified.push(var.name.clone());
                self.cond(cx, body, &format!("the body of `{}`", kind.name()));
                cx.quantified.pop();
                Some(Type::Bool)
            }
        }
    }

    fn binary(
        &mut self,
        cx: &mut Cx<'_>,
        e: &Expr,
        op: BinOp,
        lhs: &Expr,
        rhs: &Expr,
        hint: Option<Type>,
    ) -> Option<Type> {
        if op != BinOp::Add {
            for side in [lhs, rhs] {
                if let Some(f) = self
                    .expr(cx, side, Some(Type::Int))
                    .filter(|t| *t != Type::Int)
                {
                    let mut d = mismatch(side.span, Type::Int, f)
                        .with_label(format!("`{}` needs `int` operands", op.symbol()));
                    if f == Type::Bool {
                        d = d.with_note("note: `bool` is not a number in minipy");
                    } else if op == BinOp::Mul {
                        d = d.with_note("note: tuple repetition is not supported in minipy");
                    }
                    self.err(d);
                }
            }
            return Some(Type::Int);
        }
        let hint = hint.filter(|t| *t != Type::Bool);
        // (Long sums nest to the left, so only the right operand's shape is computed, to
        // keep checking linear.)
        let lhint = hint.or_else(|| self.shape(cx, rhs));
        let lt = self.expr(cx, lhs, lhint);
        let rhint = hint.or(lt).filter(|t| *t != Type::Bool);
        let rt = self.expr(cx, rhs, rhint);
        for (side, t) in [(lhs, lt), (rhs, rt)] {
            if t == Some(Type::Bool) {
                self.err(
                    mismatch(side.span, Type::Int, Type::Bool)
                        .with_label("`+` needs `int` or `tuple` operands")
                        .with_note("note: `bool` is not a number in minipy"),
                );
            }
        }
        let lt = lt.filter(|t| *t != Type::Bool);
        let rt = rt.filter(|t| *t != Type::Bool);
        match (lt, rt) {
            (Some(l), Some(r)) if l != r => {
                let mut d = Diagnostic::error(format!("cannot add `{r}` to `{l}`"), e.span)
                    .with_label(format!("`{l}` + `{r}`"));
                if l == Type::Tuple {
                    if let (Some(t), Some(x)) = (show(lhs), show(rhs)) {
                        d = d
                            .with_note(format!("help: to append an element, write `{t} + ({x},)`"));
                    } else {
                        d = d.with_note("help: to append an element `x`, add the tuple `(x,)`");
                    }
                }
                self.err(d);
                Some(l)
            }
            (l, r) => l.or(r).or(hint),
        }
    }

    fn compare(&mut self, cx: &mut Cx<'_>, first: &Expr, rest: &[(CmpOp, Expr)]) {
        let operands: Vec<&Expr> = std::iter::once(first)
            .chain(rest.iter().map(|(_, e)| e))
            .collect();
        let mut types = Vec::with_capacity(operands.len());
        for (i, e) in operands.iter().enumerate() {
            let ordered = |j: usize| {
                j.checked_sub(1)
                    .and_then(|k| rest.get(k))
                    .is_some_and(|(op, _)| !matches!(op, CmpOp::Eq | CmpOp::Ne))
            };
            // `x in t`: an `int` on the left, a `tuple` on the right.
            let member_rhs = i
                .checked_sub(1)
                .and_then(|k| rest.get(k))
                .is_some_and(|(op, _)| op.is_membership());
            let hint = if member_rhs {
                Some(Type::Tuple)
            } else if ordered(i) || ordered(i + 1) {
                Some(Type::Int)
            } else {
                let neighbour = if i == 0 {
                    operands.get(1)
                } else {
                    operands.get(i - 1)
                };
                neighbour.and_then(|n| self.shape(cx, n))
            };
            types.push(self.expr(cx, e, hint));
        }
        for (i, (op, _)) in rest.iter().enumerate() {
            let (l, r) = (types[i], types[i + 1]);
            let (le, re) = (operands[i], operands[i + 1]);
            match op {
                CmpOp::In | CmpOp::NotIn => self.membership(*op, (le, l), (re, r)),
                CmpOp::Eq | CmpOp::Ne => {
                    if let (Some(l), Some(r)) = (l, r) {
                        if l != r {
                            self.err(
                                Diagnostic::error(
                                    format!("cannot compare `{l}` with `{r}`"),
                                    le.span.to(re.span),
                                )
                                .with_label(format!("`{l}` {} `{r}`", op.symbol()))
                                .with_note(format!(
                                    "note: `{}` compares two values of the same type",
                                    op.symbol()
                                )),
                            );
                        }
                    }
                }
                _ => {
                    if l == Some(Type::Tuple) || r == Some(Type::Tuple) {
                        self.err(
                            Diagnostic::error(
                                format!(
                                    "tuple comparison with `{}` is not supported in minipy",
                                    op.symbol()
                                ),
                                le.span.to(re.span),
                            )
                            .with_label(format!("`{}` compares `int`s only", op.symbol())),
                        );
                        continue;
                    }
                    for (side, t) in [(le, l), (re, r)] {
                        if t == Some(Type::Bool) {
                            self.err(
                                mismatch(side.span, Type::Int, Type::Bool)
                                    .with_label(format!("`{}` compares `int`s only", op.symbol())),
                            );
                        }
                    }
                }
            }
        }
    }

    /// `x in t` / `x not in t`: an `int` and a `tuple`.
    fn membership(
        &mut self,
        op: CmpOp,
        (le, l): (&Expr, Option<Type>),
        (re, r): (&Expr, Option<Type>),
    ) {
        if let Some(r) = r.filter(|t| *t != Type::Tuple) {
            self.err(
                Diagnostic::error(
                    format!("`{}` on {} is not supported in minipy", op.symbol(), a(r)),
                    re.span,
                )
                .with_label(format!("expected `tuple`, found `{r}`"))
                .with_note("note: minipy has `x in t` for an `int` `x` and a `tuple` `t`"),
            );
        }
        if let Some(l) = l.filter(|t| *t != Type::Int) {
            let mut d = mismatch(le.span, Type::Int, l)
                .with_label(format!("`{}` looks for an `int` in a tuple", op.symbol()));
            if l == Type::Tuple {
                d = d.with_note("note: minipy tuples hold `int`s only");
            }
            self.err(d);
        }
    }

    /// A call; `statement` is set when it is an expression statement (procedure calls are
    /// only allowed there).
    pub(super) fn call(
        &mut self,
        cx: &mut Cx<'_>,
        e: &Expr,
        func: &Ident,
        args: &[Expr],
        statement: bool,
    ) -> Option<Type> {
        let name = func.name.as_str();
        let sig = if let Some(sig) = self.functions.get(name) {
            if let Some(p) = cx.predicate().filter(|_| !sig.predicate) {
                self.err(
                    Diagnostic::error(
                        format!(
                            "predicate `{}` cannot call `{name}`, which is not a predicate",
                            p.name.name
                        ),
                        func.span,
                    )
                    .with_label("not a predicate")
                    .with_note(
                        "note: predicates may only call other predicates and the builtins \
                         `len`, `abs`, `min`, `max`",
                    ),
                );
            }
            Some(sig.clone())
        } else if let Some(sig) = builtin_signature(name) {
            Some(sig)
        } else if let Lookup::Var(t) = self.lookup(cx, name) {
            let what = t.map_or("a variable".to_string(), |t| {
                format!("a variable of type `{t}`")
            });
            self.err(
                Diagnostic::error(format!("`{name}` is {what}, not a function"), func.span)
                    .with_label("not a function"),
            );
            None
        } else {
            self.unknown_function(func);
            None
        };
        let Some(sig) = sig else {
            for arg in args {
                self.expr(cx, arg, None);
            }
            return None;
        };
        if args.len() != sig.params.len() {
            let params: Vec<String> = sig
                .params
                .iter()
                .map(|(n, t)| format!("{n}: {t}"))
                .collect();
            self.err(
                Diagnostic::error(
                    format!(
                        "`{name}` takes {} but {} {} supplied",
                        plural(sig.params.len(), "argument"),
                        plural(args.len(), "argument"),
                        if args.len() == 1 { "was" } else { "were" }
                    ),
                    e.span,
                )
                .with_label(format!("expected {}", plural(sig.params.len(), "argument")))
                .with_note(format!(
                    "note: the signature is `{name}({}){}`",
                    params.join(", "),
                    sig.ret.map_or(String::new(), |t| format!(" -> {t}"))
                )),
            );
        }
        for (i, arg) in args.iter().enumerate() {
            let param = sig.params.get(i);
            let found = self.expr(cx, arg, param.map(|p| p.1));
            if let (Some((pname, pt)), Some(f)) = (param, found) {
                if *pt != f {
                    self.err(mismatch(arg.span, *pt, f).with_note(format!(
                        "note: parameter `{pname}` of `{name}` is {}",
                        a(*pt)
                    )));
                }
            }
        }
        if sig.ret.is_none() && !statement {
            self.err(
                Diagnostic::error(format!("procedure `{name}` has no return value"), e.span)
                    .with_label("this call is used as a value")
                    .with_note(format!(
                        "note: `{name}` has no `-> T`, so its calls can only be statements"
                    )),
            );
        }
        sig.ret
    }

    fn unknown_function(&mut self, func: &Ident) {
        let name = func.name.as_str();
        if matches!(name, "all" | "any") {
            self.err(
                Diagnostic::error(
                    format!("`{name}` is only supported as `{name}(e for k in range(a, b))`"),
                    func.span,
                )
                .with_label("not a quantifier over a range"),
            );
            return;
        }
        if name == "print" {
            // A statement `print(...)` is `StmtKind::Print`: this one is inside an expression.
            self.err(
                Diagnostic::error("`print(...)` is only supported as a statement", func.span)
                    .with_label("its value (`None`) is used here")
                    .with_note("help: write `print(...)` on a line of its own"),
            );
            return;
        }
        if UNSUPPORTED_BUILTINS.contains(&name) || name == "range" {
            self.err(
                Diagnostic::error(format!("`{name}` is not supported in minipy"), func.span)
                    .with_label("unsupported builtin")
                    .with_note("note: the builtins of minipy are `len`, `abs`, `min` and `max`"),
            );
            return;
        }
        let mut d = Diagnostic::error(
            format!("cannot find function `{name}` in this module"),
            func.span,
        )
        .with_label("not found in this module");
        let candidates = self
            .functions
            .keys()
            .map(String::as_str)
            .chain(BUILTINS.iter().copied());
        if let Some(s) = similar(name, candidates) {
            d = d.with_note(format!(
                "help: a function with a similar name exists: `{s}`"
            ));
        }
        self.err(d);
    }
}
