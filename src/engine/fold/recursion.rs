//! Recursion templates (seed 004 §5.2, issue 27; design NEXT.md §4.3): a self-recursive
//! function's *call phase* — the path from its entry to a recursive call, whose action is
//! the call's parameter binding — is a cyclic path like a loop's iteration; its exits are
//! the base cases. The *return phase* — what the calling frame does with the returned
//! value `r` — must be `return r` or `return r + e` with `e` the same in every frame (then
//! κ returns add `κ·e`); anything else (a branch on `r`, a second call) has no template.
//!
//! A fold at the function's entry gets one κ for both phases: the exits run in one frame
//! standing for κ + 1 frames, with a [`Kont::Folded`] record (the paper's `[T, κ]`) above
//! its return that maps the returned value back through the κ returns.

use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use super::super::state::{Cont, Env, FoldedCalls, Frame, Frames, Kont, PathCondition, State};
use super::super::step::{next_action, settle, settle_in, Action, Settled, Stepper, Succ};
use super::super::tag::Tag;
use super::basics::{sig_of, step_word, NoTemplate, MAX_STEPS};
use super::instance::{closed_after, head_values, nonlinear_in, Instance, Params};
use super::template::{classify, Cyclic, Template};
use super::ExitKind;
use crate::base::{ExcClass, Span};
use crate::term::{qe, Sort, Sym, Term};
use crate::transform::ir::{Instr, InstrKind};

/// At most this many paths through one call phase.
const MAX_PATHS: usize = super::template::MAX_PATHS;

use super::rec_info::{deepest, return_phase, Found};
pub use super::rec_info::{folded_frames, Recursion};

fn refuse(why: impl Into<String>, at: Span) -> NoTemplate {
    NoTemplate {
        why: why.into(),
        at,
    }
}

/// Does `block` (or a block nested in it) call `func`?
pub fn calls(block: &[Instr], func: &str) -> bool {
    block.iter().any(|i| match &i.kind {
        InstrKind::Call { func: g, .. } => g == func,
        InstrKind::If { then, orelse, .. } => calls(then, func) || calls(orelse, func),
        InstrKind::While {
            body,
            orelse,
            guard,
            ..
        } => {
            calls(body, func)
                || calls(guard, func)
                || orelse.as_ref().is_some_and(|o| calls(o, func))
        }
        InstrKind::Try { body, handlers } => {
            calls(body, func) || handlers.iter().any(|h| calls(&h.body, func))
        }
        _ => false,
    })
}

/// The structural restrictions: straight-line code and `if`s, no loop, `try`, other call
/// or verification statement.
fn structural(block: &[Instr], func: &str) -> Result<(), NoTemplate> {
    for i in block {
        let bad = match &i.kind {
            InstrKind::If { then, orelse, .. } => {
                structural(then, func)?;
                structural(orelse, func)?;
                None
            }
            InstrKind::While { .. } => Some("the function contains a loop (not in v1)"),
            InstrKind::Call { func: g, .. } if g != func => {
                Some("the function calls another function (not in v1)")
            }
            InstrKind::Try { .. } => Some("the function contains a try statement"),
            // A folded run would lose the lines the κ calls print.
            InstrKind::Print(_) => Some("the function prints"),
            InstrKind::Havoc { .. }
            | InstrKind::Assume(_)
            | InstrKind::AssumeInvariant(_)
            | InstrKind::CheckInvariant(_)
            | InstrKind::MethodFrame { .. }
            | InstrKind::LoopScope { .. } => Some("the function contains a verification statement"),
            InstrKind::Def(_) | InstrKind::Declare { .. } => Some("the function defines a name"),
            _ => None,
        };
        if let Some(why) = bad {
            return Err(refuse(why, i.span));
        }
    }
    Ok(())
}

/// The recursion template of `func`, `None` when it does not call itself. `stepper` must
/// bound neither unrolling nor recursion.
/// (A two-parameter template comes with the best one-parameter one, if any, tried where it
/// does not apply.)
pub fn rec_template_for(
    stepper: &Stepper,
    func: &Rc<str>,
) -> Option<Result<(Template, Option<Template>), NoTemplate>> {
    let ir = stepper.cx.program;
    let f = ir.functions.get(&**func)?;
    if !calls(&f.body, func) {
        return None;
    }
    Some(analyse(stepper, func))
}

