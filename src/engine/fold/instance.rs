//! Instantiating a template at a loop head (NEXT.md §1.4): a fresh κ, the state after κ
//! iterations, the folded condition Φ(κ), and the exits found by replaying the path with
//! the engine's own stepper from that state.

use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use super::super::state::State;
use super::super::step::{Stepper, Succ};
use super::super::tag::Tag;
use super::super::tree::Outcome;
use super::template::Template;
use super::ExitKind;
use crate::term::qe;
use crate::term::{Sort, Sym, Term};
use crate::transform::ir::{bound_flag_key, Block};

/// A fold's successors before the feasibility checks.
pub struct Instance {
    pub kappa: Sym,
    /// The iteration variable of the quantifier, and the iteration condition over it.
    pub tau: Sym,
    pub body: Term,
    /// Φ(κ), one conjunct per entry.
    pub phi: Vec<Term>,
    /// Each changed variable's value after κ iterations (over the head's values).
    pub after: Vec<(String, Term)>,
    /// The exits (and possibly the forever child), with what they are.
    pub succs: Vec<(Succ, ExitKind)>,
}

/// The value of `name` in `state` (Python's scoping: a function's locals, else the
/// globals), if it is surely bound.
pub(super) fn lookup(stepper: &Stepper, state: &State, name: &str) -> Option<Term> {
    let frame = state.frame();
    let local = match &frame.func {
        Some(f) => stepper
            .cx
            .locals
            .get(&**f)
            .is_some_and(|l| l.contains(name)),
        None => false,
    };
    let env = if local { &frame.locals } else { &state.globals };
    if env.contains_key(bound_flag_key(name).as_str()) {
        return None;
    }
    env.get(name).cloned()
}

pub(super) fn bind(stepper: &Stepper, state: &mut State, name: &str, value: Term) {
    let func = state.frame().func.clone();
    let local = func.as_ref().is_some_and(|f| {
        stepper
            .cx
            .locals
            .get(&**f)
            .is_some_and(|l| l.contains(name))
    });
    if local {
        let frame = state.frame_mut();
        frame.locals = frame.locals.insert(Rc::from(name), value);
    } else {
        state.globals = state.globals.insert(Rc::from(name), value);
    }
}

/// σ: the values at `state` of the head symbols `tpl` reads (its step condition, its closed
/// forms and `extra`); `Err`: a name that may be unbound at `at`.
pub(super) fn head_values(
    replay: &Stepper,
    tpl: &Template,
    state: &State,
    extra: Option<&Term>,
    at: &str,
) -> Result<HashMap<Sym, Term>, String> {
    let mut used = BTreeSet::new();
    tpl.step_cond.vars(&mut used);
    for (_, sym, cl) in &tpl.closed {
        used.insert(sym.clone());
        match cl {
            super::template::Closed::Induction(t) | super::template::Closed::Reset(t) => {
                t.vars(&mut used)
            }
        }
    }
    if let Some(e) = extra {
        e.vars(&mut used);
    }
    let mut sigma: HashMap<Sym, Term> = HashMap::new();
    for (name, sym) in &tpl.head {
        if !used.contains(sym) {
            continue;
        }
        match lookup(replay, state, name) {
            Some(v) => {
                sigma.insert(sym.clone(), v);
            }
            None => return Err(format!("`{name}` may be unbound at {at}")),
        }
    }
    Ok(sigma)
}

/// A fold's fresh parameter κ (`k@n`) and bound variable τ (`j@n`), numbered after
/// `state`'s fresh counter (`n`: the counter's next value).
pub(super) struct Params {
    pub n: u32,
    pub kappa: Sym,
    pub tau: Sym,
    pub k: Term,
}

impl Params {
    pub(super) fn fresh(state: &State) -> Params {
        let n = state.fresh + 1;
        let kappa = Sym::new(&format!("k@{n}"), Sort::Int);
        let tau = Sym::new(&format!("j@{n}"), Sort::Int);
        let k = Term::var(kappa.clone());
        Params { n, kappa, tau, k }
    }
}

/// Each closed-form variable's value after `k` steps, under σ, as (name, value).
pub(super) fn closed_after(
    tpl: &Template,
    k: &Term,
    sigma: &HashMap<Sym, Term>,
) -> Vec<(Rc<str>, Term)> {
    tpl.after(k)
        .into_iter()
        .map(|(sym, value)| {
            let name = tpl
                .closed
                .iter()
                .find(|(_, s, _)| *s == sym)
                .map(|(n, _, _)| n.clone())
                .expect("a closed form's variable");
            (name, value.subst(sigma))
        })
        .collect()
}

