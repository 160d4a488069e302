//! What a recursion template adds to a loop template, and the call stack's view of its
//! `[T, κ]` records (issue 27; see [`super::recursion`]).

use std::collections::BTreeSet;
use std::rc::Rc;

use num_traits::One;

use super::super::state::{Kont, State};
use super::super::step::{next_action, settle, Action, Settled, Stepper, Succ};
use super::basics::{refuse, NoTemplate};
use super::enumerate::Cyclic;
use crate::base::Span;
use crate::term::linear::{linear_in, mentions};
use crate::term::{Sort, Sym, Term};
use crate::transform::ir::{Block, InstrKind};

/// What a recursion template adds to a loop template.
#[derive(Clone, Debug)]
pub struct Recursion {
    pub func: Rc<str>,
    /// The `def` line.
    pub def: Span,
    /// The recursive call on the folded path.
    pub call: Span,
    /// The index in the body where the fold happens (the entry, after silent bindings).
    pub start: usize,
    /// The return phase: `None`: `r ↦ r`; `Some(e)`: `r ↦ r + e` per return (over head
    /// symbols of parameters the call phase does not change), so κ returns add `κ·e`.
    pub add: Option<Term>,
    /// A two-parameter template (issue 27): the return phase of path 2's calls, as `add`
    /// for path 1's (κ returns of path 1 and λ of path 2 add `κ·add + λ·lambda_add`).
    pub lambda_add: Option<Term>,
}

/// For each frame of `state` (outermost first), the parameters of the recursion fold it
/// stands for (`κ1`, or `(κ1 + λ1)` for a two-parameter fold: `f ×κ1` in the call stack),
/// if any.
pub fn folded_frames(state: &State) -> Vec<Option<String>> {
    let mut inner_first = Vec::new();
    let mut pending = None;
    let mut cur = state.cont.clone();
    while let Some(k) = cur.top() {
        match k {
            Kont::Folded(f) => {
                let k = crate::term::display_name(&f.kappa.name).to_string();
                pending = Some(match &f.lambda {
                    Some(l) => format!("({k} + {})", crate::term::display_name(&l.name)),
                    None => k,
                });
            }
            Kont::Return { .. } => inner_first.push(pending.take()),
            _ => {}
        }
        cur = cur.pop();
    }
    let mut out = vec![None; state.frames.len().saturating_sub(inner_first.len())];
    out.extend(inner_first.into_iter().rev());
    out.truncate(state.frames.len());
    out
}

/// A path through the call phase: entry → a recursive call.
pub(super) struct Found {
    pub(super) cyclic: Cyclic,
    /// The call.
    pub(super) call: Span,
    /// Where the call's value goes.
    pub(super) target: Option<Rc<str>>,
    /// The state settled at the call.
    pub(super) before: State,
}

/// The return phase from `before` (settled at the recursive call): the value the frame
/// returns when the call returns `r`, which must be `r` or `r + e` with `e` free of `r`
/// and of the parameters the call phase changes.
pub(super) fn return_phase(
    stepper: &Stepper,
    f: &crate::transform::ir::Function,
    before: &State,
    target: Option<&str>,
    call: Span,
    changed: &BTreeSet<Sym>,
) -> Result<Option<Term>, NoTemplate> {
    let ir = stepper.cx.program;
    let sort = f.ret.map_or(Sort::Int, Sort::of_type);
    let r = Sym::new("r@h", sort);
    let mut state = before.clone();
    if let Some(Kont::Block { block, index }) = state.cont.top().cloned() {
        state.cont = state.cont.pop().push(Kont::Block {
            block,
            index: index + 1,
        });
    }
    if let Some(t) = target {
        let frame = state.frame_mut();
        frame.locals = frame.locals.insert(Rc::from(t), Term::var(r.clone()));
    }
    let value = loop {
        match settle(&mut state, ir) {
            Settled::Done {
                outcome: crate::engine::tree::Outcome::Return,
                return_value,
                ..
            } => break return_value,
            Settled::Done { .. } => {
                return Err(refuse(
                    "after the recursive call the function may raise (not in v1)",
                    call,
                ))
            }
            Settled::Running => {}
        }
        let at = super::super::step::action_span(&state).unwrap_or(call);
        if let Some(Action::Instr(i)) = next_action(&state) {
            if matches!(i.kind, InstrKind::Call { .. }) {
                return Err(refuse(
                    "after the recursive call the function calls again (not in v1)",
                    at,
                ));
            }
        }
        let result = stepper.step(&state);
        if stepper.cx.limit.take().is_some() {
            return Err(refuse("the return phase goes past a limit", at));
        }
        let succs: Vec<Succ> = result
            .succs
            .into_iter()
            .filter(|s| !s.cond.is_false())
            .collect();
        match succs.as_slice() {
            [one] if one.cond.is_true() => state = succs.into_iter().next().expect("one").state,
            _ if succs.iter().any(|s| mentions(&s.cond, &r)) => {
                return Err(refuse(
                    "the code after the recursive call branches on the returned value \
                     (stepped classically)",
                    at,
                ))
            }
            _ => {
                return Err(refuse(
                    "the code after the recursive call branches or may raise (not in v1)",
                    at,
                ))
            }
        }
    };
    let shape = "the value returned after the recursive call is not `r` or `r + e` with `e` \
                 the same in every call (not in v1)";
    let Some(v) = value else {
        return if target.is_none() || f.ret.is_none() {
            Ok(None)
        } else {
            Err(refuse(shape, call))
        };
    };
    if v == Term::var(r.clone()) {
        return Ok(None);
    }
    match linear_in(&v, &r) {
        Some((k, e)) if k.is_one() && !mentions(&e, &r) => {
            let mut vars = BTreeSet::new();
            e.vars(&mut vars);
            if let Some(s) = vars.iter().find(|s| changed.contains(s)) {
                return Err(refuse(
                    format!(
                        "the value added to the returned one reads `{}`, which changes with every call (a sum; \
                         not in v1)",
                        s.name.trim_end_matches("@h")
                    ),
                    call,
                ));
            }
            Ok(Some(e))
        }
        _ => Err(refuse(shape, call)),
    }
}

/// At the entry of `rec`'s function: how many more calls Python's stack holds (calls
/// 1..=deepest succeed, the next one raises `RecursionError`). `Err`: why the entry is not
/// folded.
pub(super) fn deepest(replay: &Stepper, rec: &Recursion, state: &State) -> Result<usize, String> {
    let body_block: Block = replay.cx.program.functions[&*rec.func].body.clone();
    match state.cont.top() {
        Some(Kont::Block { block, index })
            if Rc::ptr_eq(block, &body_block) && *index == rec.start => {}
        _ => return Err("not at the function's entry".to_string()),
    }
    if !state.defined.contains_key(&*rec.func) {
        return Err("the function is not defined here".to_string());
    }
    // A folded record further up stands for κ calls: the depth here is symbolic, and
    // counting its one frame would put the `RecursionError` exit κ calls too deep (the
    // audit of issue 31: `hops_rec`'s fold below a hop claimed line 9 where the model's
    // run raised at line 8). Such an entry runs classically.
    let mut cont = state.cont.clone();
    while let Some(k) = cont.top() {
        if matches!(k, Kont::Folded(_)) {
            return Err("calls folded further up the stack: the depth left is symbolic".into());
        }
        cont = cont.pop();
    }
    let depth = state.frames.len();
    let room = crate::engine::PYTHON_RECURSION_LIMIT + 1;
    if depth + 2 > room {
        return Err("the call stack is nearly full".to_string());
    }
    Ok(room - depth)
}
