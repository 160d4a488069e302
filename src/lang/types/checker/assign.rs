//! Bindings and returns: input declarations, assignments and augmented assignments
//! against the variable's one type, and `return` against the function's or the method
//! frame's result type.

use super::hints::{a, mismatch, show};
use super::{Checker, Cx};
use crate::base::Span;
use crate::diagnostics::Diagnostic;
use crate::lang::ast::{BinOp, Expr, Ident, Type};

impl Checker<'_> {
    /// Whether `name` is a module variable seen from a function (havoc of it is reported by
    /// [`Checker::binding_names`]).
    pub(super) fn is_outer_var(&self, cx: &Cx<'_>, name: &str) -> bool {
        cx.func.is_some() && self.globals.defines(name)
    }

    pub(super) fn declare(&mut self, cx: &mut Cx<'_>, name: &Ident, ty: Type) {
        if let Some(f) = cx.func {
            self.err(
                Diagnostic::error(
                    "variable declarations are not supported inside functions",
                    name.span,
                )
                .with_label("declaration without a value")
                .with_note(format!(
                    "help: make `{n}` a parameter of `{f}`, or give it a value: `{n}: {ty} = ...`",
                    n = name.name,
                    f = f.name.name
                )),
            );
        } else if cx.depth > 0 {
            self.err(
                Diagnostic::error(
                    "input declarations must be at the top level of the module",
                    name.span,
                )
                .with_label("declared inside a block")
                .with_note(format!(
                    "help: move `{}: {ty}` to the top level, or give it a value",
                    name.name
                )),
            );
        } else if let Some(t) = cx.scope.ty(&name.name).filter(|t| *t != ty) {
            self.err(
                Diagnostic::error(
                    format!("`{}` was `{t}`, cannot declare it as `{ty}`", name.name),
                    name.span,
                )
                .with_label(format!("expected `{t}`, found `{ty}`")),
            );
        }
    }

    pub(super) fn assign(
        &mut self,
        cx: &mut Cx<'_>,
        target: &Ident,
        ann: Option<Type>,
        value: &Expr,
    ) {
        let var = cx.scope.ty(&target.name);
        let found = self.expr(cx, value, ann.or(var));
        let name = &target.name;
        if let Some(ann) = ann {
            if let Some(t) = var.filter(|t| *t != ann) {
                self.err(
                    Diagnostic::error(
                        format!("`{name}` was `{t}`, cannot annotate it as `{ann}`"),
                        target.span,
                    )
                    .with_label(format!("expected `{t}`, found `{ann}`"))
                    .with_note("note: a variable keeps one type for its whole scope"),
                );
            }
            if let Some(f) = found.filter(|f| *f != ann) {
                self.err(
                    mismatch(value.span, ann, f)
                        .with_note(format!("note: `{name}` is annotated as `{ann}`")),
                );
            }
        } else if let (Some(t), Some(f)) = (var, found) {
            if t != f {
                self.err(
                    Diagnostic::error(
                        format!("`{name}` was `{t}`, cannot assign {}", a(f)),
                        value.span,
                    )
                    .with_label(format!("expected `{t}`, found `{f}`"))
                    .with_note("note: a variable keeps one type for its whole scope"),
                );
            }
        }
    }

    pub(super) fn aug_assign(&mut self, cx: &mut Cx<'_>, target: &Ident, op: BinOp, value: &Expr) {
        let name = &target.name;
        let var = if cx.scope.defines(name) {
            cx.scope.ty(name)
        } else if self.is_outer_var(cx, name) {
            None // reported by `binding_names`
        } else {
            let hint = if op == BinOp::Add {
                self.shape(cx, value)
            } else {
                Some(Type::Int)
            };
            self.lookup_or_report(cx, name, target.span, hint)
        };
        let hint = if op == BinOp::Add {
            var
        } else {
            Some(Type::Int)
        };
        let found = self.expr(cx, value, hint);
        let sym = format!("{}=", op.symbol());
        match var {
            Some(t @ Type::Bool) | Some(t @ Type::Tuple) if t == Type::Bool || op != BinOp::Add => {
                self.err(
                    Diagnostic::error(
                        format!("cannot use `{sym}` on `{name}`, which is {}", a(t)),
                        target.span,
                    )
                    .with_label(format!("`{}` needs `int` operands", op.symbol())),
                )
            }
            Some(want) => {
                if let Some(f) = found.filter(|f| *f != want) {
                    let mut d = mismatch(value.span, want, f);
                    if let (Type::Tuple, Type::Int, Some(v)) = (want, f, show(value)) {
                        d = d.with_note(format!(
                            "help: to append an element, write `{name} += ({v},)`"
                        ));
                    }
                    self.err(d);
                }
            }
            None => {}
        }
    }

    pub(super) fn ret(&mut self, cx: &mut Cx<'_>, span: Span, value: Option<&Expr>) {
        if let Some(frame) = cx.frames.last().copied() {
            if let Some(v) = value {
                let found = self.expr(cx, v, frame);
                if let (Some(t), Some(f)) = (frame, found) {
                    if t != f {
                        self.err(mismatch(v.span, t, f).with_note(format!(
                            "note: the method frame's result variable is {}",
                            a(t)
                        )));
                    }
                }
            }
            return;
        }
        let Some(f) = cx.func else {
            self.err(
                Diagnostic::error("`return` outside of a function", span)
                    .with_label("not inside a function or a method frame"),
            );
            if let Some(v) = value {
                self.expr(cx, v, None);
            }
            return;
        };
        let name = &f.name.name;
        if f.predicate && f.ret != Some(Type::Bool) {
            // Its header is wrong (reported there); do not report the `return` as well.
            if let Some(v) = value {
                self.expr(cx, v, Some(Type::Bool));
            }
            return;
        }
        match (f.ret, value) {
            (Some(t), None) => self.err(
                Diagnostic::error(
                    format!("`return` without a value in `{name}`, which returns `{t}`"),
                    span,
                )
                .with_label(format!("expected a value of type `{t}`")),
            ),
            (Some(t), Some(v)) => {
                if let Some(found) = self.expr(cx, v, Some(t)).filter(|f| *f != t) {
                    self.err(mismatch(v.span, t, found).with_label(format!(
                        "expected `{t}` because of the return type of `{name}`"
                    )));
                }
            }
            (None, Some(v)) => {
                let found = self.expr(cx, v, None);
                let ty = found.map_or("<type>".to_string(), |t| t.to_string());
                self.err(
                    Diagnostic::error(
                        format!("cannot return a value from procedure `{name}`"),
                        v.span,
                    )
                    .with_label(format!("`{name}` has no return type"))
                    .with_note(format!("help: declare the return type: `-> {ty}`")),
                );
            }
            (None, None) => {}
        }
    }
}
