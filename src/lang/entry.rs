//! What an `--entry f` run means: `import module; module.f(args)`.
//!
//! The whole top level of the module runs first, in source order, exactly as an `import`
//! runs it: assignments, calls, loops, `if`s, `try`s, `assert`s, `def`s. Then `f` is called
//! with the inputs as its arguments. If the top level raises (an uncaught exception or a
//! failed `assert`), the import fails: that exception is the outcome of the run and `f` is
//! never called. A top level that does not end is cut like any other code (the concrete
//! interpreter's step budget, the engine's `--unroll` bound).
//!
//! A declared module input (`x: int`, an annotation without a value) binds nothing, as in
//! Python: in an entry run only `f`'s parameters are inputs, so top-level code that reads
//! `x` raises `NameError`, as `python3 -c "import module"` does. [`unbound_input_reads`]
//! finds such reads so that the front-ends can say why.
//!
//! The concrete interpreter, the symbolic engine and the CPython oracle of the tests
//! (`tests/py/run_python.py`) all follow this one rule.

use std::collections::BTreeSet;

use super::ast::*;
use crate::base::{SourceMap, Span};
use crate::diagnostics::Diagnostic;

/// The function `--entry name` analyses, or why there is none. `run`, `check`, `exec` and
/// the debugger all ask here, so they accept and refuse the same names: a `@predicate` is
/// refused (it is part of a specification, read as a formula where it is used, not code to
/// run on its own).
pub fn entry_function<'p>(program: &'p Program, name: &str) -> Result<&'p FunctionDef, Diagnostic> {
    let names: Vec<String> = program
        .functions()
        .filter(|f| !f.predicate)
        .map(|f| format!("`{}`", f.name.name))
        .collect();
    let note = if names.is_empty() {
        "the program defines no function that --entry can analyse".to_string()
    } else {
        format!("the functions --entry can analyse: {}", names.join(", "))
    };
    match program.function(name) {
        Some(f) if !f.predicate => Ok(f),
        Some(_) => Err(Diagnostic::global(format!(
            "`{name}` is a @predicate: --entry analyses a function, not a predicate"
        ))
        .with_note("a predicate is part of a specification: it is read as a formula where an assert, assume or invariant uses it")
        .with_note(note)),
        None => Err(Diagnostic::global(format!("there is no function `{name}` to analyse")).with_note(note)),
    }
}

/// The note for a module run (no `--entry`) of a module whose top level only defines
/// functions (and declares inputs): no code runs there, so the tree is one `normal` leaf.
/// It names the functions `--entry` can analyse; `None` when code runs at module level or
/// there is no such function.
pub fn no_module_code(program: &Program) -> Option<String> {
    let only_definitions = program
        .body
        .iter()
        .all(|s| matches!(s.kind, StmtKind::FunctionDef(_) | StmtKind::Declare { .. }));
    let names: Vec<String> = program
        .functions()
        .filter(|f| !f.predicate)
        .map(|f| format!("`{}`", f.name.name))
        .collect();
    if !only_definitions || names.is_empty() {
        return None;
    }
    let example = program
        .functions()
        .find(|f| !f.predicate)?
        .name
        .name
        .clone();
    Some(format!(
        "no code runs at module level (it only defines functions): to analyse a function, \
         give --entry NAME, e.g. `--entry {example}` (functions: {})",
        names.join(", ")
    ))
}

/// The warning for an entry run of `f` whose top level reads a declared input (see
/// [`unbound_input_reads`]), or `None`.
pub fn import_warning(program: &Program, f: &str, source: &SourceMap) -> Option<String> {
    let (name, at) = unbound_input_reads(program).into_iter().next()?;
    let (line, col) = source.line_col(at.start);
    // `f` is whatever was typed after --entry, the file name whatever the file is called.
    let f = crate::base::escape::escape(f);
    let file = crate::base::escape::escape(&source.name);
    // A module-level `assume` over inputs is a precondition of the module run; the one of
    // an entry run is given with `--assume` (see `lang::assume`).
    let in_assume = program.body.iter().any(|s| {
        matches!(s.kind, StmtKind::Assume(_)) && s.span.start <= at.start && at.end <= s.span.end
    });
    let hint = if in_assume {
        format!(
            "; for a precondition of `{f}`, give it on the command line over `{f}`'s parameters: --assume \"EXPR\""
        )
    } else {
        String::new()
    };
    Some(format!(
        "`--entry {f}` runs the module's top level first, as `import` does; \
         {file}:{line}:{col} reads the input `{name}`, which only a module run binds \
         (on import it is unbound: NameError){hint}"
    ))
}

