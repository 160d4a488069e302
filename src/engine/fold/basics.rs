//! What the template builders share: limits, the refusal type, head symbols, step
//! signatures and the guard test (used by [`super::template`], [`super::enumerate`] and
//! [`super::multi`], so that none of them imports another in a loop).

use std::rc::Rc;

use super::super::state::{Cont, Kont, State};
use super::super::step::{next_action, Action};
use super::StepSig;
use crate::base::Span;
use crate::term::{Sort, Sym, Term};

use crate::transform::ir::{Block, InstrKind};
use num_bigint::BigInt;
use num_traits::{One, Zero};

/// At most this many paths through one iteration.
pub const MAX_PATHS: usize = 64;
/// At most this many steps on one path of one iteration.
pub(super) const MAX_STEPS: usize = 400;

/// Why a loop has no template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoTemplate {
    pub why: String,
    /// Where the reason is (the loop, or the statement at fault).
    pub at: Span,
}

pub(super) fn refuse(why: impl Into<String>, at: Span) -> NoTemplate {
    NoTemplate {
        why: why.into(),
        at,
    }
}

/// The head symbol of a variable.
pub fn head_sym(name: &str, sort: Sort) -> Sym {
    Sym::new(&format!("{name}@h"), sort)
}

/// The signature of a successor state (before settling) of `parent`: how it left the step.
pub fn sig_of(parent: &State, state: &State) -> StepSig {
    use super::super::state::Abrupt;
    let abrupt = match state.abrupt.as_deref() {
        None => 0,
        Some(Abrupt::Break) => 1,
        Some(Abrupt::Continue) => 2,
        Some(Abrupt::Return(_)) => 3,
        Some(Abrupt::Exception(..)) => 4,
        Some(Abrupt::Invariant(..)) => 5,
    };
    let exc = match state.abrupt.as_deref() {
        Some(Abrupt::Exception(c, at)) => Some((*c, *at)),
        _ => None,
    };
    let (top, depth) = cont_shape(&state.cont);
    let (_, before) = cont_shape(&parent.cont);
    StepSig {
        abrupt,
        exc,
        top,
        depth: depth as isize - before as isize,
    }
}

fn kont_key(k: &Kont) -> (usize, usize, u8) {
    match k {
        Kont::Block { block, index } => (block.as_ptr() as usize, *index, 0),
        Kont::Loop { block, index, .. } => (block.as_ptr() as usize, *index as usize, 1),
        Kont::Guard { block, index, .. } => (block.as_ptr() as usize, *index, 2),
        _ => (0, 0, 3),
    }
}

fn cont_shape(cont: &Cont) -> (Option<(usize, usize, u8)>, usize) {
    let top = cont.top().map(kont_key);
    let mut depth = 0;
    let mut cur = cont.clone();
    while cur.top().is_some() {
        depth += 1;
        cur = cur.pop();
    }
    (top, depth)
}

/// Is the state at the guard of the `while` at `block[index]`?
pub fn at_guard(state: &State, block: &Block, index: usize) -> bool {
    matches!(next_action(state), Some(Action::Guard { block: b, index: i, .. })
        if Rc::ptr_eq(&b, block) && i == index)
}

/// Which way a step went, for display.
pub(super) fn step_word(action: &Option<Action>, succ: &State) -> &'static str {
    match action {
        Some(Action::Guard { .. }) => "enter",
        Some(Action::Instr(i)) => match &i.kind {
            InstrKind::If { then, .. } => match succ.cont.top() {
                Some(Kont::Block { block, index: 0 }) if Rc::ptr_eq(block, then) => "then",
                _ => "else",
            },
            InstrKind::Continue => "continue",
            _ => "",
        },
        _ => "",
    }
}

/// The two paths of a two-parameter template and what they do, over head symbols.
#[derive(Clone, Debug)]
pub struct Multi {
    /// Path 1 and path 2: one signature per step after the head.
    pub paths: [Vec<StepSig>; 2],
    /// For display: each path's steps (as [`Template::steps`]).
    pub steps: [Vec<(Span, &'static str)>; 2],
    /// The first step where the paths differ.
    pub split: usize,
    /// What both paths require (the guard first).
    pub common: Vec<Term>,
    /// What each path requires beyond `common`.
    pub only: [Vec<Term>; 2],
    /// Each changed variable with its increment on path 1 and on path 2.
    pub incs: Vec<Inc>,
    /// Each variable both paths assign the same value read from the head (a `for` loop's
    /// target, [`super::multi_assigned`]).
    pub assigned: Vec<Assigned>,
}

/// A variable both paths of a two-parameter template assign the same value, computed from
/// the head's values without reading the variable's own previous value (`v =
/// $v.items[$v_index]` in `for v in t`).
#[derive(Clone, Debug)]
pub struct Assigned {
    pub name: Rc<str>,
    /// Its head symbol.
    pub sym: Sym,
    /// The value both paths assign, over head symbols.
    pub value: Term,
}

/// A changed variable, its head symbol, its increment on path 1 and on path 2.
pub type Inc = (Rc<str>, Sym, BigInt, BigInt);

/// `t + c·x` through the smart constructors.
pub(super) fn plus(t: Term, c: &BigInt, x: Term) -> Term {
    if c.is_zero() {
        t
    } else if c.is_one() {
        Term::add(t, x)
    } else if *c == BigInt::from(-1) {
        Term::sub(t, x)
    } else if c < &BigInt::zero() {
        Term::sub(t, Term::mul(Term::int(-c), x))
    } else {
        Term::add(t, Term::mul(Term::int(c.clone()), x))
    }
}