/// Instantiate `tpl` at `state` (settled at the guard of the `while` at `block[index]`,
/// `iteration` classic iterations done). `replay` must not bound unrolling; `unroll` is
/// the engine's bound, applied to the exits inside the body. `Err`: why the head is
/// stepped classically instead.
pub fn instantiate(
    replay: &Stepper,
    tpl: &Template,
    state: &State,
    block: &Block,
    index: usize,
    iteration: u32,
    unroll: u32,
) -> Result<Instance, String> {
    let _ = (block, index);
    // A `for` loop's variable is unbound at its first head: the loop folds from the
    // second head on (the first iteration is stepped classically).
    let sigma = head_values(replay, tpl, state, None, "the loop head")?;
    let Params { n, kappa, tau, k } = Params::fresh(state);
    // The state after κ iterations.
    let mut post = state.clone();
    post.fresh = n;
    let mut after = Vec::new();
    for (name, value) in closed_after(tpl, &k, &sigma) {
        bind(replay, &mut post, &name, value.clone());
        after.push((name.to_string(), value));
    }
    // Φ(κ) = κ ≥ 0 ∧ ∀τ ∈ [0, κ). φ_C(θ^τ)[σ].
    let mut at_tau: HashMap<Sym, Term> = tpl
        .after(&Term::var(tau.clone()))
        .into_iter()
        .map(|(s, v)| (s, v.subst(&sigma)))
        .collect();
    for (s, v) in &sigma {
        at_tau.entry(s.clone()).or_insert_with(|| v.clone());
    }
    let body = tpl.step_cond.subst(&at_tau);
    if let Some(reason) = body.limit_exceeded() {
        return Err(reason);
    }
    let mut phi = vec![Term::ge(k.clone(), Term::int(0))];
    phi.extend(qe::forall_upto(&tau, &k, &body));
    // Outside the measured fragment (NEXT.md §1.5): a quantifier over a product of the
    // iteration variable with a symbol.
    // (The quantifier-free part of Φ has κ where the body had τ: a division by a value
    // that changes with κ is as hard; a product with κ is the symbolic step, measured fine.)
    if phi
        .iter()
        .any(|t| nonlinear_in(t, &tau, true) || nonlinear_in(t, &kappa, false))
    {
        return Err(
            "the iteration condition multiplies the iteration by a symbol or divides by it"
                .to_string(),
        );
    }
    let mut succs = Vec::new();
    // The runs that take the path forever.
    match qe::forall_from_zero(&tau, &body) {
        Some(psi) if psi.is_false() => {}
        Some(psi) => {
            let mut s = state.clone();
            s.fresh = n;
            succs.push((
                Succ {
                    cond: psi,
                    state: s,
                    forced: Some(Outcome::Bound),
                    tag: Tag::Forever,
                },
                ExitKind::Forever,
            ));
        }
        None => {
            return Err(
                "the path might repeat forever and no quantifier-free condition says when"
                    .to_string(),
            )
        }
    }
    // Exits by replay.
    super::replay::replay_exits(
        replay,
        &super::replay::Replay {
            span: tpl.span,
            path: &tpl.path,
            steps: &tpl.steps,
            from: 0,
            also: None,
            guard: true,
            bound: (iteration, unroll),
        },
        &post,
        &phi,
        &mut succs,
    )?;
    // An exit's condition has the state after κ iterations in it: a division by a value
    // that changes with κ there is as hard for Z3 as in Φ.
    if succs
        .iter()
        .any(|(s, _)| nonlinear_in(&s.cond, &kappa, false))
    {
        return Err(
            "leaving the path divides by a value that changes with the iteration".to_string(),
        );
    }
    Ok(Instance {
        kappa,
        tau,
        body,
        phi,
        after,
        succs,
    })
}

/// Does `t` contain a division (or modulo) by a non-constant term, or (`products`) a
/// product of two non-constant terms, mentioning `v`?
pub(super) fn nonlinear_in(t: &Term, v: &Sym, products: bool) -> bool {
    use crate::term::linear::mentions;
    use crate::term::TermKind as K;
    let mut todo = vec![t.clone()];
    let mut seen = std::collections::HashSet::new();
    while let Some(t) = todo.pop() {
        if !seen.insert(t.clone()) || !mentions(&t, v) {
            continue;
        }
        match t.kind() {
            K::Mul(a, b) if products && a.as_int().is_none() && b.as_int().is_none() => {
                return true
            }
            // A divisor that changes with the iteration (`10 // (j + τ)`): Z3 4.8.12 spends
            // its whole time limit on such quantifiers (measured: 10 s per check).
            K::FloorDiv(_, b) | K::Mod(_, b) if b.as_int().is_none() => return true,
            _ => t.kind().for_each_child(|c| todo.push(c.clone())),
        }
    }
    false
}
