//! Two-parameter templates (seed 004 §6, issue 27): a loop with exactly two cyclic paths
//! whose updates commute — every variable either path changes is an `int` that grows by a
//! constant on each path (`k += 1` on one, nothing on the other; `i += 1` on both), or that
//! both paths assign the same value read from the head (a `for` loop's target,
//! [`super::multi_assigned`]) — is folded into one node with κ (iterations of path 1) and λ
//! (iterations of path 2), in any interleaving. After κ + λ iterations `x ↦ x + κ·d1 +
//! λ·d2`.
//!
//! Which path each iteration takes is not a plain `∀`: the store at iteration τ depends on
//! how many of the iterations before it took path 1. The fold introduces a fresh tuple ω
//! (`w@n`, shown `ωn`) of prefix counts, defined by the folded condition itself:
//! `len(ω) = κ + λ + 1`, `ω[0] = 0`, `ω[κ + λ] = κ` and for every τ < κ + λ: the iteration
//! stays on one of the two paths (the store at τ is `x + ω[τ]·d1 + (τ − ω[τ])·d2`) and
//! `ω[τ + 1] = ω[τ] + 1` if it takes path 1, `ω[τ]` otherwise. Given the inputs, ω is the
//! real run's prefix count and κ its count of path-1 iterations, so the condition is exact
//! (no run is lost, none invented); κ-search computes ω, κ and λ by evaluation.

use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use num_bigint::BigInt;
use num_traits::{One, Zero};

use super::super::state::State;
use super::super::step::{Stepper, Succ};
use super::basics::{plus, refuse, NoTemplate};
use super::enumerate::Cyclic;
use super::instance::{bind, lookup, Instance, Params};
use super::template::Template;
use super::ExitKind;
use crate::base::Span;
use crate::term::linear::linear_in;
use crate::term::{qe, Sort, Sym, Term, TermKind};
use crate::transform::ir::Block;

/// Why a loop with one cyclic path has no two-parameter template (`--templates` does not
/// repeat it for every such loop).
pub const ONE_PATH: &str = "one path through the body comes back to the loop head";

pub use super::basics::{Assigned, Inc, Multi};

/// A two-parameter fold's own symbols and iteration conditions.
#[derive(Clone, Debug)]
pub struct MultiParams {
    /// λ, the iterations of path 2.
    pub lambda: Sym,
    /// ω, the prefix counts of path-1 iterations (a tuple of κ + λ + 1 values).
    pub omega: Sym,
    /// Iteration τ takes path 1 / path 2 (over τ, ω and the head's values).
    pub takes: [Term; 2],
}

/// The two-parameter template of the `while` at `block[index]`, or why it has none.
pub fn multi_template_for(
    stepper: &Stepper,
    block: &Block,
    index: usize,
    func: Option<&Rc<str>>,
) -> Result<Template, NoTemplate> {
    let span = block[index].span;
    let (head, mut cyclic) = super::enumerate::cyclic_paths(stepper, block, index, func)?;
    match cyclic.len() {
        2 => {}
        1 => return Err(refuse(ONE_PATH, span)),
        n => {
            return Err(refuse(
                format!("{n} paths through the body come back to the loop head (not two)"),
                span,
            ))
        }
    }
    let c2 = cyclic.pop().expect("two paths");
    let c1 = cyclic.pop().expect("two paths");
    two_paths(span, head, c1, c2)
}

/// The two-parameter template of two cyclic paths (a loop's, or a recursive function's
/// call paths, [`super::rec_multi`]) over the head symbols `head`, or why it has none.
pub(super) fn two_paths(
    span: Span,
    head: Vec<(Rc<str>, Sym)>,
    c1: Cyclic,
    c2: Cyclic,
) -> Result<Template, NoTemplate> {
    let (incs, assigned) = increments(span, &head, [&c1, &c2])?;
    let split = c1
        .sigs
        .iter()
        .zip(&c2.sigs)
        .position(|(a, b)| a != b)
        .unwrap_or(c1.sigs.len().min(c2.sigs.len()));
    let conj = |c: &Cyclic| -> Vec<Term> {
        let mut out = Vec::new();
        for t in &c.conds {
            match t.kind() {
                TermKind::And(xs) => out.extend(xs.iter().cloned()),
                _ if t.is_true() => {}
                _ => out.push(t.clone()),
            }
        }
        out
    };
    let (k1, k2) = (conj(&c1), conj(&c2));
    let common: Vec<Term> = k1.iter().filter(|t| k2.contains(t)).cloned().collect();
    let only1: Vec<Term> = k1.iter().filter(|t| !common.contains(t)).cloned().collect();
    let only2: Vec<Term> = k2.iter().filter(|t| !common.contains(t)).cloned().collect();
    let step_cond = Term::and(
        Term::and_all(common.clone()),
        either(&Term::and_all(only1.clone()), &Term::and_all(only2.clone())),
    );
    let multi = Multi {
        paths: [c1.sigs.clone(), c2.sigs.clone()],
        steps: [c1.steps.clone(), c2.steps.clone()],
        split,
        common,
        only: [only1, only2],
        incs,
        assigned,
    };
    Ok(Template {
        span,
        path: c1.sigs,
        steps: c1.steps,
        head,
        closed: Vec::new(),
        step_cond,
        recursion: None,
        multi: Some(Rc::new(multi)),
    })
}

