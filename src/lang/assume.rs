//! Preconditions from the command line: `--assume EXPR` (repeatable).
//!
//! Each expression is minipy, parsed and type-checked in the scope where it applies, and
//! runs exactly as an `assume EXPR` statement that is the first statement executed:
//! - in a module run, the first statement of the module; it may mention the program's
//!   declared inputs (`x: int`), its functions and predicates;
//! - in an `--entry f` run, the first statement of `f` at the entry call (after the
//!   module's top level has run, as an import runs it; `f`'s other calls, recursive ones
//!   included, are not constrained); it may mention `f`'s parameters, the module
//!   variables the top level assigns, functions and predicates. A declared module input is
//!   unbound on import, so it is refused there, as is a local of `f` that is not assigned
//!   yet when `f` starts.
//!
//! The statements go to [`Program::preconditions`] with virtual spans
//! ([`crate::base::span::assumption_span`]): messages, path-condition origins and
//! counterexamples then say `--assume #k` instead of pointing into the file. Mentioning a
//! name that is not in scope, a syntax error and a type error are diagnostics located in
//! the expression, never a panic.

use std::collections::BTreeSet;

use super::ast::*;
use super::entry::{entry_function, free_names};
use super::types::{self, TypeInfo};
use crate::base::span::assumption_span;
use crate::base::Span;
use crate::diagnostics::Diagnostic;

/// At most this many `--assume` expressions.
pub const MAX_ASSUMPTIONS: usize = 1000;

/// `program` with the preconditions `texts` (the `--assume` expressions, `#1` first) for a
/// run of `entry` (`None`: a module run), and its type information; or every error found.
pub fn apply(
    program: &Program,
    entry: Option<&str>,
    texts: &[String],
) -> Result<(Program, TypeInfo), Vec<Diagnostic>> {
    let types = types::check(program)?;
    if texts.is_empty() {
        return Ok((program.clone(), types));
    }
    if texts.len() > MAX_ASSUMPTIONS {
        return Err(vec![Diagnostic::global(format!(
            "too many --assume expressions: {} (at most {MAX_ASSUMPTIONS})",
            texts.len()
        ))]);
    }
    let func = match entry {
        Some(f) => Some(entry_function(program, f).map_err(|d| vec![d])?),
        None => None,
    };
    let scope = Scope::new(program, &types, func);
    let mut diags = Vec::new();
    let mut stmts = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let k = i + 1;
        match parse(k, text) {
            Ok(e) => {
                let before = diags.len();
                scope.names(k, &e, &mut diags);
                if diags.len() == before {
                    stmts.push(Stmt {
                        span: e.span,
                        kind: StmtKind::Assume(e),
                    });
                }
            }
            Err(mut d) => diags.append(&mut d),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    // Type-check each expression where it runs: at the start of the module, or of `f`.
    let mut checked = program.clone();
    let block = match func {
        None => &mut checked.body,
        Some(f) => {
            let def = checked.body.iter_mut().find_map(|s| match &mut s.kind {
                StmtKind::FunctionDef(d) if d.name.name == f.name.name => Some(d),
                _ => None,
            });
            &mut def.expect("the entry function exists").body
        }
    };
    block.splice(0..0, stmts.iter().cloned());
    let types = types::check(&checked)?;
    let mut out = program.clone();
    out.preconditions = stmts;
    Ok((out, types))
}

/// Parse `--assume` expression `k`, with spans in its virtual place.
fn parse(k: usize, text: &str) -> Result<Expr, Vec<Diagnostic>> {
    let at = |s: Span| assumption_span(k, s.start, s.end);
    if text.trim().is_empty() {
        return Err(vec![Diagnostic::error(
            format!("--assume #{k} is empty"),
            at(Span::new(0, 0)),
        )
        .with_label("expected a minipy expression, e.g. --assume \"x > 0\"")]);
    }
    if text.contains(['\n', '\r']) {
        let nl = text.find(['\n', '\r']).unwrap_or(0);
        return Err(vec![Diagnostic::error(
            format!("--assume #{k} spans several lines"),
            at(Span::new(nl, nl + 1)),
        )
        .with_label("one expression on one line")]);
    }
    match super::parse_expr(text) {
        Ok(mut e) => {
            shift(&mut e, &at);
            Ok(e)
        }
        Err(ds) => Err(ds
            .into_iter()
            .map(|mut d| {
                d.span = Some(at(d.span.unwrap_or_default()));
                d.message = format!("{} (in --assume #{k})", d.message);
                d
            })
            .collect()),
    }
}

/// Move every span of `e` with `at`.
fn shift(e: &mut Expr, at: &dyn Fn(Span) -> Span) {
    e.span = at(e.span);
    match &mut e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) => {}
        ExprKind::Tuple(es) => es.iter_mut().for_each(|e| shift(e, at)),
        ExprKind::Unary { operand, .. } => shift(operand, at),
        ExprKind::Binary { lhs, rhs, .. } | ExprKind::BoolOp { lhs, rhs, .. } => {
            shift(lhs, at);
            shift(rhs, at);
        }
        ExprKind::Compare { first, rest } => {
            shift(first, at);
            rest.iter_mut().for_each(|(_, e)| shift(e, at));
        }
        ExprKind::Index { base, index } => {
            shift(base, at);
            shift(index, at);
        }
        ExprKind::Slice { base, lo, hi, step } => {
            shift(base, at);
            for part in [lo, hi, step].into_iter().flatten() {
                shift(part, at);
            }
        }
        ExprKind::IfExp { cond, then, orelse } => {
            shift(cond, at);
            shift(then, at);
            shift(orelse, at);
        }
        ExprKind::Call { func, args } => {
            func.span = at(func.span);
            args.iter_mut().for_each(|e| shift(e, at));
        }
        ExprKind::Quantifier {
            var, lo, hi, body, ..
        } => {
            var.span = at(var.span);
            if let Some(lo) = lo {
                shift(lo, at);
            }
            shift(hi, at);
            shift(body, at);
        }
    }
}

