//! The comparisons and conditions of a path that [`super`]'s preferences are made of.

use std::collections::BTreeSet;

use super::FAR;
use crate::lang::ast::CmpOp;
use crate::term::{Sort, Sym, Term, TermKind as K};

/// [`Engine::tight`]'s (or, `far`, [`Engine::far`]'s) preferences of `t` when it holds
/// (`positive`) or fails.
pub(super) fn comparison_atoms(t: &Term, positive: bool, far: bool, out: &mut Vec<Term>) {
    match t.kind() {
        // A disjunction (`a or b`, `not (a and b)`: a loop `while k < n and k < 3` that
        // ended): each disjunct at its flip while the others fail, so that each is what
        // decides (`k == 3` with `n > 3`: not `k == n == 3`, where `k < 4` ends too).
        K::And(xs) | K::Or(xs)
            if !far
                && positive == matches!(t.kind(), K::Or(..))
                && !xs.iter().any(has_quantifier) =>
        {
            for (i, x) in xs.iter().enumerate() {
                let mut atoms = Vec::new();
                comparison_atoms(x, positive, far, &mut atoms);
                let others = xs
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, y)| {
                        if positive {
                            Term::not(y.clone())
                        } else {
                            y.clone()
                        }
                    });
                let others = Term::and_all(others);
                out.extend(atoms.into_iter().map(|p| Term::and(p, others.clone())));
            }
        }
        // Under `or` (positive) each disjunct's atoms too: a preference only narrows the
        // path, whichever disjunct holds.
        K::And(xs) | K::Or(xs) => xs
            .iter()
            .for_each(|x| comparison_atoms(x, positive, far, out)),
        K::Not(a) => comparison_atoms(a, !positive, far, out),
        // A fold's quantifier (`all(P(τ) for τ in range(lo, hi))`, or a negated `any`):
        // its comparisons in the first iteration (`P(lo)`), when there is one, at their
        // flip (`v < x` in the loop body as `t[0] - x == -1`).
        K::Forall(v, lo, hi, body) | K::Exists(v, lo, hi, body)
            if !far && positive == matches!(t.kind(), K::Forall(..)) =>
        {
            let mut first = Vec::new();
            let body = body.subst1(v, lo);
            comparison_atoms(&body, positive, far, &mut first);
            // The loop body's branches (a two-parameter fold's `if`): at equality.
            ite_comparisons(&body, &mut first);
            let runs = Term::lt(lo.clone(), hi.clone());
            out.extend(first.into_iter().map(|p| Term::and(runs.clone(), p)));
        }
        K::Cmp(op, a, b) if a.sort() == Sort::Int && !has_quantifier(a) && !has_quantifier(b) => {
            let op = if positive { Some(*op) } else { negate(*op) };
            // Not a length far from its flip: a 20-element tuple is no better a test.
            if far && (has_len(a) || has_len(b)) {
                return;
            }
            let diff = Term::sub(a.clone(), b.clone());
            let p = match (op, far) {
                (Some(CmpOp::Lt | CmpOp::Le), true) => Term::le(diff, Term::int(-FAR)),
                (Some(CmpOp::Gt | CmpOp::Ge | CmpOp::Ne), true) => Term::ge(diff, Term::int(FAR)),
                (Some(CmpOp::Lt), false) => Term::eq(diff, Term::int(-1)),
                (Some(CmpOp::Le | CmpOp::Ge), false) => Term::eq(diff, Term::int(0)),
                (Some(CmpOp::Gt | CmpOp::Ne), false) => Term::eq(diff, Term::int(1)),
                _ => return,
            };
            out.push(p);
        }
        _ => {}
    }
}

/// The integer comparisons of each `if` condition in `t` (not in quantifiers) as
/// `a - b == 0`.
pub(super) fn ite_comparisons(t: &Term, out: &mut Vec<Term>) {
    match t.kind() {
        K::Forall(..) | K::Exists(..) => {}
        K::Ite(c, a, b) => {
            value_comparisons(c, out);
            ite_comparisons(a, out);
            ite_comparisons(b, out);
        }
        k => k.for_each_child(|c| ite_comparisons(c, out)),
    }
}

/// Each integer comparison `a op b` of a value `t` (not in quantifiers) as `a - b == 0`.
pub(super) fn value_comparisons(t: &Term, out: &mut Vec<Term>) {
    match t.kind() {
        K::Forall(..) | K::Exists(..) => {}
        K::Cmp(op, a, b) if a.sort() == Sort::Int && !matches!(op, CmpOp::In | CmpOp::NotIn) => {
            out.push(Term::eq(Term::sub(a.clone(), b.clone()), Term::int(0)))
        }
        k => k.for_each_child(|c| value_comparisons(c, out)),
    }
}

