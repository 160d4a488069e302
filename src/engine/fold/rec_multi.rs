//! Two-parameter recursion templates (issue 27: seed 004 §6 applied to §5.2): a
//! self-recursive function with exactly two paths from its entry to a recursive call
//! (the paper's Figure 4 countIf: `return 1 + f(t, i + 1)` on a match, `return f(t, i + 1)`
//! otherwise) whose parameter updates commute — each parameter either path changes grows
//! by a constant on each — and whose return phases are each `r ↦ r + e` (`e` the same in
//! every frame) gets one template with κ (calls along path 1) and λ (along path 2), in any
//! order. The order is the prefix-count tuple ω of a two-parameter loop fold
//! ([`super::multi`], shared: its template builder, condition and exit replay); the
//! `[T, κ]` record on the call stack stands for κ + λ frames and maps a returned value
//! `r` to `r + κ·e1 + λ·e2`.

use std::collections::BTreeSet;
use std::rc::Rc;

use super::super::state::{Abrupt, FoldedCalls, Kont, State};
use super::super::step::{Stepper, Succ};
use super::super::tag::Tag;
use super::basics::NoTemplate;
use super::instance::{nonlinear_in, Instance};
use super::multi::{either, omega_condition, replay_two, MultiParams};
use super::rec_info::{deepest, return_phase, Found, Recursion};
use super::template::Template;
use super::ExitKind;
use crate::base::ExcClass;
use crate::term::linear::mentions;
use crate::term::{qe, Sym, Term};

/// The two-parameter template of `func` from its two call paths `found` (the fold point
/// at `start` in its body), or why it has none.
pub(super) fn two_path_template(
    stepper: &Stepper,
    f: &crate::transform::ir::Function,
    func: &Rc<str>,
    head: &[(Rc<str>, Sym)],
    found: &[Found],
    start: usize,
) -> Result<Template, NoTemplate> {
    let [c1, c2] = found else {
        return Err(super::basics::refuse(
            "not two paths to a recursive call",
            f.span,
        ));
    };
    let mut t =
        super::multi::two_paths(c1.call, head.to_vec(), c1.cyclic.clone(), c2.cyclic.clone())?;
    // A parameter both calls pass the same value read from the caller's: loops only.
    if let Some(a) = t.multi.as_ref().and_then(|m| m.assigned.first()) {
        return Err(super::basics::refuse(
            format!(
                "`{}` changes on path 1 and is not increased by a constant (the paths' updates must commute)",
                a.name
            ),
            c1.call,
        ));
    }
    let changed: BTreeSet<Sym> = t
        .multi
        .as_ref()
        .map(|m| m.incs.iter().map(|(_, s, _, _)| s.clone()).collect())
        .unwrap_or_default();
    let add = return_phase(
        stepper,
        f,
        &c1.before,
        c1.target.as_deref(),
        c1.call,
        &changed,
    )?;
    let lambda_add = return_phase(
        stepper,
        f,
        &c2.before,
        c2.target.as_deref(),
        c2.call,
        &changed,
    )?;
    t.recursion = Some(Rc::new(Recursion {
        func: func.clone(),
        def: f.span,
        call: c1.call,
        start,
        add,
        lambda_add,
    }));
    Ok(t)
}

/// Instantiate the two-parameter recursion template `tpl` at `state` (at the function's
/// entry). `replay` must bound neither unrolling nor recursion. `Err`: why the entry is not
/// folded with two parameters (the one-parameter template or the classic step applies).
pub fn instantiate(
    replay: &Stepper,
    tpl: &Template,
    state: &State,
) -> Result<(Instance, MultiParams), String> {
    let rec = tpl.recursion.as_ref().ok_or("not a recursion template")?;
    let multi = tpl.multi.as_ref().ok_or("not a two-parameter template")?;
    let deepest = deepest(replay, rec, state)?;
    let extra: Vec<&Term> = rec.add.iter().chain(rec.lambda_add.iter()).collect();
    let mut o = omega_condition(replay, tpl, multi, state, &extra, "the call")?;
    let total = Term::add(o.k.clone(), o.l.clone());
    o.phi.push(Term::lt(total, Term::int(deepest as i64)));
    if o.phi.iter().any(|t| {
        nonlinear_in(t, &o.tau, true)
            || nonlinear_in(t, &o.kappa, false)
            || nonlinear_in(t, &o.lambda, false)
    }) {
        return Err(
            "the call condition multiplies the depth by a symbol or divides by it".to_string(),
        );
    }
    let mut succs = Vec::new();
    // The runs that recurse past Python's limit: the call after the last one raises. (ω
    // is needed only where the paths' conditions read it.)
    let stays = Term::and(o.common.clone(), either(&o.only[0], &o.only[1]));
    let bound = Term::int(deepest as i64);
    let deep = if mentions(&stays, &o.omega) {
        let w = Term::var(o.omega.clone());
        let mut d = vec![
            Term::lt(bound.clone(), Term::len(w.clone())),
            Term::eq(Term::index(w, Term::int(0)), Term::int(0)),
        ];
        d.extend(qe::forall_upto(&o.tau, &bound, &o.body));
        Term::and_all(d)
    } else {
        Term::and_all(qe::forall_upto(&o.tau, &bound, &stays))
    };
    // The call that raises is the one of the path the deepest frame (τ = deepest − 1)
    // takes.
    let last = Term::int(deepest as i64 - 1);
    for (p, only) in o.only.iter().enumerate() {
        let cond = Term::and(deep.clone(), only.subst1(&o.tau, &last));
        if cond.is_false() {
            continue;
        }
        let call = multi.steps[p].last().map_or(rec.call, |(at, _)| *at);
        let mut s = state.clone();
        s.fresh = o.n;
        s.abrupt = Some(Box::new(Abrupt::Exception(ExcClass::RecursionError, call)));
        succs.push((
            Succ {
                cond,
                state: s,
                forced: None,
                tag: Tag::Raise(ExcClass::RecursionError, call),
            },
            ExitKind::Raises(ExcClass::RecursionError, call),
        ));
    }
    // The state in the (κ + λ)-th recursive call: one frame for κ + λ + 1, with the
    // `[T, κ]` record.
    let mut post = state.clone();
    post.fresh = o.n;
    let mut after = Vec::new();
    for (name, value) in o.after(multi) {
        after.push((name.to_string(), value.clone()));
        let frame = post.frame_mut();
        frame.locals = frame.locals.insert(name, value);
    }
    let parts: Vec<Term> = [(&rec.add, &o.k), (&rec.lambda_add, &o.l)]
        .into_iter()
        .filter_map(|(e, p)| Some(Term::mul(p.clone(), e.as_ref()?.subst(&o.sigma))))
        .collect();
    let add = parts.into_iter().reduce(Term::add);
    let top = post
        .cont
        .top()
        .cloned()
        .ok_or("not at the function's entry")?;
    post.cont = post
        .cont
        .pop()
        .push(Kont::Folded(Rc::new(FoldedCalls {
            kappa: o.kappa.clone(),
            lambda: Some(o.lambda.clone()),
            add,
        })))
        .push(top);
    replay_two(
        replay,
        tpl,
        multi,
        &post,
        &o.phi,
        (false, (0, u32::MAX)),
        &mut succs,
    )?;
    if succs.iter().any(|(s, _)| {
        nonlinear_in(&s.cond, &o.kappa, false) || nonlinear_in(&s.cond, &o.lambda, false)
    }) {
        return Err("leaving the path divides by a value that changes with the depth".to_string());
    }
    Ok(o.into_instance(after, succs))
}
