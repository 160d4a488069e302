//! A function's contract (issue 28): `requires` and `ensures` lines are `bool` formulas
//! over the parameters (and, in `ensures`, `result`: the return value).

use super::{Checker, Cx};
use crate::base::Span;
use crate::diagnostics::Diagnostic;
use crate::lang::ast::{Expr, ExprKind, FunctionDef, Stmt, RESULT};

impl Checker<'_> {
    /// Check the contract lines of `f` (before its body: they run first).
    pub(super) fn contract(&mut self, cx: &mut Cx<'_>, f: &FunctionDef) {
        let c = &f.contract;
        if c.is_empty() {
            return;
        }
        let name = &f.name.name;
        let first = c
            .requires
            .iter()
            .chain(&c.ensures)
            .next()
            .expect("not empty");
        if f.predicate {
            self.err(
                Diagnostic::error(
                    format!("predicate `{name}` cannot have a contract"),
                    first.span,
                )
                .with_label("a `@predicate` is a formula, it has no `requires`/`ensures`"),
            );
            return;
        }
        for e in &c.requires {
            if let Some(at) = free_result(e) {
                self.err(
                    Diagnostic::error("`result` cannot be used in `requires`", at)
                        .with_label("the return value is not known when the function is entered")
                        .with_note("help: state properties of the result with `ensures`"),
                );
                continue;
            }
            self.cond(cx, e, "a precondition");
        }
        if !c.ensures.is_empty() {
            if let Some(p) = f.params.iter().find(|p| p.name.name == RESULT) {
                self.err(
                    Diagnostic::error(
                        format!("a parameter of `{name}` is named `result`"),
                        p.name.span,
                    )
                    .with_label("`result` names the return value in `ensures` lines")
                    .with_note("help: rename the parameter"),
                );
                return;
            }
            if let Some((p, at)) = assigns_param(f) {
                self.err(
                    Diagnostic::error(
                        format!(
                            "`{name}` assigns its parameter `{p}`, which its `ensures` lines read"
                        ),
                        at,
                    )
                    .with_label("`ensures` means the arguments the function was called with")
                    .with_note("help: assign a copy instead, e.g. `k = n` and change `k`"),
                );
            }
            if let Some(at) = assigns_result(&f.body) {
                self.err(
                    Diagnostic::error(format!("`{name}` assigns a variable named `result`"), at)
                        .with_label("`result` names the return value in `ensures` lines")
                        .with_note("help: rename the variable"),
                );
            }
        }
        for e in &c.ensures {
            if f.ret.is_none() {
                if let Some(at) = free_result(e) {
                    self.err(
                        Diagnostic::error(format!("`{name}` returns no value"), at)
                            .with_label("`result` has no value in a procedure's `ensures`")
                            .with_note("help: annotate the return type, e.g. `-> int`"),
                    );
                    continue;
                }
            }
            self.cond(cx, e, "a postcondition");
        }
    }
}

/// Where `e` reads `result` (not as a quantifier's own variable), if it does.
pub(crate) fn free_result(e: &Expr) -> Option<Span> {
    match &e.kind {
        ExprKind::Name(n) if n == RESULT => Some(e.span),
        ExprKind::Quantifier {
            var, lo, hi, body, ..
        } => lo
            .as_deref()
            .and_then(free_result)
            .or_else(|| free_result(hi))
            .or_else(|| (var.name != RESULT).then(|| free_result(body)).flatten()),
        _ => e.children().into_iter().find_map(free_result),
    }
}

/// A parameter the body of `f` assigns (or havocs), and where, if there is one.
fn assigns_param(f: &FunctionDef) -> Option<(String, Span)> {
    let mut sites = Vec::new();
    super::scope::collect(&f.body, &mut sites);
    sites.iter().find_map(|s| {
        f.params
            .iter()
            .any(|p| p.name.name == s.name.name)
            .then(|| (s.name.name.clone(), s.name.span))
    })
}

/// Where the block binds a variable named `result`, if it does.
fn assigns_result(block: &[Stmt]) -> Option<Span> {
    let mut sites = Vec::new();
    super::scope::collect(block, &mut sites);
    sites
        .iter()
        .find(|s| s.name.name == RESULT)
        .map(|s| s.name.span)
}