/// `a or b`, `true` when one is the other's negation (the two sides of an `if`).
pub(super) fn either(a: &Term, b: &Term) -> Term {
    if Term::not(a.clone()) == *b {
        Term::bool(true)
    } else {
        Term::or(a.clone(), b.clone())
    }
}

/// Each variable either path changes, with its constant increment on each path, and the
/// variables both paths assign the same value read from the head.
pub(super) fn increments(
    span: Span,
    head: &[(Rc<str>, Sym)],
    paths: [&Cyclic; 2],
) -> Result<(Vec<Inc>, Vec<Assigned>), NoTemplate> {
    let mut out = Vec::new();
    let mut assigned = Vec::new();
    'vars: for (name, sym) in head {
        let mut d = [BigInt::zero(), BigInt::zero()];
        let mut changed = false;
        for (p, c) in paths.iter().enumerate() {
            let Some(v) = c.env.get(&**name) else {
                continue;
            };
            if *v == Term::var(sym.clone()) {
                continue;
            }
            changed = true;
            let why = match (sym.sort, linear_in(v, sym)) {
                (Sort::Int, Some((k, step))) if k.is_one() => match step.as_int() {
                    Some(s) => {
                        d[p] = s.clone();
                        continue;
                    }
                    None => "grows by a value that is not a constant",
                },
                (Sort::Int, _) => "is not increased by a constant",
                _ => "is not an int",
            };
            if let Some(a) = super::multi_assigned::assigned(name, sym, paths) {
                assigned.push(a);
                continue 'vars;
            }
            return Err(refuse(
                format!(
                    "`{name}` changes on path {} and {why} (the paths' updates must commute)",
                    p + 1
                ),
                span,
            ));
        }
        if changed {
            let [d1, d2] = d;
            out.push((name.clone(), sym.clone(), d1, d2));
        }
    }
    super::multi_assigned::check(span, &assigned, paths)?;
    Ok((out, assigned))
}

/// Instantiate a two-parameter template at `state` (settled at the loop's guard,
/// `iteration` classic iterations done; `unroll` bounds the exits inside the body as for
/// one-path folds). `Err`: why the head is not folded with two parameters here.
pub fn instantiate(
    replay: &Stepper,
    tpl: &Template,
    state: &State,
    iteration: u32,
    unroll: u32,
) -> Result<(Instance, MultiParams), String> {
    let multi = tpl.multi.as_ref().ok_or("not a two-parameter template")?;
    let o = omega_condition(replay, tpl, multi, state, &[], "the loop head")?;
    // Runs that stay on the two paths forever: this fold has no child for them, so the
    // condition both paths share must fail for some τ (a guard bounding an index).
    if !o.cannot_repeat_forever() {
        return Err("the two paths might repeat forever".to_string());
    }
    // The state after κ + λ iterations.
    let mut post = state.clone();
    post.fresh = o.n;
    let mut after = Vec::new();
    for (name, v) in o.after(multi) {
        bind(replay, &mut post, &name, v.clone());
        after.push((name.to_string(), v));
    }
    let w = Term::var(o.omega.clone());
    after.extend(super::multi_assigned::bind_after(
        replay,
        multi,
        state,
        &mut post,
        &o.sigma,
        [&o.k, &o.l, &w],
    ));
    let mut succs = Vec::new();
    replay_two(
        replay,
        tpl,
        multi,
        &post,
        &o.phi,
        (true, (iteration, unroll)),
        &mut succs,
    )?;
    Ok(o.into_instance(after, succs))
}

