//! Templates: what one folded iteration of a loop does, over head symbols (NEXT.md §1.2–1.3).
//!
//! From a *head state* in which every variable is a fresh head symbol `x@h`, one iteration
//! is enumerated with the engine's own [`Stepper`] (no solver). A *cyclic* path comes back
//! to the loop's guard; each variable it changes must have a closed form after κ
//! iterations: R1 induction `x ↦ x + κ·d` (`d` loop-invariant), R2 reset
//! `x ↦ ite(κ ≥ 1, e[θ^{κ−1}], x)` (`e` free of `x`, its dependencies acyclic). Anything
//! else is refused with a reason.

use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use num_traits::{One, Signed};

use super::super::step::Stepper;
use super::basics::refuse;
pub use super::basics::{head_sym, sig_of, NoTemplate, MAX_PATHS};
pub(super) use super::enumerate::Cyclic;
use super::StepSig;
use crate::base::Span;
use crate::term::linear::{linear_in, mentions};
use crate::term::{Sort, Sym, Term};
use crate::transform::ir::Block;

/// The closed form of a variable after κ iterations of the path.
#[derive(Clone, Debug)]
pub enum Closed {
    /// R1: `x ↦ x@h + κ·step` (`step` over head symbols of unchanged variables).
    Induction(Term),
    /// R2: `x ↦ ite(κ ≥ 1, value[θ^{κ−1}], x@h)`.
    Reset(Term),
}

