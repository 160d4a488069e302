//! Labels a person understands for the steps of the loop-scope transformation.
//!
//! The book's loop-scope form of a `while` with invariants (see
//! [`crate::transform::lower`]) is a block `assert Inv; havoc x...; assume Inv;
//! loop-scope(inv=Inv): [guard] if cond: body; continue / else: else-body; break`. Its
//! instructions carry the spans of the source loop, so the tree maps back to the user's
//! lines; these labels say which step of the proof a node is. An unrolled loop with
//! invariants checks them before every test ([`CHECK`], [`BROKEN`]).
//!
//! The form's instructions are marked where it is built ([`FormStep`], set in
//! `transform/loop_form.rs`); the steps of its checks carry that in their tags
//! ([`Tag::InvariantHolds`], [`Tag::InvariantFails`]). Labels come from those, not from
//! the form's shape.

use super::state::{Kont, State};
use super::step::{next_action, Action};
use super::tag::{Check, Tag};
use super::tree::Outcome;
use crate::transform::ir::{FormStep, InstrKind};

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
pub const CALL_CHOICE: &str = "call with a contract: inline it, or use the contract";
pub const REQUIRES: &str = "precondition holds?";
pub const USE_REQUIRES: &str = "precondition holds? (use contract)";
pub const REQUIRES_BROKEN: &str = "precondition violated";
pub const ENSURES: &str = "postcondition holds at return?";
pub const ENSURES_BROKEN: &str = "postcondition violated";
pub const UNDECIDED_CONTRACT: &str = "undecided: does the contract hold here?";
pub const ASSUME_REQUIRES: &str = "assume precondition (prove the contract)";
pub const USE_RESULT: &str = "use contract: a fresh result";
pub const ASSUME_ENSURES: &str = "use contract: assume postcondition";
pub const CONTRACT_RETURN: &str = "return result";

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

/// The label of an open node, from the action it is about to take.
pub fn open(state: &State) -> Option<&'static str> {
    match next_action(state)? {
        Action::ScopeCheck { .. } => Some(PRESERVES),
        Action::Guard { .. } | Action::Caught { .. } => None,
        Action::Instr(instr) => match (instr.form, &instr.kind) {
            (
                _,
                InstrKind::While {
                    abstraction: Some(_),
                    ..
                },
            ) => Some(LOOP_CHOICE),
            (Some(FormStep::Requires), _) => Some(REQUIRES),
            (Some(FormStep::UseRequires), _) => Some(USE_REQUIRES),
            (Some(FormStep::Ensures), _) => Some(ENSURES),
            (Some(FormStep::AssumeRequires), _) => Some(ASSUME_REQUIRES),
            (Some(FormStep::UseResult), _) => Some(USE_RESULT),
            (Some(FormStep::AssumeEnsures), _) => Some(ASSUME_ENSURES),
            (Some(FormStep::ContractReturn), _) => Some(CONTRACT_RETURN),
            (Some(FormStep::InitialCheck), _) => Some(INITIALLY_VALID),
            (Some(FormStep::TestCheck), _) => Some(CHECK),
            (Some(FormStep::Havoc), _) => Some(HAVOC),
            (Some(FormStep::Assume), _) => Some(ASSUME),
            (Some(FormStep::Guard), _) => Some(GUARD),
            (Some(FormStep::IterationEnd), _) => Some(ITERATION_END),
            // The user's own `continue` in the body of a loop scope (also first in the
            // else-branch of a hand-written one).
            (None | Some(FormStep::UseCase), InstrKind::Continue) if in_loop_scope(state) => {
                Some(ITERATION_END)
            }
            (Some(FormStep::UseCase), _) => Some(USE_CASE),
            // The user's own `break` in the body of a loop scope.
            (None, InstrKind::Break) if in_loop_scope(state) => Some(USE_CASE_BREAK),
            _ => None,
        },
    }
}

/// The check of invariant lines a settled state is about to run, if any.
fn check_of(state: &State) -> Option<Check> {
    match next_action(state)? {
        Action::ScopeCheck { .. } => Some(Check::Preserved),
        Action::Instr(i) => match (&i.kind, i.form) {
            (InstrKind::CheckInvariant(_), Some(FormStep::InitialCheck)) => Some(Check::Initially),
            (InstrKind::CheckInvariant(_), Some(FormStep::Requires)) => Some(Check::Requires),
            (InstrKind::CheckInvariant(_), Some(FormStep::UseRequires)) => Some(Check::UseRequires),
            (InstrKind::CheckInvariant(_), Some(FormStep::Ensures)) => Some(Check::Ensures),
            (InstrKind::CheckInvariant(_), _) => Some(Check::BeforeTest),
            _ => None,
        },
        _ => None,
    }
}

/// The label of a leaf, from the tag of the step that made it (a step cut short by the
/// engine's limits has no way of its own: the check its parent was about to run).
pub fn leaf(tag: &Tag, parent: &State, outcome: Outcome) -> Option<&'static str> {
    let check = match tag {
        Tag::Limit => check_of(parent)?,
        _ => tag.check()?,
    };
    let failed = matches!(outcome, Outcome::Exception(_));
    match (check, outcome) {
        (Check::Preserved, Outcome::Halt) => Some(PRESERVED),
        (Check::Preserved, Outcome::Unknown) => Some(UNDECIDED_PRESERVES),
        (Check::Preserved, _) if failed => Some(NOT_PRESERVED),
        (Check::Initially, Outcome::Unknown) => Some(UNDECIDED_INITIALLY),
        (Check::Initially, _) if failed => Some(NOT_INITIALLY_VALID),
        (Check::BeforeTest, Outcome::Unknown) => Some(UNDECIDED_CHECK),
        (Check::BeforeTest, _) if failed => Some(BROKEN),
        (Check::Requires | Check::UseRequires | Check::Ensures, Outcome::Unknown) => {
            Some(UNDECIDED_CONTRACT)
        }
        (Check::Requires | Check::UseRequires, _) if failed => Some(REQUIRES_BROKEN),
        (Check::Ensures, _) if failed => Some(ENSURES_BROKEN),
        _ => None,
    }
}