/// The exits of a two-parameter fold from `post`: replay path 1 (collecting every way off
/// it, except path 2 at the split), then path 2 from the split on. `guard`: step 0 is a
/// loop's guard; `bound`: as [`super::replay::Replay::bound`].
pub(super) fn replay_two(
    replay: &Stepper,
    tpl: &Template,
    multi: &Multi,
    post: &State,
    phi: &[Term],
    (guard, bound): (bool, (u32, u32)),
    succs: &mut Vec<(Succ, ExitKind)>,
) -> Result<(), String> {
    let other = (multi.split, &multi.paths[1][multi.split]);
    for (p, from, also) in [(0, 0, Some(other)), (1, multi.split + 1, None)] {
        let r = super::replay::Replay {
            span: tpl.span,
            path: &multi.paths[p],
            steps: &multi.steps[p],
            from,
            also,
            guard,
            bound,
        };
        super::replay::replay_exits(replay, &r, post, phi, succs)?;
    }
    Ok(())
}

/// What a two-parameter instantiation (a loop's or a recursion's) computes before its
/// exits: σ, the fresh κ, τ, λ and ω, the iteration condition and Φ(κ, λ, ω).
pub(super) struct Omega {
    pub sigma: HashMap<Sym, Term>,
    pub n: u32,
    pub kappa: Sym,
    pub tau: Sym,
    pub lambda: Sym,
    pub omega: Sym,
    pub k: Term,
    pub l: Term,
    /// What both paths require at iteration τ, and what each requires beyond it.
    pub common: Term,
    pub only: [Term; 2],
    /// Iteration τ stays on one of the paths and ω counts it.
    pub body: Term,
    /// κ ≥ 0, λ ≥ 0, ω's length and ends, and ∀τ < κ + λ. body.
    pub phi: Vec<Term>,
    /// `common` with ω[τ] written as the symbol `u` (for [`Omega::cannot_repeat_forever`]).
    pub common_u: (Sym, Term),
}

impl Omega {
    /// No run takes the two paths forever: some condition both paths require fails for
    /// every large enough τ. With equal steps that condition is affine in τ (QE decides
    /// it). With different steps (`i += 2` on one path, `i += 1` on the other) the store at
    /// τ reads ω[τ], some value in `0..=τ`: a comparison linear in it holds for a
    /// half-line of its values, so where it holds at ω[τ] it holds at 0 or at τ; when it
    /// fails eventually at both ends (each affine in τ), it fails eventually whatever ω is.
    pub(super) fn cannot_repeat_forever(&self) -> bool {
        if qe::forall_from_zero(&self.tau, &self.common).is_some_and(|p| p.is_false()) {
            return true;
        }
        let (u, common) = &self.common_u;
        let conjuncts = match common.kind() {
            TermKind::And(xs) => xs.clone(),
            _ => vec![common.clone()],
        };
        let fails_eventually =
            |t: Term| qe::forall_from_zero(&self.tau, &t).is_some_and(|p| p.is_false());
        conjuncts.iter().any(|c| {
            let TermKind::Cmp(op, a, b) = c.kind() else {
                return false;
            };
            let ordering = matches!(
                op,
                crate::lang::ast::CmpOp::Lt
                    | crate::lang::ast::CmpOp::Le
                    | crate::lang::ast::CmpOp::Gt
                    | crate::lang::ast::CmpOp::Ge
            );
            ordering
                && linear_in(&Term::sub(a.clone(), b.clone()), u).is_some()
                && fails_eventually(c.subst1(u, &Term::int(0)))
                && fails_eventually(c.subst1(u, &Term::var(self.tau.clone())))
        })
    }

    /// The instance and the fold's own symbols, with the exits found.
    pub(super) fn into_instance(
        self,
        after: Vec<(String, Term)>,
        succs: Vec<(Succ, ExitKind)>,
    ) -> (Instance, MultiParams) {
        let takes = [
            Term::and(self.common.clone(), self.only[0].clone()),
            Term::and(self.common, self.only[1].clone()),
        ];
        (
            Instance {
                kappa: self.kappa,
                tau: self.tau,
                body: self.body,
                phi: self.phi,
                after,
                succs,
            },
            MultiParams {
                lambda: self.lambda,
                omega: self.omega,
                takes,
            },
        )
    }