/// Top-level reads (outside function bodies) of declared module inputs that are not
/// assigned anywhere at the top level: in an entry run they raise `NameError` when they
/// run. In source order, one per statement at most.
pub fn unbound_input_reads(program: &Program) -> Vec<(String, Span)> {
    let inputs: BTreeSet<&str> = program.inputs().map(|(id, _)| id.name.as_str()).collect();
    let mut assigned = BTreeSet::new();
    top_level_assigned(&program.body, &mut assigned);
    let unbound: BTreeSet<&str> = inputs
        .into_iter()
        .filter(|n| !assigned.contains(*n))
        .collect();
    let mut out = Vec::new();
    reads_in(&program.body, &unbound, &mut out);
    out
}

fn top_level_assigned<'a>(body: &'a [Stmt], out: &mut BTreeSet<&'a str>) {
    for s in body {
        match &s.kind {
            StmtKind::Assign { target, .. } | StmtKind::AugAssign { target, .. } => {
                out.insert(&target.name);
            }
            StmtKind::Havoc(x) => {
                out.insert(&x.name);
            }
            StmtKind::For { target, .. } => {
                out.insert(&target.name);
                for_each_block(s, |b| top_level_assigned(b, out));
            }
            StmtKind::MethodFrame { result, body } => {
                out.insert(&result.name);
                top_level_assigned(body, out);
            }
            _ => for_each_block(s, |b| top_level_assigned(b, out)),
        }
    }
}

fn reads_in(body: &[Stmt], unbound: &BTreeSet<&str>, out: &mut Vec<(String, Span)>) {
    for s in body {
        if matches!(s.kind, StmtKind::FunctionDef(_)) {
            continue;
        }
        let first = match &s.kind {
            StmtKind::AugAssign { target, .. } if unbound.contains(target.name.as_str()) => {
                Some((target.name.clone(), target.span))
            }
            _ => header_exprs(s)
                .into_iter()
                .find_map(|e| first_read(e, unbound, &mut Vec::new())),
        };
        out.extend(first);
        for_each_block(s, |b| reads_in(b, unbound, out));
    }
}

/// The first read (in source order) of one of `names` in `e`, with the name's span.
fn first_read(e: &Expr, names: &BTreeSet<&str>, bound: &mut Vec<String>) -> Option<(String, Span)> {
    let first = |items: &[&Expr], bound: &mut Vec<String>| {
        items.iter().find_map(|i| first_read(i, names, bound))
    };
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) => None,
        ExprKind::Name(n) => {
            (names.contains(n.as_str()) && !bound.contains(n)).then(|| (n.clone(), e.span))
        }
        ExprKind::Tuple(items) | ExprKind::Call { args: items, .. } => {
            first(&items.iter().collect::<Vec<_>>(), bound)
        }
        ExprKind::Unary { operand, .. } => first(&[operand], bound),
        ExprKind::Binary { lhs, rhs, .. } | ExprKind::BoolOp { lhs, rhs, .. } => {
            first(&[lhs, rhs], bound)
        }
        ExprKind::Index { base, index } => first(&[base, index], bound),
        // (In evaluation order: a conditional expression's condition first.)
        ExprKind::Slice { .. } | ExprKind::IfExp { .. } => first(&e.children(), bound),
        ExprKind::Compare { first: a, rest } => {
            let mut items = vec![&**a];
            items.extend(rest.iter().map(|(_, e)| e));
            first(&items, bound)
        }
        ExprKind::Quantifier {
            var, lo, hi, body, ..
        } => {
            let mut items: Vec<&Expr> = lo.iter().map(|b| &**b).collect();
            items.push(hi);
            if let Some(r) = first(&items, bound) {
                return Some(r);
            }
            bound.push(var.name.clone());
            let r = first(&[body], bound);
            bound.pop();
            r
        }
    }
}

