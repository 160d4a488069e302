//! Merging two states at the same program point (seed 001's m→1 merging transition):
//! the merged state's path condition is the common prefix and the disjunction of the two
//! rests, and a variable whose values differ holds `ite(rest₁, v₁, v₂)`. The formula stays
//! exact: an input satisfies the merged path condition iff it satisfies one of the two,
//! and then the merged store evaluates to that path's store.
//!
//! Only what is safe to merge is: the same continuation, call stack shape, `def`s, havoc
//! count and output; no abrupt completion; differing values of sort Int or Bool; no loop
//! on the continuation (a loop's `--unroll` accounting depends on which conditions are
//! constants and on the path condition's length, which merging changes).

use std::cmp::Ordering;
use std::rc::Rc;

use crate::engine::state::{Cont, Env, Frame, Frames, Kont, Output, State};
use crate::term::{PathCondition, Sort, Term};

/// Where a state is in the program, for the order in which the lookahead steps states:
/// the continuation's indices, outermost first.
pub(super) fn position(cont: &Cont) -> Vec<usize> {
    let mut out = Vec::new();
    let mut cur = cont.clone();
    while let Some(k) = cur.top() {
        out.push(match k {
            Kont::Block { index, .. }
            | Kont::Guard { index, .. }
            | Kont::Try { index, .. }
            | Kont::ScopeCheck { index, .. }
            | Kont::LoopScope { index, .. } => *index,
            Kont::Loop { index, .. } => *index as usize,
            _ => 0,
        });
        cur = cur.pop();
    }
    out.reverse();
    out
}

/// Which of two positions runs first: at the first differing index the smaller; a
/// position that extends the other is inside what the shorter one runs next, so first.
pub(super) fn earlier(a: &[usize], b: &[usize]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match x.cmp(y) {
            Ordering::Equal => {}
            o => return o,
        }
    }
    b.len().cmp(&a.len())
}

/// Does the continuation hold a loop (or is it about to enter one)?
pub(super) fn in_loop(state: &State) -> bool {
    let mut cur = state.cont.clone();
    while let Some(k) = cur.top() {
        if matches!(
            k,
            Kont::Loop { .. }
                | Kont::Guard { .. }
                | Kont::ScopeCheck { .. }
                | Kont::LoopScope { .. }
        ) {
            return true;
        }
        cur = cur.pop();
    }
    matches!(
        crate::engine::step::next_action(state),
        Some(crate::engine::step::Action::Instr(i))
            if matches!(i.kind, crate::transform::ir::InstrKind::While { .. })
    )
}

/// Do the loops `state` is in all have free narrowing iterations left
/// ([`crate::engine::NARROWING_LIMIT`])? Then its `--unroll` counts are those of each
/// path it was merged from (see `Merged` in the parent module).
pub(super) fn narrowed_free(state: &State) -> bool {
    let mut cur = state.cont.clone();
    while let Some(k) = cur.top() {
        if let Kont::Loop { counts, .. } = k {
            if counts.narrowed >= crate::engine::NARROWING_LIMIT {
                return false;
            }
        }
        cur = cur.pop();
    }
    true
}

/// The two states merged and whether a value became an `ite` (only with `ite`; without,
/// only states with the same values merge), or `None` if they cannot be.
pub(super) fn merge(a: &State, b: &State, ite: bool) -> Option<(State, bool)> {
    if a.abrupt.is_some() || b.abrupt.is_some() || a.fresh != b.fresh {
        return None;
    }
    if !same_cont(&a.cont, &b.cont) || in_loop(a) {
        return None;
    }
    if !(Rc::ptr_eq(&a.defined, &b.defined) || *a.defined == *b.defined) {
        return None;
    }
    if !same_output(&a.output, &b.output) {
        return None;
    }
    let (common, rest_a, rest_b) = split(&a.pc, &b.pc);
    // (a path whose condition the other's extends: not two disjoint paths; kept apart)
    if rest_a.is_empty() || rest_b.is_empty() {
        return None;
    }
    let ca = Term::and_all(rest_a);
    let cb = Term::and_all(rest_b);
    let mut with_ite = false;
    let globals = merge_env(&a.globals, &b.globals, &ca, ite, &mut with_ite)?;
    let frames = merge_frames(&a.frames, &b.frames, &ca, ite, &mut with_ite)?;
    let either = Term::or(ca, cb);
    let pc = if either.is_true() {
        common
    } else {
        common.push(either)
    };
    Some((
        State {
            globals,
            frames,
            defined: a.defined.clone(),
            pc,
            cont: a.cont.clone(),
            abrupt: None,
            fresh: a.fresh,
            output: a.output.clone(),
        },
        with_ite,
    ))
}