    /// Each changed variable after κ iterations of path 1 and λ of path 2.
    pub(super) fn after(&self, multi: &Multi) -> Vec<(Rc<str>, Term)> {
        multi
            .incs
            .iter()
            .map(|(name, s, d1, d2)| {
                let v = plus(
                    plus(self.sigma[s].clone(), d1, self.k.clone()),
                    d2,
                    self.l.clone(),
                );
                (name.clone(), v)
            })
            .collect()
    }
}

/// The condition of a two-parameter fold of `tpl` at `state` (σ from `state`, which must
/// bind what the paths and `extra` read; `at` names the place for the refusal).
pub(super) fn omega_condition(
    replay: &Stepper,
    tpl: &Template,
    multi: &Multi,
    state: &State,
    extra: &[&Term],
    at: &str,
) -> Result<Omega, String> {
    // σ: the head's values of what the paths read or change.
    let mut used = BTreeSet::new();
    for t in multi.common.iter().chain(multi.only.iter().flatten()) {
        t.vars(&mut used);
    }
    for (_, s, _, _) in &multi.incs {
        used.insert(s.clone());
    }
    super::multi_assigned::used(multi, &mut used);
    for t in extra {
        t.vars(&mut used);
    }
    let mut sigma: HashMap<Sym, Term> = HashMap::new();
    for (name, sym) in &tpl.head {
        if used.contains(sym) {
            let v = lookup(replay, state, name)
                .ok_or_else(|| format!("`{name}` may be unbound at {at}"))?;
            sigma.insert(sym.clone(), v);
        }
    }
    let Params { n, kappa, tau, k } = Params::fresh(state);
    let lambda = Sym::new(&format!("l@{n}"), Sort::Int);
    let omega = Sym::new(&format!("w@{n}"), Sort::Seq);
    let (l, w, j) = (
        Term::var(lambda.clone()),
        Term::var(omega.clone()),
        Term::var(tau.clone()),
    );
    let total = Term::add(k.clone(), l.clone());
    // The store at iteration τ: ω[τ] iterations of path 1 before it, τ − ω[τ] of path 2.
    let w_tau = Term::index(w.clone(), j.clone());
    let mut at_tau = sigma.clone();
    for (_, s, d1, d2) in &multi.incs {
        let x0 = sigma[s].clone();
        let v = if d1 == d2 {
            plus(x0, d1, j.clone())
        } else {
            plus(
                plus(x0, d1, w_tau.clone()),
                d2,
                Term::sub(j.clone(), w_tau.clone()),
            )
        };
        at_tau.insert(s.clone(), v);
    }
    let at_t = |ts: &[Term]| Term::and_all(ts.iter().map(|t| t.subst(&at_tau)));
    let common = at_t(&multi.common);
    // The same with ω[τ] as a symbol u.
    let u = Sym::new(&format!("u@{n}"), Sort::Int);
    let mut at_u = at_tau.clone();
    for (_, s, d1, d2) in &multi.incs {
        if d1 != d2 {
            let x0 = sigma[s].clone();
            let uu = Term::var(u.clone());
            let v = plus(plus(x0, d1, uu.clone()), d2, Term::sub(j.clone(), uu));
            at_u.insert(s.clone(), v);
        }
    }
    let common_u = (
        u,
        Term::and_all(multi.common.iter().map(|t| t.subst(&at_u))),
    );
    let only = [at_t(&multi.only[0]), at_t(&multi.only[1])];
    let count = Term::eq(
        Term::index(w.clone(), Term::add(j.clone(), Term::int(1))),
        Term::ite(
            only[0].clone(),
            Term::add(w_tau.clone(), Term::int(1)),
            w_tau.clone(),
        ),
    );
    let body = Term::and_all([common.clone(), either(&only[0], &only[1]), count]);
    if let Some(reason) = body.limit_exceeded() {
        return Err(reason);
    }
    let mut phi = vec![
        Term::ge(k.clone(), Term::int(0)),
        Term::ge(l.clone(), Term::int(0)),
        Term::eq(Term::len(w.clone()), Term::add(total.clone(), Term::int(1))),
        Term::eq(Term::index(w.clone(), Term::int(0)), Term::int(0)),
        Term::eq(Term::index(w.clone(), total.clone()), k.clone()),
    ];
    phi.extend(qe::forall_upto(&tau, &total, &body));
    Ok(Omega {
        sigma,
        n,
        kappa,
        tau,
        lambda,
        omega,
        k,
        l,
        common,
        only,
        body,
        phi,
        common_u,
    })
}