fn analyse(stepper: &Stepper, func: &Rc<str>) -> Result<(Template, Option<Template>), NoTemplate> {
    let ir = stepper.cx.program;
    let f = &ir.functions[&**func];
    structural(&f.body, func)?;
    // The head state: globals and parameters as head symbols (other locals unbound, as at
    // a real entry).
    let mut head = Vec::new();
    let mut globals = Env::new();
    for (name, ty) in stepper.types.globals.clone() {
        let sym = super::template::head_sym(&name, Sort::of_type(ty));
        globals = globals.insert(Rc::from(name.as_str()), Term::var(sym.clone()));
        head.push((Rc::<str>::from(name.as_str()), sym));
    }
    let mut locals = Env::new();
    for (name, ty) in &f.params {
        let sym = super::template::head_sym(name, Sort::of_type(*ty));
        locals = locals.insert(Rc::from(name.as_str()), Term::var(sym.clone()));
        head.retain(|(n, _)| **n != **name);
        head.push((Rc::from(name.as_str()), sym));
    }
    let mut frames = Frames::new(Frame {
        func: None,
        locals: Env::new(),
        call_site: None,
    });
    frames.push(Frame {
        func: Some(func.clone()),
        locals,
        call_site: None,
    });
    let defined: rpds::RedBlackTreeMap<Rc<str>, ()> =
        rpds::RedBlackTreeMap::new().insert(func.clone(), ());
    let mut start = State {
        globals: globals.clone(),
        frames,
        defined: Rc::new(defined),
        pc: PathCondition::default(),
        cont: Cont::default()
            .push(Kont::Return {
                target: None,
                entry: true,
            })
            .push(Kont::Block {
                block: f.body.clone(),
                index: 0,
            }),
        abrupt: None,
        fresh: 0,
        output: Default::default(),
    };
    let index = match (settle_in(&stepper.cx, &mut start), start.cont.top()) {
        (Settled::Running, Some(Kont::Block { block, index })) if Rc::ptr_eq(block, &f.body) => {
            *index
        }
        _ => return Err(refuse("the function has no statement to fold at", f.span)),
    };
    // Enumerate the call phase depth-first.
    let mut paths = 0usize;
    let mut found: Vec<Found> = Vec::new();
    let mut work = vec![(start, Vec::new(), Vec::new(), Vec::new())];
    while let Some((state, sigs, steps, conds)) = work.pop() {
        if sigs.len() > MAX_STEPS {
            return Err(refuse("a call takes too many steps", f.span));
        }
        let at = super::super::step::action_span(&state).unwrap_or(f.span);
        let action = next_action(&state);
        let own_call = match &action {
            Some(Action::Instr(i)) => match &i.kind {
                InstrKind::Call {
                    func: g, target, ..
                } if **g == **func => Some(target.clone()),
                _ => None,
            },
            _ => None,
        };
        let result = stepper.step(&state);
        if let Some(reason) = stepper.cx.limit.take() {
            return Err(refuse(format!("a call goes past a limit: {reason}"), at));
        }
        for succ in result.succs.into_iter().rev() {
            if succ.cond.is_false() {
                continue;
            }
            let sig = sig_of(&state, &succ.state);
            let word = if own_call.is_some() && matches!(succ.tag, Tag::Call(_)) {
                "call"
            } else {
                step_word(&action, &succ.state)
            };
            let mut ns = succ.state;
            let (mut sigs, mut steps, mut conds) = (sigs.clone(), steps.clone(), conds.clone());
            sigs.push(sig);
            steps.push((at, word));
            conds.push(succ.cond);
            paths += 1;
            if paths > MAX_PATHS {
                return Err(refuse(
                    format!("a call has more than {MAX_PATHS} paths"),
                    f.span,
                ));
            }
            if let (Some(target), Tag::Call(_)) = (&own_call, &succ.tag) {
                if ns.globals != globals {
                    return Err(refuse("the function assigns a global variable", at));
                }
                let env = ns.frame().locals.clone();
                found.push(Found {
                    cyclic: Cyclic {
                        sigs,
                        steps,
                        conds,
                        env,
                    },
                    call: at,
                    target: target.as_deref().map(Rc::from),
                    before: state.clone(),
                });
                continue;
            }
            match settle(&mut ns, ir) {
                Settled::Done { .. } => {}
                Settled::Running => {
                    paths -= 1;
                    work.push((ns, sigs, steps, conds));
                }
            }
        }
    }
    if found.is_empty() {
        return Err(refuse(
            "no path through the function reaches its recursive call",
            f.span,
        ));
    }
    // Two call paths whose updates commute: one template with κ and λ (seed 004 §6), the
    // best one-parameter template kept for where it does not apply.
    let two = (found.len() == 2)
        .then(|| super::rec_multi::two_path_template(stepper, f, func, &head, &found, index));
    let single = best_single(stepper, f, func, &head, found, index);
    match (two, single) {
        (Some(Ok(t)), single) => Ok((t, single.ok())),
        (_, single) => single.map(|t| (t, None)),
    }
}

