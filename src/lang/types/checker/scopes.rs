//! A scope's checks: a top-level function (its predicate rules, its contract, its body,
//! a missing `return`), the names a scope binds, inputs declared twice, and at a scope's
//! end its undeclared names and the variables of unknown type.

use std::collections::BTreeMap;

use super::hints::similar;
use super::{Checker, Cx};
use crate::diagnostics::Diagnostic;
use crate::lang::ast::{ExprKind, FunctionDef, Program, Stmt, StmtKind, Type, BUILTINS, RESERVED};
use crate::lang::types::scope::{self, Scope};

impl Checker<'_> {
    // ----- scopes ---------------------------------------------------------------------

    /// Check a top-level function: its body, its return and the predicate rules.
    pub(super) fn function(&mut self, f: &FunctionDef, scope: &Scope) {
        let mut cx = Cx::new(Some(f), scope);
        cx.errors_at_start = self.diags.len();
        let name = &f.name.name;
        if f.predicate {
            if f.ret != Some(Type::Bool) {
                self.err(
                    Diagnostic::error(
                        format!("predicate `{name}` must return `bool`"),
                        f.name.span,
                    )
                    .with_label("declared with `@predicate`")
                    .with_note("help: write `-> bool` after the parameters"),
                );
            }
            if !matches!(
                f.body.as_slice(),
                [Stmt {
                    kind: StmtKind::Return(Some(_)),
                    ..
                }]
            ) {
                let span = f.body.first().map_or(f.name.span, |s| s.span);
                self.err(
                    Diagnostic::error(
                        format!(
                            "the body of predicate `{name}` must be a single `return` statement"
                        ),
                        span,
                    )
                    .with_label("expected `return <condition>`")
                    .with_note(
                        "note: a predicate is a formula: `@predicate def p(...) -> bool: return e`",
                    ),
                );
            }
        }
        self.contract(&mut cx, f);
        self.block(&mut cx, &f.body);
        // (A predicate's body is a single `return`, checked above.)
        if let Some(t) = f.ret.filter(|_| !f.predicate) {
            if !always_returns(&f.body) {
                self.err(
                    Diagnostic::error(format!("missing return at end of `{name}`"), f.name.span)
                        .with_label(format!(
                            "`{name}` returns `{t}`, but the end of its body is reachable"
                        ))
                        .with_note(format!(
                            "help: end every path through `{name}` with `return <{t}>`"
                        )),
                );
            }
        }
        self.finish_scope(cx);
    }

    /// Report the undeclared names of a scope, and variables whose type is unknown.
    pub(super) fn finish_scope(&mut self, cx: Cx<'_>) {
        for (name, span, hints) in &cx.undeclared {
            let guess = if hints.contains(&Type::Tuple) {
                Type::Tuple
            } else {
                hints.first().copied().unwrap_or(Type::Int)
            };
            let mut d =
                Diagnostic::error(format!("cannot find value `{name}` in this scope"), *span)
                    .with_label("not found in this scope");
            let mut candidates: Vec<&str> = cx.scope.vars.keys().map(String::as_str).collect();
            if cx.func.is_some() {
                candidates.extend(self.globals.vars.keys().map(String::as_str));
            }
            if let Some(s) = similar(name, candidates) {
                d = d.with_note(format!(
                    "help: a variable with a similar name exists: `{s}`"
                ));
            }
            d = match cx.func {
                None => d.with_note(format!("help: declare it as an input: `{name}: {guess}`")),
                Some(f) => d.with_note(format!(
                    "help: add a parameter `{name}: {guess}` to `{}`",
                    f.name.name
                )),
            };
            self.err(d);
        }
        if self.diags.len() == cx.errors_at_start {
            for (name, t) in &cx.scope.vars {
                if t.is_none() {
                    self.err(
                        Diagnostic::error(
                            format!("cannot infer the type of `{name}`"),
                            cx.scope.first_site[name],
                        )
                        .with_label("no assignment to this variable has a value of known type")
                        .with_note(format!("help: annotate it: `{name}: int = ...`")),
                    );
                }
            }
        }
    }

    /// Names bound in a scope must not be builtins or functions; parameters are checked
    /// here too.
    pub(super) fn binding_names(&mut self, sites: &[scope::Site<'_>], func: Option<&FunctionDef>) {
        let mut seen = std::collections::BTreeSet::new();
        for site in sites {
            let name = &site.name.name;
            if !seen.insert(name.as_str()) {
                continue;
            }
            if BUILTINS.contains(&name.as_str()) || RESERVED.contains(&name.as_str()) {
                self.err(
                    Diagnostic::error(
                        format!("`{name}` is a builtin name and cannot be used as a variable"),
                        site.name.span,
                    )
                    .with_label("shadows a builtin")
                    .with_note("help: choose another name for the variable"),
                );
            } else if self.functions.contains_key(name) {
                self.err(
                    Diagnostic::error(
                        format!("`{name}` is a function and cannot be used as a variable"),
                        site.name.span,
                    )
                    .with_label(format!("`{name}` is defined as a function"))
                    .with_note("help: choose another name for the variable"),
                );
            } else if let (Some(f), scope::SiteKind::Aug { .. } | scope::SiteKind::Havoc) =
                (func, &site.kind)
            {
                let local = sites
                    .iter()
                    .any(|s| s.name.name == *name && s.kind.defines());
                if !local && self.globals.defines(name) {
                    let what = match site.kind {
                        scope::SiteKind::Havoc => "havoc",
                        _ => "assign to",
                    };
                    self.err(
                        Diagnostic::error(
                            format!(
                                "cannot {what} module variable `{name}` inside function `{}`",
                                f.name.name
                            ),
                            site.name.span,
                        )
                        .with_label("module variable")
                        .with_note(
                            "note: functions may read module variables but never assign them; \
                             return the new value instead",
                        ),
                    );
                }
            }
        }
    }

    /// Each input may be declared once.
    pub(super) fn duplicate_inputs(&mut self, program: &Program) {
        let mut seen: BTreeMap<&str, Type> = BTreeMap::new();
        for (name, ty) in program.inputs() {
            match seen.get(name.name.as_str()) {
                // Different types are reported by `declare`.
                Some(first) if *first == ty => self.err(
                    Diagnostic::error(
                        format!("the input `{}` is declared more than once", name.name),
                        name.span,
                    )
                    .with_label("declared again here"),
                ),
                Some(_) => {}
                None => {
                    seen.insert(&name.name, ty);
                }
            }
        }
    }
}