/// κ-search for a two-parameter fold: the prefix counts ω of the run under `m` (the
/// iteration conditions evaluated in Rust), as a tuple; `None` when a condition cannot be
/// evaluated or the run stays on the paths past `limit` iterations.
pub(super) fn omega_of(
    p: &MultiParams,
    tau: &Sym,
    m: &mut crate::term::Model,
    limit: u64,
) -> Option<crate::concrete::Value> {
    use crate::concrete::Value;
    let mut counts: Vec<BigInt> = vec![BigInt::zero()];
    let mut n = 0u64;
    let found = loop {
        if n > limit {
            break None;
        }
        m.values.insert(tau.clone(), Value::Int(n.into()));
        m.values
            .insert(p.omega.clone(), Value::Tuple(counts.clone().into()));
        let last = counts.last().expect("ω[0]").clone();
        match m.eval(&p.takes[0]) {
            Some(Value::Bool(true)) => counts.push(last + 1),
            Some(_) => match m.eval(&p.takes[1]) {
                Some(Value::Bool(true)) => counts.push(last),
                Some(_) => break Some(Value::Tuple(counts.clone().into())),
                None => break None,
            },
            None => break None,
        }
        n += 1;
    };
    m.values.remove(tau);
    m.values.remove(&p.omega);
    found
}

/// κ and λ from prefix counts ω (as [`omega_of`] returns them).
pub(super) fn kappa_lambda(omega: &crate::concrete::Value) -> Option<(BigInt, BigInt)> {
    let crate::concrete::Value::Tuple(c) = omega else {
        return None;
    };
    let kappa = c.last()?.clone();
    let total = BigInt::from(c.len() - 1);
    Some((kappa.clone(), total - kappa))
}

impl super::super::Engine {
    /// Every `while` of the program with its two-parameter template or why it has none
    /// (for `run --templates`), in source order.
    pub fn multi_templates(&self) -> Vec<(Span, Result<Rc<Template>, NoTemplate>)> {
        let config = self.replay_config();
        let stepper = Stepper {
            cx: super::super::eval::Context::new(&self.ir, &self.locals, &self.input_names),
            config: &config,
            types: &self.types,
        };
        let mut out: Vec<_> = super::all_loops(&self.ir)
            .into_iter()
            .map(|(block, index, func)| {
                let t = self.multi_template_cached(&stepper, &block, index, func.as_ref());
                (block[index].span, t)
            })
            .collect();
        out.sort_by_key(|(s, _)| s.start);
        out
    }

    /// The two-parameter template of a loop (cached).
    pub(super) fn multi_template_cached(
        &self,
        stepper: &Stepper,
        block: &Block,
        index: usize,
        func: Option<&Rc<str>>,
    ) -> Result<Rc<Template>, NoTemplate> {
        let key = (block.as_ptr() as usize, index, func.cloned());
        if let Some(t) = self.folds.multi_templates.borrow().get(&key) {
            return t.clone();
        }
        let t = multi_template_for(stepper, block, index, func).map(Rc::new);
        self.folds
            .multi_templates
            .borrow_mut()
            .insert(key, t.clone());
        t
    }

    /// The two-parameter fold at a loop head, checked: `None` when the loop has no such
    /// template, it does not apply here, or a check is undecided (then the one-path fold or
    /// the classic step is tried).
    pub(super) fn multi_fold_successors(
        &mut self,
        state: &State,
        block: &Block,
        index: usize,
        iteration: u32,
    ) -> Option<Vec<super::super::Child>> {
        // Its own key: an undecided two-parameter fold leaves the one-path fold possible.
        let key = (
            block.as_ptr() as usize,
            index | (1 << (usize::BITS - 2)),
            state.func().cloned(),
        );
        if self.folds.undecided.contains(&key) {
            return None;
        }
        let config = self.replay_config();
        let (tpl, inst, params) = {
            let stepper = Stepper {
                cx: super::super::eval::Context::new(&self.ir, &self.locals, &self.input_names),
                config: &config,
                types: &self.types,
            };
            let tpl = self
                .multi_template_cached(&stepper, block, index, state.func())
                .ok()?;
            let (inst, params) =
                instantiate(&stepper, &tpl, state, iteration, self.config.unroll).ok()?;
            (tpl, inst, params)
        };
        self.fold_children(state, key, tpl, inst, Some(params))
    }
}