/// What an `--assume` expression may mention where it runs.
struct Scope<'p> {
    func: Option<&'p FunctionDef>,
    /// Module run: the declared inputs. Entry run: `f`'s parameters.
    inputs: Vec<String>,
    /// Declared inputs that the top level never assigns (unbound on import).
    unbound_inputs: BTreeSet<String>,
    /// Module variables (inputs and assigned names).
    globals: BTreeSet<String>,
    /// Entry run: `f`'s locals that are not parameters.
    locals: BTreeSet<String>,
    functions: BTreeSet<String>,
}

impl<'p> Scope<'p> {
    fn new(program: &'p Program, types: &TypeInfo, func: Option<&'p FunctionDef>) -> Self {
        let inputs = match func {
            None => program.inputs().map(|(id, _)| id.name.clone()).collect(),
            Some(f) => f.params.iter().map(|p| p.name.name.clone()).collect(),
        };
        let declared: BTreeSet<String> = program.inputs().map(|(id, _)| id.name.clone()).collect();
        let mut unbound_inputs = declared.clone();
        let mut assigned = BTreeSet::new();
        assigned_at_top(&program.body, &mut assigned);
        unbound_inputs.retain(|n| !assigned.contains(n));
        let locals = func
            .and_then(|f| types.locals.get(&f.name.name))
            .map(|l| {
                l.keys()
                    .filter(|n| func.is_some_and(|f| f.params.iter().all(|p| &p.name.name != *n)))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        Scope {
            func,
            inputs,
            unbound_inputs,
            globals: types.globals.keys().cloned().collect(),
            locals,
            functions: types.functions.keys().cloned().collect(),
        }
    }

    /// Report every name of `e` that is not in scope.
    fn names(&self, k: usize, e: &Expr, diags: &mut Vec<Diagnostic>) {
        let mut names = BTreeSet::new();
        free_names(e, &mut Vec::new(), &mut names);
        let what = match self.func {
            None => "the program's inputs".to_string(),
            Some(f) => format!("the parameters of `{}`", f.name.name),
        };
        let allowed = if self.inputs.is_empty() {
            format!("{what}: none")
        } else {
            let list: Vec<String> = self.inputs.iter().map(|n| format!("`{n}`")).collect();
            format!("{what}: {}", list.join(", "))
        };
        for name in names {
            if self.functions.contains(&name) || is_builtin_name(&name) {
                continue;
            }
            if self.inputs.contains(&name) {
                continue;
            }
            let why = match self.func {
                Some(f) if self.locals.contains(&name) => format!(
                    "`{name}` is a local variable of `{}`, not assigned yet when it starts",
                    f.name.name
                ),
                Some(f) if self.unbound_inputs.contains(&name) => format!(
                    "`{name}` is a module input, which `--entry {}` leaves unbound (an import binds no input)",
                    f.name.name
                ),
                Some(_) if self.globals.contains(&name) => continue,
                None if self.globals.contains(&name) => format!(
                    "`{name}` is not an input of the program: it is not assigned yet when the program starts"
                ),
                _ => format!("unknown name `{name}` in --assume #{k}"),
            };
            let span = first_span(e, &name).unwrap_or(e.span);
            diags.push(
                Diagnostic::error(why, span)
                    .with_label("not in scope here")
                    .with_note(format!("--assume #{k} may mention {allowed}")),
            );
        }
    }
}

/// Names assigned at the top level (outside function bodies).
fn assigned_at_top(body: &[Stmt], out: &mut BTreeSet<String>) {
    for s in body {
        match &s.kind {
            StmtKind::Assign { target, .. } | StmtKind::AugAssign { target, .. } => {
                out.insert(target.name.clone());
            }
            StmtKind::Havoc(x) => {
                out.insert(x.name.clone());
            }
            StmtKind::MethodFrame { result, .. } => {
                out.insert(result.name.clone());
            }
            _ => {}
        }
        for b in s.nested_blocks() {
            assigned_at_top(b, out);
        }
    }
}

/// The span of the first mention of `name` in `e` (a variable or a call's name).
fn first_span(e: &Expr, name: &str) -> Option<Span> {
    let mut found = None;
    visit(e, &mut |x| {
        if found.is_some() {
            return;
        }
        match &x.kind {
            ExprKind::Name(n) if n == name => found = Some(x.span),
            ExprKind::Call { func, .. } if func.name == name => found = Some(func.span),
            _ => {}
        }
    });
    found
}

fn visit(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) => {}
        ExprKind::Tuple(es) | ExprKind::Call { args: es, .. } => {
            es.iter().for_each(|e| visit(e, f))
        }
        ExprKind::Unary { operand, .. } => visit(operand, f),
        ExprKind::Binary { lhs, rhs, .. } | ExprKind::BoolOp { lhs, rhs, .. } => {
            visit(lhs, f);
            visit(rhs, f);
        }
        ExprKind::Compare { first, rest } => {
            visit(first, f);
            rest.iter().for_each(|(_, e)| visit(e, f));
        }
        ExprKind::Index { base, index } => {
            visit(base, f);
            visit(index, f);
        }
        ExprKind::Slice { .. } | ExprKind::IfExp { .. } => {
            e.children().into_iter().for_each(|e| visit(e, f))
        }
        ExprKind::Quantifier { lo, hi, body, .. } => {
            if let Some(lo) = lo {
                visit(lo, f);
            }
            visit(hi, f);
            visit(body, f);
        }
    }
}

#[cfg(test)]
mod tests;