/// A loop's template: one cyclic path and the closed forms of what it changes.
#[derive(Clone, Debug)]
pub struct Template {
    /// The `while` statement.
    pub span: Span,
    /// The path, one signature per step after the head (the guard's step first).
    pub path: Vec<StepSig>,
    /// For display: each step's statement and which way it went (`enter`, `then`,
    /// `else`, or empty for a straight-line statement).
    pub steps: Vec<(Span, &'static str)>,
    /// Every variable of the head state and its head symbol.
    pub head: Vec<(Rc<str>, Sym)>,
    /// The changed variables' closed forms, in dependency order.
    pub closed: Vec<(Rc<str>, Sym, Closed)>,
    /// What one iteration requires (the guard, branch conditions, "does not raise"),
    /// over head symbols.
    pub step_cond: Term,
    /// A recursion template (issue 27): the function and its return phase.
    pub recursion: Option<Rc<super::rec_info::Recursion>>,
    /// A two-parameter template (issue 27): its two paths (then `closed` is empty).
    pub multi: Option<Rc<super::basics::Multi>>,
}

/// Compute the template of the `while` at `block[index]` in function `func` (`None`:
/// module code). `stepper` must not bound unrolling.
pub fn template_for(
    stepper: &Stepper,
    block: &Block,
    index: usize,
    func: Option<&Rc<str>>,
) -> Result<Template, NoTemplate> {
    let span = block[index].span;
    let (head, cyclic) = super::enumerate::cyclic_paths(stepper, block, index, func)?;
    let mut best: Option<(usize, usize, Template)> = None;
    let mut first_err = None;
    for c in cyclic {
        match classify(span, &head, c) {
            Ok(t) => {
                let resets = t
                    .closed
                    .iter()
                    .filter(|(_, _, c)| matches!(c, Closed::Reset(_)))
                    .count();
                let key = (t.closed.len(), resets);
                if best.as_ref().is_none_or(|(m, r, _)| key < (*m, *r)) {
                    best = Some((key.0, key.1, t));
                }
            }
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    match best {
        Some((_, _, t)) => Ok(t),
        None => Err(first_err.expect("a cyclic path was classified")),
    }
}

/// R0/R1/R2 for each variable a cyclic path changes.
pub(super) fn classify(
    span: Span,
    head: &[(Rc<str>, Sym)],
    c: Cyclic,
) -> Result<Template, NoTemplate> {
    let step_cond = Term::and_all(c.conds.iter().cloned());
    let mut changed: Vec<(Rc<str>, Sym, Term)> = Vec::new();
    for (name, sym) in head {
        match c.env.get(&**name) {
            Some(v) if *v == Term::var(sym.clone()) => {}
            Some(v) => changed.push((name.clone(), sym.clone(), v.clone())),
            None => {}
        }
    }
    let m0: BTreeSet<Sym> = changed.iter().map(|(_, s, _)| s.clone()).collect();
    let at = |_name: &str| span;
    let mut induction: HashMap<Sym, Term> = HashMap::new();
    let mut resets: Vec<(Rc<str>, Sym, Term)> = Vec::new();
    for (name, sym, v) in &changed {
        match sym.sort {
            Sort::Seq => {
                return Err(refuse(
                    format!("the tuple `{name}` changes on every iteration (not in v1)"),
                    at(name),
                ))
            }
            Sort::Bool if !mentions(v, sym) => resets.push((name.clone(), sym.clone(), v.clone())),
            Sort::Bool => {
                return Err(refuse(
                    format!("`{name}` is computed from its own previous value (not in v1)"),
                    at(name),
                ))
            }
            Sort::Int => match linear_in(v, sym) {
                Some((k, _)) if k == num_bigint::BigInt::from(0) && !mentions(v, sym) => {
                    resets.push((name.clone(), sym.clone(), v.clone()))
                }
                Some((k, d)) if k.is_one() => {
                    let mut vars = BTreeSet::new();
                    d.vars(&mut vars);
                    if let Some(other) = vars.iter().find(|s| m0.contains(s)) {
                        let other = other.name.trim_end_matches("@h").to_string();
                        return Err(refuse(
                            format!(
                                "`{name}` grows by a value that changes with the iteration \
                                 (it reads `{other}`; a sum, not in v1)"
                            ),
                            at(name),
                        ));
                    }
                    induction.insert(sym.clone(), d);
                }
                Some(_) => {
                    return Err(refuse(
                        format!("`{name}` is multiplied on every iteration (a geometric progression; not in v1)"),
                        at(name),
                    ))
                }
                None => {
                    return Err(refuse(
                        format!("`{name}`'s new value is not linear in its old one (not in v1)"),
                        at(name),
                    ))
                }
            },
        }
    }
    // Order the resets by their dependencies among resets (acyclic).
    let mut closed: Vec<(Rc<str>, Sym, Closed)> = changed
        .iter()
        .filter(|(_, s, _)| induction.contains_key(s))
        .map(|(n, s, _)| {
            (
                n.clone(),
                s.clone(),
                Closed::Induction(induction[s].clone()),
            )
        })
        .collect();
    let mut done: BTreeSet<Sym> = induction.keys().cloned().collect();
    let mut pending = resets;
    while !pending.is_empty() {
        let before = pending.len();
        let mut rest = Vec::new();
        for (name, sym, v) in pending {
            let mut vars = BTreeSet::new();
            v.vars(&mut vars);
            if vars.iter().all(|s| !m0.contains(s) || done.contains(s)) {
                done.insert(sym.clone());
                closed.push((name, sym, Closed::Reset(v)));
            } else {
                rest.push((name, sym, v));
            }
        }
        if rest.len() == before {
            let names: Vec<String> = rest.iter().map(|(n, _, _)| format!("`{n}`")).collect();
            return Err(refuse(
                format!(
                    "{} are reset from each other's previous values (a cycle; not in v1)",
                    names.join(" and ")
                ),
                span,
            ));
        }
        pending = rest;
    }
    // The measured fragment (NEXT.md §1.5): the iteration condition may read induction
    // variables with constant steps only.
    let mut cond_vars = BTreeSet::new();
    step_cond.vars(&mut cond_vars);
    for (name, sym, cl) in &closed {
        if !cond_vars.contains(sym) {
            continue;
        }
        match cl {
            // A symbolic step is fine where QE removes it (orderings: both ends decide);
            // the instantiation refuses a quantifier left over such a product.
            Closed::Induction(_) => {}
            Closed::Reset(_) => {
                return Err(refuse(
                    format!(
                        "the loop's conditions read `{name}`, which the path resets (not in v1)"
                    ),
                    span,
                ))
            }
        }
    }
    Ok(Template {
        span,
        path: c.sigs,
        steps: c.steps,
        head: head.to_vec(),
        closed,
        step_cond,
        recursion: None,
        multi: None,
    })
}

impl Template {
    /// The closed forms after `n` iterations (`n` any Int term), over head symbols: head
    /// symbol of each changed variable → its value.
    pub fn after(&self, n: &Term) -> HashMap<Sym, Term> {
        let mut out = HashMap::new();
        for (_, sym, _) in &self.closed {
            out.insert(sym.clone(), self.value_after(sym, n, 0));
        }
        out
    }

    fn value_after(&self, sym: &Sym, n: &Term, depth: usize) -> Term {
        let Some((_, _, cl)) = self.closed.iter().find(|(_, s, _)| s == sym) else {
            return Term::var(sym.clone());
        };
        match cl {
            Closed::Induction(d) => {
                let x = Term::var(sym.clone());
                match d.as_int() {
                    Some(k) if k.is_negative() => Term::sub(x, Term::mul(Term::int(-k), n.clone())),
                    Some(k) => Term::add(x, Term::mul(Term::int(k.clone()), n.clone())),
                    None => Term::add(x, Term::mul(n.clone(), d.clone())),
                }
            }
            Closed::Reset(e) => {
                let prev = Term::sub(n.clone(), Term::int(1));
                let mut deps = BTreeSet::new();
                e.vars(&mut deps);
                let mut map = HashMap::new();
                for dep in deps {
                    if self.closed.iter().any(|(_, s, _)| *s == dep) && depth < self.closed.len() {
                        map.insert(dep.clone(), self.value_after(&dep, &prev, depth + 1));
                    }
                }
                Term::ite(
                    Term::ge(n.clone(), Term::int(1)),
                    e.subst(&map),
                    Term::var(sym.clone()),
                )
            }
        }
    }
}
