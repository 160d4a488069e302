//! Labels a person understands for the steps of the loop-scope transformation.
//!
//! The book's loop-scope form of a `while` with invariants (see
//! [`crate::transform::lower`]) is a block `assert Inv; havoc x...; assume Inv;
//! loop-scope(inv=Inv): [guard] if cond: body; continue / else: else-body; break`. Its
//! instructions carry the spans of the source loop, so the tree maps back to the user's
//! lines; these labels say which step of the proof a node is. An unrolled loop with
//! invariants checks them before every test ([`CHECK`], [`BROKEN`]).

use super::state::{Kont, State};
use super::step::{is_form, next_action, Action};
use super::tree::Outcome;
use crate::transform::ir::InstrKind;

pub const LOOP_CHOICE: &str = "loop with invariant: apply it, or unroll once";
pub const INITIALLY_VALID: &str = "invariant initially valid?";
pub const NOT_INITIALLY_VALID: &str = "invariant not initially valid";
pub const HAVOC: &str = "havoc: forget what the loop assigns";
pub const ASSUME: &str = "assume invariant: an arbitrary iteration";
pub const GUARD: &str = "loop guard, in an arbitrary iteration";
pub const ITERATION_END: &str = "end of the arbitrary iteration";
pub const PRESERVES: &str = "body preserves invariant?";
pub const PRESERVED: &str = "invariant preserved";
pub const NOT_PRESERVED: &str = "body violates invariant";
pub const UNDECIDED_INITIALLY: &str = "undecided: is the invariant initially valid?";
pub const UNDECIDED_PRESERVES: &str = "undecided: does the body preserve the invariant?";
pub const USE_CASE: &str = "use case: the loop ends, with the invariant";
pub const USE_CASE_BREAK: &str = "use case: break out of the loop";
pub const CHECK: &str = "invariant holds here? (checked before every loop test)";
pub const BROKEN: &str = "invariant does not hold here";
pub const UNDECIDED_CHECK: &str = "undecided: does the invariant hold here?";

/// How many continuation items above the innermost `LoopScope` the state is, if the items
/// above it are all blocks.
fn blocks_above_scope(state: &State) -> Option<usize> {
    let mut cont = state.cont.clone();
    for depth in 0..3 {
        match cont.top()? {
            Kont::LoopScope { .. } => return Some(depth),
            Kont::Block { .. } => cont = cont.pop(),
            _ => return None,
        }
    }
    None
}

/// Is the innermost loop around the state's next instruction a loop scope (so `break`
/// leaves it for the use case, and `continue` ends the arbitrary iteration)?
fn in_loop_scope(state: &State) -> bool {
    let mut cont = state.cont.clone();
    while let Some(k) = cont.top() {
        match k {
            Kont::LoopScope { .. } => return true,
            Kont::Block { .. } | Kont::Try { .. } => cont = cont.pop(),
            _ => return false,
        }
    }
    false
}

/// Is the state at the start of the `else` branch of a loop scope's `if guard` (the loop
/// ends: the use case)?
fn starts_else(state: &State) -> bool {
    let Some(Kont::Block { block, index: 0 }) = state.cont.top() else {
        return false;
    };
    let rest = state.cont.pop();
    let (Some(Kont::Block { block: scope, .. }), Some(Kont::LoopScope { .. })) =
        (rest.top(), rest.pop().top())
    else {
        return false;
    };
    matches!(
        scope.last().map(|i| &i.kind),
        Some(InstrKind::If { orelse, .. }) if std::rc::Rc::ptr_eq(orelse, block)
    )
}

/// The label of an open node, from the action it is about to take.
pub fn open(state: &State) -> Option<&'static str> {
    match next_action(state)? {
        Action::ScopeCheck { .. } => Some(PRESERVES),
        Action::Guard { .. } => None,
        Action::Instr(instr) => {
            let Some(Kont::Block { block, .. }) = state.cont.top() else {
                return None;
            };
            match &instr.kind {
                InstrKind::While {
                    abstraction: Some(_),
                    ..
                } => Some(LOOP_CHOICE),
                InstrKind::CheckInvariant(_) if is_form(block) => Some(INITIALLY_VALID),
                InstrKind::CheckInvariant(_) => Some(CHECK),
                InstrKind::Havoc { .. } if is_form(block) => Some(HAVOC),
                InstrKind::AssumeInvariant(_) => Some(ASSUME),
                InstrKind::If { .. } if blocks_above_scope(state) == Some(1) => Some(GUARD),
                InstrKind::Continue if in_loop_scope(state) => Some(ITERATION_END),
                _ if starts_else(state) => Some(USE_CASE),
                InstrKind::Break if in_loop_scope(state) => Some(USE_CASE_BREAK),
                _ => None,
            }
        }
    }
}

/// The label of a leaf, from the action its parent took.
pub fn leaf(parent: &State, outcome: Outcome) -> Option<&'static str> {
    let failed = matches!(outcome, Outcome::Exception(_));
    match (next_action(parent)?, outcome) {
        (Action::ScopeCheck { .. }, Outcome::Halt) => Some(PRESERVED),
        (Action::ScopeCheck { .. }, Outcome::Unknown) => Some(UNDECIDED_PRESERVES),
        (Action::ScopeCheck { .. }, _) if failed => Some(NOT_PRESERVED),
        (Action::Instr(i), _) if matches!(i.kind, InstrKind::CheckInvariant(_)) => {
            let form =
                matches!(parent.cont.top(), Some(Kont::Block { block, .. }) if is_form(block));
            match (form, outcome) {
                (true, Outcome::Unknown) => Some(UNDECIDED_INITIALLY),
                (true, _) if failed => Some(NOT_INITIALLY_VALID),
                (false, Outcome::Unknown) => Some(UNDECIDED_CHECK),
                (false, _) if failed => Some(BROKEN),
                _ => None,
            }
        }
        _ => None,
    }
}