/// The common prefix of two path conditions (found by pointer: both grew from one
/// ancestor's) and each one's conjuncts above it.
fn split(a: &PathCondition, b: &PathCondition) -> (PathCondition, Vec<Term>, Vec<Term>) {
    let (mut a, mut b) = (a.clone(), b.clone());
    let (mut ra, mut rb) = (Vec::new(), Vec::new());
    while a.len() > b.len() {
        ra.extend(a.last().cloned());
        a = a.below();
    }
    while b.len() > a.len() {
        rb.extend(b.last().cloned());
        b = b.below();
    }
    while !a.ptr_eq(&b) {
        ra.extend(a.last().cloned());
        rb.extend(b.last().cloned());
        a = a.below();
        b = b.below();
    }
    (a, ra, rb)
}

/// One store of both: the same names, a differing Int or Bool value as `ite(ca, va, vb)`
/// (`with_ite` then set; without `ite`, `None`).
fn merge_env(a: &Env, b: &Env, ca: &Term, ite: bool, with_ite: &mut bool) -> Option<Env> {
    if a.size() != b.size() {
        return None;
    }
    let mut out = a.clone();
    for (k, va) in a.iter() {
        let vb = b.get(k)?;
        if va == vb {
            continue;
        }
        if !ite || va.sort() == Sort::Seq || va.sort() != vb.sort() {
            return None;
        }
        *with_ite = true;
        out = out.insert(k.clone(), Term::ite(ca.clone(), va.clone(), vb.clone()));
    }
    Some(out)
}

fn merge_frames(
    a: &Frames,
    b: &Frames,
    ca: &Term,
    ite: bool,
    with_ite: &mut bool,
) -> Option<Frames> {
    if a.len() != b.len() {
        return None;
    }
    let mut merged: Vec<Frame> = Vec::with_capacity(a.len());
    for (fa, fb) in a.iter().zip(b.iter()) {
        if fa.func != fb.func || fa.call_site != fb.call_site {
            return None;
        }
        merged.push(Frame {
            func: fa.func.clone(),
            locals: merge_env(&fa.locals, &fb.locals, ca, ite, with_ite)?,
            call_site: fa.call_site,
        });
    }
    let mut it = merged.into_iter();
    let mut frames = Frames::new(it.next()?);
    it.for_each(|f| frames.push(f));
    Some(frames)
}

fn same_output(a: &Output, b: &Output) -> bool {
    a.ptr_eq(b) || (a.len() == b.len() && a.lines() == b.lines())
}

/// The same continuation, item by item (blocks by identity).
fn same_cont(a: &Cont, b: &Cont) -> bool {
    let (mut a, mut b) = (a.clone(), b.clone());
    loop {
        if a.top_id() == b.top_id() {
            return true;
        }
        match (a.top(), b.top()) {
            (Some(x), Some(y)) if same_item(x, y) => {}
            _ => return false,
        }
        a = a.pop();
        b = b.pop();
    }
}

fn same_item(x: &Kont, y: &Kont) -> bool {
    use Kont as K;
    match (x, y) {
        (
            K::Block {
                block: b1,
                index: i1,
            },
            K::Block {
                block: b2,
                index: i2,
            },
        )
        | (
            K::Guard {
                block: b1,
                index: i1,
            },
            K::Guard {
                block: b2,
                index: i2,
            },
        )
        | (
            K::Try {
                block: b1,
                index: i1,
            },
            K::Try {
                block: b2,
                index: i2,
            },
        )
        | (
            K::ScopeCheck {
                block: b1,
                index: i1,
            },
            K::ScopeCheck {
                block: b2,
                index: i2,
            },
        )
        | (
            K::LoopScope {
                block: b1,
                index: i1,
            },
            K::LoopScope {
                block: b2,
                index: i2,
            },
        ) => Rc::ptr_eq(b1, b2) && i1 == i2,
        (
            K::Loop {
                block: b1,
                index: i1,
                counts: c1,
            },
            K::Loop {
                block: b2,
                index: i2,
                counts: c2,
            },
        ) => Rc::ptr_eq(b1, b2) && i1 == i2 && c1 == c2,
        (
            K::Return {
                target: t1,
                entry: e1,
            },
            K::Return {
                target: t2,
                entry: e2,
            },
        ) => t1 == t2 && e1 == e2,
        (K::EnterEntry { func: f1 }, K::EnterEntry { func: f2 }) => f1 == f2,
        (K::MethodFrame { result: r1 }, K::MethodFrame { result: r2 }) => r1 == r2,
        (K::Folded(f1), K::Folded(f2)) => Rc::ptr_eq(f1, f2),
        // (a caught exception is its own visible step: not merged)
        _ => false,
    }
}
