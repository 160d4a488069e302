//! Statements: the walk over blocks ([`Checker::stmt`]), `break`/`continue` outside a
//! loop, conditions that must be `bool`, a `for` loop's iterable and its invariants'
//! position name, `except` classes, and where `def` may stand.

use super::hints::{a, mismatch, show, similar};
use super::{Checker, Cx};
use crate::base::ExcClass;
use crate::diagnostics::Diagnostic;
use crate::lang::ast::{for_index_name, range_args, Expr, ExprKind, Ident, Stmt, StmtKind, Type};

impl Checker<'_> {
    // ----- statements -----------------------------------------------------------------

    pub(super) fn block(&mut self, cx: &mut Cx<'_>, stmts: &[Stmt]) {
        for s in stmts {
            self.stmt(cx, s);
        }
    }

    fn nested(&mut self, cx: &mut Cx<'_>, stmts: &[Stmt], loop_body: bool) {
        cx.depth += 1;
        cx.loops += usize::from(loop_body);
        self.block(cx, stmts);
        cx.loops -= usize::from(loop_body);
        cx.depth -= 1;
    }

    fn stmt(&mut self, cx: &mut Cx<'_>, s: &Stmt) {
        match &s.kind {
            StmtKind::Declare { name, ty } => self.declare(cx, name, *ty),
            StmtKind::Assign { target, ann, value } => self.assign(cx, target, *ann, value),
            StmtKind::AugAssign { target, op, value } => self.aug_assign(cx, target, *op, value),
            StmtKind::Expr(e) => {
                if let ExprKind::Call { func, args } = &e.kind {
                    self.call(cx, e, func, args, true);
                } else {
                    self.expr(cx, e, None);
                }
            }
            StmtKind::Print(args) => {
                for a in args {
                    self.expr(cx, a, None);
                }
            }
            StmtKind::Pass => {}
            StmtKind::Break | StmtKind::Continue => {
                if cx.loops == 0 {
                    let kw = if matches!(s.kind, StmtKind::Break) {
                        "break"
                    } else {
                        "continue"
                    };
                    self.err(
                        Diagnostic::error(format!("`{kw}` outside of a loop"), s.span)
                            .with_label(format!("cannot `{kw}` outside of a loop")),
                    );
                }
            }
            StmtKind::Return(value) => self.ret(cx, s.span, value.as_ref()),
            StmtKind::Assert(e) => self.cond(cx, e, "an `assert` condition"),
            StmtKind::Assume(e) => self.cond(cx, e, "an `assume` condition"),
            StmtKind::If { branches, orelse } => {
                for (i, (c, b)) in branches.iter().enumerate() {
                    let what = if i == 0 {
                        "an `if` condition"
                    } else {
                        "an `elif` condition"
                    };
                    self.cond(cx, c, what);
                    self.nested(cx, b, false);
                }
                if let Some(b) = orelse {
                    self.nested(cx, b, false);
                }
            }
            StmtKind::While {
                cond,
                invariants,
                body,
                orelse,
            } => {
                self.cond(cx, cond, "a `while` condition");
                for inv in invariants {
                    self.cond(cx, inv, "a loop invariant");
                }
                self.nested(cx, body, true);
                if let Some(b) = orelse {
                    self.nested(cx, b, false);
                }
            }
            StmtKind::For {
                target,
                iter,
                invariants,
                body,
                orelse,
            } => {
                let index = self
                    .for_iter(cx, iter)
                    .then(|| for_index_name(&target.name));
                if let Some(index) = &index {
                    if !invariants.is_empty() && cx.scope.defines(index) {
                        self.err(
                            Diagnostic::error(
                                format!("`{index}` is a variable here and this loop's position"),
                                invariants[0].span,
                            )
                            .with_label("ambiguous in this loop's invariants")
                            .with_note(format!(
                                "note: in the invariants of `for {} in ...`, `{index}` names the \
                                 index of the next element",
                                target.name
                            ))
                            .with_note(format!("help: rename the variable `{index}`")),
                        );
                    }
                    cx.quantified.push(index.clone());
                }
                for inv in invariants {
                    self.cond(cx, inv, "a loop invariant");
                }
                if index.is_some() {
                    cx.quantified.pop();
                }
                self.nested(cx, body, true);
                if let Some(b) = orelse {
                    self.nested(cx, b, false);
                }
            }
            StmtKind::Try { body, handlers } => {
                self.nested(cx, body, false);
                for (i, h) in handlers.iter().enumerate() {
                    match &h.class {
                        Some(class) => self.exception_class(class),
                        None if i + 1 < handlers.len() => self.err(
                            Diagnostic::error("a bare `except:` must be the last handler", h.span)
                                .with_label("catches everything, so later handlers never run"),
                        ),
                        None => {}
                    }
                    self.nested(cx, &h.body, false);
                }
            }
            StmtKind::FunctionDef(f) => {
                if cx.func.is_some() {
                    self.err(
                        Diagnostic::error(
                            "nested functions are not supported in minipy",
                            f.name.span,
                        )
                        .with_label("defined inside another function")
                        .with_note("help: move the `def` to the top level of the module"),
                    );
                } else if cx.depth > 0 {
                    self.err(
                        Diagnostic::error(
                            "`def` must be at the top level of the module",
                            f.name.span,
                        )
                        .with_label("defined inside a block")
                        .with_note("help: move the `def` to the top level of the module"),
                    );
                }
                // Top-level functions are checked after the module code, each as a scope.
            }
            StmtKind::Havoc(name) => {
                if !cx.scope.defines(&name.name) && !self.is_outer_var(cx, &name.name) {
                    self.lookup_or_report(cx, &name.name, name.span, None);
                }
            }
            StmtKind::MethodFrame { result, body } => {
                cx.frames.push(cx.scope.ty(&result.name));
                self.nested(cx, body, false);
                cx.frames.pop();
            }
            StmtKind::LoopScope { inv, body } => {
                self.cond(cx, inv, "a loop-scope invariant");
                self.nested(cx, body, true);
            }
        }
    }

    fn exception_class(&mut self, class: &Ident) {
        if ExcClass::from_name(&class.name).is_some() {
            return;
        }
        let mut d = Diagnostic::error(
            format!("cannot find exception class `{}`", class.name),
            class.span,
        )
        .with_label("unknown exception class");
        if let Some(s) = similar(&class.name, ExcClass::ALL.iter().map(|c| c.name())) {
            d = d.with_note(format!("help: a class with a similar name exists: `{s}`"));
        }
        d = d.with_note(
            "note: the classes are `Exception`, `ArithmeticError`, `ZeroDivisionError`, \
             `LookupError`, `IndexError`, `AssertionError`, `RecursionError`, `NameError`, ...",
        );
        self.err(d);
    }

    /// A `for` loop's iterable: `range(...)` of `int`s, or a tuple. `true`: a tuple (its
    /// invariants may name the position `x_index`).
    fn for_iter(&mut self, cx: &mut Cx<'_>, iter: &Expr) -> bool {
        if let Some(args) = range_args(iter) {
            for arg in args {
                if let Some(f) = self
                    .expr(cx, arg, Some(Type::Int))
                    .filter(|t| *t != Type::Int)
                {
                    self.err(
                        mismatch(arg.span, Type::Int, f).with_label("`range` arguments are `int`s"),
                    );
                }
            }
            return false;
        }
        match self.expr(cx, iter, Some(Type::Tuple)) {
            Some(Type::Tuple) | None => true,
            Some(t) => {
                self.err(
                    Diagnostic::error(
                        format!("a `for` loop cannot iterate over {}", a(t)),
                        iter.span,
                    )
                    .with_label(format!("`{t}` is not iterable"))
                    .with_note("note: minipy's `for` iterates over `range(...)` or over a tuple"),
                );
                false
            }
        }
    }

    /// An expression that must be a `bool`; `what` names it for the label.
    pub(super) fn cond(&mut self, cx: &mut Cx<'_>, e: &Expr, what: &str) {
        let Some(found) = self.expr(cx, e, Some(Type::Bool)) else {
            return;
        };
        if found == Type::Bool {
            return;
        }
        let mut d =
            mismatch(e.span, Type::Bool, found).with_label(format!("{what} must be a `bool`"));
        let text = show(e);
        d = match (found, text) {
            (Type::Int, Some(x)) => d.with_note(format!("help: write `{x} != 0`")),
            (Type::Int, None) => d.with_note("help: compare the value with zero: `... != 0`"),
            (Type::Tuple, Some(t)) => d.with_note(format!("help: write `len({t}) != 0`")),
            (Type::Tuple, None) => d.with_note("help: test the length: `len(...) != 0`"),
            _ => d,
        };
        self.err(d);
    }
}
