//! Assigned variables of two-parameter templates (issue 27): a `for` loop's target (`v =
//! $v.items[$v_index]`, `i = $i`) is neither unchanged nor increased by a constant, but
//! both paths assign it the same value `e`, computed from the head's values without
//! reading the variable itself. After κ + λ ≥ 1 iterations it holds `e` evaluated at the
//! last one, τ = κ + λ − 1, where each increased variable is `x + ω[τ]·d1 + (τ − ω[τ])·d2`
//! (`x + τ·d` when both paths add `d`, as for the loop's position); after none it keeps the
//! head's value — the one-parameter template's reset (R2), with the two paths' prefix
//! counts ω.
//!
//! The paths' conditions must not read such a variable's head value (it would be the
//! previous iteration's, which depends on the path that iteration took), nor may one
//! assigned value read another's.

use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use super::super::state::State;
use super::super::step::Stepper;
use super::basics::{plus, refuse, Assigned, Inc, Multi, NoTemplate};
use super::enumerate::Cyclic;
use super::instance::{bind, lookup};
use crate::base::Span;
use crate::term::linear::mentions;
use crate::term::{Sort, Sym, Term};
use crate::transform::ir::bound_flag_key;

/// The value both paths assign to `sym` (`name`'s head symbol), if they assign the same one
/// and it does not read `sym`.
pub(super) fn assigned(name: &Rc<str>, sym: &Sym, paths: [&Cyclic; 2]) -> Option<Assigned> {
    let v1 = paths[0].env.get(&**name)?;
    let v2 = paths[1].env.get(&**name)?;
    (v1 == v2 && !mentions(v1, sym)).then(|| Assigned {
        name: name.clone(),
        sym: sym.clone(),
        value: v1.clone(),
    })
}

/// The conditions of both paths and the assigned values read no assigned variable's head
/// value.
pub(super) fn check(
    span: Span,
    assigned: &[Assigned],
    paths: [&Cyclic; 2],
) -> Result<(), NoTemplate> {
    for a in assigned {
        if paths
            .iter()
            .any(|c| c.conds.iter().any(|t| mentions(t, &a.sym)))
        {
            return Err(refuse(
                format!(
                    "the paths' conditions read `{}` before the iteration assigns it (the \
                     previous iteration's value)",
                    a.name
                ),
                span,
            ));
        }
        if let Some(b) = assigned.iter().find(|b| mentions(&b.value, &a.sym)) {
            return Err(refuse(
                format!(
                    "`{}` is assigned from `{}`'s value of the previous iteration",
                    b.name, a.name
                ),
                span,
            ));
        }
    }
    Ok(())
}

/// The head symbols the assigned values read (their own head values may be unbound: see
/// [`bind_after`]).
pub(super) fn used(multi: &Multi, out: &mut BTreeSet<Sym>) {
    for a in &multi.assigned {
        a.value.vars(out);
    }
}

/// Each assigned variable after `k` iterations of path 1 and `l` of path 2 (prefix counts
/// `w`): its value at the last iteration if there was one, else `head(name)` (the head's
/// value; `None`: unbound). `sigma` binds the head symbols the values read.
fn after(
    multi: &Multi,
    sigma: &HashMap<Sym, Term>,
    [k, l, w]: [&Term; 3],
    head: impl Fn(&Assigned) -> Option<Term>,
) -> Vec<(Rc<str>, Term)> {
    let total = Term::add(k.clone(), l.clone());
    let last = Term::sub(total.clone(), Term::int(1));
    let at_last = at_iteration(&multi.incs, sigma, &last, w);
    multi
        .assigned
        .iter()
        .map(|a| {
            let v = a.value.subst(&at_last);
            let v = match head(a) {
                Some(h) => Term::ite(Term::ge(total.clone(), Term::int(1)), v, h),
                None => v,
            };
            (a.name.clone(), v)
        })
        .collect()
}