/// The expressions a statement evaluates itself (not those of its nested blocks).
fn header_exprs(s: &Stmt) -> Vec<&Expr> {
    match &s.kind {
        StmtKind::Assign { value, .. } | StmtKind::AugAssign { value, .. } => vec![value],
        StmtKind::Expr(e) | StmtKind::Assert(e) | StmtKind::Assume(e) => vec![e],
        StmtKind::Print(args) => args.iter().collect(),
        StmtKind::Return(Some(e)) => vec![e],
        StmtKind::If { branches, .. } => branches.iter().map(|(c, _)| c).collect(),
        StmtKind::While {
            cond, invariants, ..
        } => std::iter::once(cond).chain(invariants).collect(),
        StmtKind::For {
            iter, invariants, ..
        } => std::iter::once(iter).chain(invariants).collect(),
        StmtKind::LoopScope { inv, .. } => vec![inv],
        _ => Vec::new(),
    }
}

/// Apply `f` to every block nested directly in `s` (not function bodies).
fn for_each_block<'a>(s: &'a Stmt, mut f: impl FnMut(&'a [Stmt])) {
    match &s.kind {
        StmtKind::If { branches, orelse } => {
            branches.iter().for_each(|(_, b)| f(b));
            if let Some(b) = orelse {
                f(b);
            }
        }
        StmtKind::While { body, orelse, .. } | StmtKind::For { body, orelse, .. } => {
            f(body);
            if let Some(b) = orelse {
                f(b);
            }
        }
        StmtKind::Try { body, handlers } => {
            f(body);
            handlers.iter().for_each(|h| f(&h.body));
        }
        StmtKind::MethodFrame { body, .. } | StmtKind::LoopScope { body, .. } => f(body),
        _ => {}
    }
}

/// The names an expression reads (variables and called functions), without quantifier
/// variables bound inside it.
pub fn free_names(e: &Expr, bound: &mut Vec<String>, out: &mut BTreeSet<String>) {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) => {}
        ExprKind::Name(n) => {
            if !bound.contains(n) {
                out.insert(n.clone());
            }
        }
        ExprKind::Tuple(items) => items.iter().for_each(|i| free_names(i, bound, out)),
        ExprKind::Unary { operand, .. } => free_names(operand, bound, out),
        ExprKind::Binary { lhs, rhs, .. } | ExprKind::BoolOp { lhs, rhs, .. } => {
            free_names(lhs, bound, out);
            free_names(rhs, bound, out);
        }
        ExprKind::Compare { first, rest } => {
            free_names(first, bound, out);
            rest.iter().for_each(|(_, e)| free_names(e, bound, out));
        }
        ExprKind::Index { base, index } => {
            free_names(base, bound, out);
            free_names(index, bound, out);
        }
        ExprKind::Slice { .. } | ExprKind::IfExp { .. } => e
            .children()
            .into_iter()
            .for_each(|c| free_names(c, bound, out)),
        ExprKind::Call { func, args } => {
            out.insert(func.name.clone());
            args.iter().for_each(|a| free_names(a, bound, out));
        }
        ExprKind::Quantifier {
            var, lo, hi, body, ..
        } => {
            if let Some(lo) = lo {
                free_names(lo, bound, out);
            }
            free_names(hi, bound, out);
            bound.push(var.name.clone());
            free_names(body, bound, out);
            bound.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_top_level_reads_of_unassigned_inputs() {
        let src = "\
x: int
t: tuple
y: int
y = 3
def f(a: int) -> int:
    return a + x
r = y + 1
while len(t) > 0:
    t = t + (1,)
if r > 0:
    s = f(x)
";
        let p = crate::lang::parse(src).unwrap();
        let reads: Vec<(String, usize)> = unbound_input_reads(&p)
            .into_iter()
            .map(|(n, s)| (n, s.start))
            .collect();
        // `t` is assigned at the top level (inside the loop), `y` before its read; the read
        // of `x` inside `f` is not top-level code.
        let at = |needle: &str| src.find(needle).unwrap();
        assert_eq!(reads, [("x".to_string(), at("x)"))]);
    }
}