/// The best one-parameter template among the call paths (or the first path's refusal).
fn best_single(
    stepper: &Stepper,
    f: &crate::transform::ir::Function,
    func: &Rc<str>,
    head: &[(Rc<str>, Sym)],
    found: Vec<Found>,
    index: usize,
) -> Result<Template, NoTemplate> {
    let mut best: Option<((usize, usize), Template)> = None;
    let mut first_err = None;
    for c in found {
        let result = classify(c.call, head, c.cyclic).and_then(|mut t| {
            let changed: BTreeSet<Sym> = t.closed.iter().map(|(_, s, _)| s.clone()).collect();
            let add = return_phase(stepper, f, &c.before, c.target.as_deref(), c.call, &changed)?;
            t.recursion = Some(Rc::new(Recursion {
                func: func.clone(),
                def: f.span,
                call: c.call,
                start: index,
                add,
                lambda_add: None,
            }));
            Ok(t)
        });
        match result {
            Ok(t) => {
                let resets = t
                    .closed
                    .iter()
                    .filter(|(_, _, c)| matches!(c, super::Closed::Reset(_)))
                    .count();
                // Ties: the path whose return phase is `r ↦ r` (the paper's Fig. 4 (b)).
                let plain = t.recursion.as_ref().is_some_and(|r| r.add.is_some());
                let key = (t.closed.len(), resets + usize::from(plain));
                if best.as_ref().is_none_or(|(k, _)| key < *k) {
                    best = Some((key, t));
                }
            }
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    match best {
        Some((_, t)) => Ok(t),
        None => Err(first_err.expect("a call path was classified")),
    }
}

/// Is `state` at the entry of a call of the function the template folds (the body's
/// fold point directly above the frame's return)?
pub fn at_entry(state: &State, program: &crate::transform::ir::Program) -> Option<Rc<str>> {
    let func = state.frame().func.clone()?;
    let f = program.functions.get(&*func)?;
    match (state.cont.top()?, state.cont.second()?) {
        (Kont::Block { block, .. }, Kont::Return { .. })
            if Rc::ptr_eq(block, &f.body) && calls(&f.body, &func) =>
        {
            Some(func)
        }
        _ => None,
    }
}

/// Instantiate the recursion template `tpl` at `state` (at the function's entry). `replay`
/// must bound neither unrolling nor recursion. `Err`: why the entry is stepped classically.
pub fn instantiate(replay: &Stepper, tpl: &Template, state: &State) -> Result<Instance, String> {
    let rec = tpl.recursion.as_ref().ok_or("not a recursion template")?;
    let deepest = deepest(replay, rec, state)?;
    let sigma = head_values(replay, tpl, state, rec.add.as_ref(), "the call")?;
    let Params { n, kappa, tau, k } = Params::fresh(state);
    // The state in the κ-th recursive call: one frame for κ + 1, with the `[T, κ]` record.
    let mut post = state.clone();
    post.fresh = n;
    let mut after = Vec::new();
    for (name, value) in closed_after(tpl, &k, &sigma) {
        after.push((name.to_string(), value.clone()));
        let frame = post.frame_mut();
        frame.locals = frame.locals.insert(name, value);
    }
    let add = rec
        .add
        .as_ref()
        .map(|e| Term::mul(k.clone(), e.subst(&sigma)));
    let top = post.cont.top().cloned().expect("checked above");
    post.cont = post
        .cont
        .pop()
        .push(Kont::Folded(Rc::new(FoldedCalls {
            kappa: kappa.clone(),
            lambda: None,
            add,
        })))
        .push(top);
    // Φ(κ) = κ ≥ 0 ∧ κ < deepest ∧ ∀τ ∈ [0, κ). φ_C(θ^τ)[σ].
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
    let mut phi = vec![
        Term::ge(k.clone(), Term::int(0)),
        Term::lt(k.clone(), Term::int(deepest as i64)),
    ];
    phi.extend(qe::forall_upto(&tau, &k, &body));
    if phi
        .iter()
        .any(|t| nonlinear_in(t, &tau, true) || nonlinear_in(t, &kappa, false))
    {
        return Err(
            "the call condition multiplies the depth by a symbol or divides by it".to_string(),
        );
    }
    let mut succs = Vec::new();
    // The runs that recurse past Python's limit: the call after the last one raises.
    let deep = Term::and_all(qe::forall_upto(&tau, &Term::int(deepest as i64), &body));
    if !deep.is_false() {
        let mut s = state.clone();
        s.fresh = n;
        s.abrupt = Some(Box::new(super::super::state::Abrupt::Exception(
            ExcClass::RecursionError,
            rec.call,
        )));
        succs.push((
            Succ {
                cond: deep,
                state: s,
                forced: None,
                tag: Tag::Raise(ExcClass::RecursionError, rec.call),
            },
            ExitKind::Raises(ExcClass::RecursionError, rec.call),
        ));
    }
    // Exits by replay: the base cases (and each exception) in the frame after κ calls.
    let r = super::replay::Replay {
        span: tpl.span,
        path: &tpl.path,
        steps: &tpl.steps,
        from: 0,
        also: None,
        guard: false,
        bound: (0, u32::MAX),
    };
    super::replay::replay_exits(replay, &r, &post, &phi, &mut succs)?;
    if succs
        .iter()
        .any(|(s, _)| nonlinear_in(&s.cond, &kappa, false))
    {
        return Err("leaving the path divides by a value that changes with the depth".to_string());
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