/// Whether every path through `block` ends in `return` (conservatively: a statement that
/// always returns, where a statement always returns if it is a `return`, an `if` with an
/// `else` whose branches all always return, a `try` whose body and handlers all always
/// return, or a `while True:` without a `break`).
fn always_returns(block: &[Stmt]) -> bool {
    block.iter().any(|s| match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::If {
            branches,
            orelse: Some(orelse),
        } => branches.iter().all(|(_, b)| always_returns(b)) && always_returns(orelse),
        StmtKind::Try { body, handlers } => {
            always_returns(body) && handlers.iter().all(|h| always_returns(&h.body))
        }
        StmtKind::While { cond, body, .. } => {
            matches!(cond.kind, ExprKind::Bool(true)) && !breaks(body)
        }
        StmtKind::LoopScope { body, .. } => always_returns(body) && !breaks(body),
        // A `for` may run its body zero times; its `else` runs unless a `break` left it.
        StmtKind::For { body, orelse, .. } => {
            orelse.as_deref().is_some_and(always_returns) && !breaks(body)
        }
        _ => false,
    })
}

/// Whether `block` contains a `break` of the loop whose body it is.
fn breaks(block: &[Stmt]) -> bool {
    block.iter().any(|s| match &s.kind {
        StmtKind::Break => true,
        StmtKind::If { branches, orelse } => {
            branches.iter().any(|(_, b)| breaks(b)) || orelse.as_deref().is_some_and(breaks)
        }
        StmtKind::Try { body, handlers } => {
            breaks(body) || handlers.iter().any(|h| breaks(&h.body))
        }
        StmtKind::MethodFrame { body, .. } => breaks(body),
        // A nested loop's `break`s are its own; its `else` belongs to the outer loop.
        StmtKind::While { orelse, .. } | StmtKind::For { orelse, .. } => {
            orelse.as_deref().is_some_and(breaks)
        }
        _ => false,
    })
}