/// The comparison that holds when `op` fails.
pub(super) fn negate(op: CmpOp) -> Option<CmpOp> {
    Some(match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
        CmpOp::In | CmpOp::NotIn => return None,
    })
}

/// The conjuncts of `t` (itself when not an `and`).
pub(super) fn conjuncts(t: &Term) -> Vec<Term> {
    match t.kind() {
        K::And(xs) => xs.iter().flat_map(conjuncts).collect(),
        _ => vec![t.clone()],
    }
}

/// A fold's own bounds on its counts (`κ1 >= 0`, `κ1 <= 0 or κ1 - 1 < n`: the loop ran
/// before its last iteration), not a comparison of the program: its boundary (`κ1 == 0`)
/// is the minimal model's, and the loop's exit condition has the same flip.
pub(super) fn bookkeeping(t: &Term, params: &BTreeSet<Sym>) -> bool {
    let counts = |x: &Term| {
        let mut vars = BTreeSet::new();
        x.vars(&mut vars);
        !vars.is_empty() && vars.iter().all(|v| params.contains(v))
    };
    let zero = |b: &Term| b.as_int().is_some_and(|v| *v == 0.into());
    match t.kind() {
        K::Cmp(CmpOp::Ge, a, b) => zero(b) && counts(a),
        K::Or(xs) => xs
            .iter()
            .any(|x| matches!(x.kind(), K::Cmp(CmpOp::Le, a, b) if zero(b) && counts(a))),
        _ => false,
    }
}

/// A loop's exit on an element (`t[κ1] == x`: a search that found it) that would exit one
/// iteration later too (`t[κ1 + 1] == x`, an element there), at κ1 = 0 and at κ1 = 1: a
/// search that skips an element (`i = 1`, `i += 2`) finds the later one.
pub(super) fn next_iteration(c: &Term, params: &BTreeSet<Sym>) -> Option<[Term; 2]> {
    if has_quantifier(c) {
        return None;
    }
    let mut vars = BTreeSet::new();
    c.vars(&mut vars);
    let k = vars.iter().find(|v| params.contains(*v))?;
    let mut indices = Vec::new();
    let mut todo = vec![c.clone()];
    while let Some(t) = todo.pop() {
        if let K::Index(seq, i) = t.kind() {
            let mut iv = BTreeSet::new();
            i.vars(&mut iv);
            if iv.contains(k) {
                indices.push((seq.clone(), i.clone()));
            }
        }
        t.kind().for_each_child(|c| todo.push(c.clone()));
    }
    if indices.is_empty() {
        return None;
    }
    let next = Term::add(Term::var(k.clone()), Term::int(1));
    let mut parts = vec![c.subst1(k, &next)];
    for (seq, i) in indices {
        parts.push(Term::lt(i.subst1(k, &next), Term::len(seq)));
    }
    let at = |n: i64| {
        let mut p = parts.clone();
        p.push(Term::eq(Term::var(k.clone()), Term::int(n)));
        Term::and_all(p)
    };
    Some([at(0), at(1)])
}

/// A sign preference of [`signed`] (`x < 0`, `x > 0`).
pub(super) fn is_sign(p: &Term) -> bool {
    matches!(p.kind(), K::Cmp(CmpOp::Lt | CmpOp::Gt, _, b) if b.as_int().is_some_and(|v| *v == 0.into()))
}

/// `x < 0` for even `i`, `x > 0` for odd.
pub(super) fn signed(x: Term, i: usize) -> Term {
    if i.is_multiple_of(2) {
        Term::lt(x, Term::int(0))
    } else {
        Term::gt(x, Term::int(0))
    }
}

/// The integer comparisons `(comparison, a, b)` of `t` under `and`, `or` and `not`.
pub(super) fn comparisons(t: &Term, out: &mut Vec<(Term, Term, Term)>) {
    match t.kind() {
        K::And(xs) | K::Or(xs) => xs.iter().for_each(|x| comparisons(x, out)),
        K::Not(a) => comparisons(a, out),
        K::Cmp(op, a, b)
            if a.sort() == Sort::Int
                && !matches!(op, CmpOp::In | CmpOp::NotIn)
                && !has_quantifier(a)
                && !has_quantifier(b) =>
        {
            out.push((t.clone(), a.clone(), b.clone()))
        }
        _ => {}
    }
}

pub(super) fn has_len(t: &Term) -> bool {
    let mut found = matches!(t.kind(), K::Len(_));
    t.kind().for_each_child(|c| found |= has_len(c));
    found
}

pub(super) fn has_quantifier(t: &Term) -> bool {
    let mut found = false;
    let mut todo = vec![t.clone()];
    while let Some(t) = todo.pop() {
        match t.kind() {
            K::Forall(..) | K::Exists(..) => found = true,
            k => k.for_each_child(|c| todo.push(c.clone())),
        }
        if found {
            break;
        }
    }
    found
}