/// Bind each assigned variable in `post` (the state after κ + λ iterations) from `state`
/// (the head): its value at the last iteration if there was one, else the head's. A
/// variable that may be unbound at the head (a `for` loop's target before the first
/// iteration) gets the definedness flag "κ + λ ≥ 1 or bound at the head", which reads
/// raise on as they do after a loop's havoc. Returns the bound values, for the fold's
/// store.
pub(super) fn bind_after(
    replay: &Stepper,
    multi: &Multi,
    state: &State,
    post: &mut State,
    sigma: &HashMap<Sym, Term>,
    klw: [&Term; 3],
) -> Vec<(String, Term)> {
    let heads: HashMap<Rc<str>, (Option<Term>, Term)> = multi
        .assigned
        .iter()
        .map(|a| (a.name.clone(), head_value(replay, state, &a.name)))
        .collect();
    let total = Term::add(klw[0].clone(), klw[1].clone());
    let values = after(multi, sigma, klw, |a| heads[&a.name].0.clone());
    let mut out = Vec::new();
    for (name, v) in values {
        bind(replay, post, &name, v.clone());
        let bound = &heads[&name].1;
        if !bound.is_true() {
            let flag = Term::or(Term::ge(total.clone(), Term::int(1)), bound.clone());
            set_flag(replay, post, &name, flag);
        }
        out.push((name.to_string(), v));
    }
    out
}

/// Is `name` a local of the state's function (Python's scoping, as [`lookup`])?
fn is_local(replay: &Stepper, state: &State, name: &str) -> bool {
    state
        .frame()
        .func
        .as_ref()
        .is_some_and(|f| replay.cx.locals.get(&**f).is_some_and(|l| l.contains(name)))
}

/// `name`'s value at `state` (`None`: unbound) and the condition that it is bound.
fn head_value(replay: &Stepper, state: &State, name: &str) -> (Option<Term>, Term) {
    if let Some(v) = lookup(replay, state, name) {
        return (Some(v), Term::bool(true));
    }
    let env = match is_local(replay, state, name) {
        true => &state.frame().locals,
        false => &state.globals,
    };
    match (env.get(name), env.get(bound_flag_key(name).as_str())) {
        (Some(v), Some(flag)) => (Some(v.clone()), flag.clone()),
        _ => (None, Term::bool(false)),
    }
}

/// Set `name`'s definedness flag in `state`.
fn set_flag(replay: &Stepper, state: &mut State, name: &str, flag: Term) {
    let key: Rc<str> = Rc::from(bound_flag_key(name));
    if is_local(replay, state, name) {
        let frame = state.frame_mut();
        frame.locals = frame.locals.insert(key, flag);
    } else {
        state.globals = state.globals.insert(key, flag);
    }
}

/// The head's values `sigma` with each increased variable's value at the start of
/// iteration `tau` (`w[tau]` of the iterations before it took path 1).
fn at_iteration(
    incs: &[Inc],
    sigma: &HashMap<Sym, Term>,
    tau: &Term,
    w: &Term,
) -> HashMap<Sym, Term> {
    let mut out = sigma.clone();
    let w_tau = Term::index(w.clone(), tau.clone());
    for (_, s, d1, d2) in incs {
        let x0 = sigma
            .get(s)
            .cloned()
            .unwrap_or_else(|| Term::var(s.clone()));
        let v = if d1 == d2 {
            plus(x0, d1, tau.clone())
        } else {
            plus(
                plus(x0, d1, w_tau.clone()),
                d2,
                Term::sub(tau.clone(), w_tau.clone()),
            )
        };
        out.insert(s.clone(), v);
    }
    out
}

impl Multi {
    /// Each assigned variable after `kappa` iterations of path 1 and `lambda` of path 2,
    /// over head symbols (for display; ω shown as `ω`).
    pub fn assigned_after(&self, kappa: &Term, lambda: &Term) -> Vec<(Rc<str>, Term)> {
        let w = Term::var(Sym::new("ω", Sort::Seq));
        after(self, &HashMap::new(), [kappa, lambda, &w], |a| {
            Some(Term::var(a.sym.clone()))
        })
    }
}
