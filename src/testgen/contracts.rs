//! `testgen` on programs with contracts (issue 28).
//!
//! The tests run the program under python3 with its `requires`/`ensures` lines checked
//! as symdbg's interpreter checks them (the pytest loader turns them into checks around
//! the function, see [`super::pytest`]), so a leaf's expected result is the concrete
//! interpreter's, contracts included, under either `--calls` mode:
//!
//! - `--calls inline` (the default): every call runs its body, the tree is precise, and
//!   every leaf gets its tests as in a program without contracts (a leaf that is a
//!   contract's failure expects the `AssertionError` at the contract line);
//! - `--calls contract`: a leaf below a use of a contract is *abstract* (the call's result
//!   is a fresh `f@n` constrained by the postcondition). A model of it gets a test only
//!   when its concrete run reproduces the leaf: every call the path used a contract for
//!   is made and keeps its contract, and with each `f@n` the call's real result the path
//!   condition holds ([`reproduced`]); the leaf's claim is its values under those
//!   results, compared with the run as for any leaf. Otherwise
//!   the leaf is listed as "not written: the contract of f may be too weak", never given
//!   a test with a wrong expected value.

use crate::lang::ast::{Program, Stmt, StmtKind};
use crate::session::program::{CallEnd, RunResult};
use crate::session::{kappa_limit, Model, NodeId, NodeModel, Session};

/// Does the program have a function with `requires` or `ensures` lines?
pub fn has_contracts(program: &Program) -> bool {
    fn any(body: &[Stmt]) -> bool {
        body.iter().any(|s| match &s.kind {
            StmtKind::FunctionDef(f) => !f.contract.is_empty() || any(&f.body),
            _ => s.nested_blocks().into_iter().any(any),
        })
    }
    any(&program.body)
}

/// Why a model's run does not reproduce an abstract leaf ([`reproduced`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum NotReproduced {
    /// A call of this function with a true precondition raised or failed its
    /// postcondition: the contract is broken (what the tree, trusting it, cannot show).
    Broken(String),
    /// A call of this function did not end (a `halt` in it).
    Unfinished(String),
    /// With the calls' real results the run takes another path: these functions'
    /// contracts let results their bodies do not return.
    TooWeak(Vec<String>),
    /// The path condition cannot be evaluated under the run's values (a quantifier over
    /// too many values).
    Unevaluated,
}

impl NotReproduced {
    /// The reason a skipped leaf is listed with.
    pub(super) fn reason(&self) -> String {
        match self {
            NotReproduced::Broken(f) => format!(
                "not written: its model's run breaks the contract of {f} (a call with a true \
                 precondition raised or failed its postcondition; `symdbg check FILE \
                 --contracts` proves the contracts)"
            ),
            NotReproduced::Unfinished(f) => {
                format!("not written: a call of {f} in its model's run did not end")
            }
            NotReproduced::Unevaluated => "not written: its path condition cannot be \
                                            evaluated under its model's run"
                .to_string(),
            NotReproduced::TooWeak(fs) => {
                let names: Vec<String> =
                    fs.iter().map(|f| format!("the contract of {f}")).collect();
                format!(
                    "not written: {} may be too weak (with the results the calls really \
                     return, its model's inputs take another path)",
                    names.join(" or ")
                )
            }
        }
    }

    /// Of two reasons for one leaf, the one to list: a broken contract first.
    pub(super) fn worse(self, other: NotReproduced) -> NotReproduced {
        match (&self, &other) {
            (NotReproduced::Broken(_), _) => self,
            (_, NotReproduced::Broken(_)) => other,
            _ => self,
        }
    }
}

/// Does the concrete `run` of `model`'s inputs reproduce the abstract leaf `id`? Every
/// call the path used a contract for must be made, in order, and keep its contract (return,
/// or fail its precondition where the path says so), and the leaf's path condition must
/// hold with each `f@n` bound to the result the call really returned: then the run ends at
/// the leaf, and the returned model (inputs, real results, the folds' κs) gives the leaf's
/// exact values. Otherwise, why not.
pub(super) fn reproduced(
    session: &Session,
    id: NodeId,
    model: &NodeModel,
    run: &RunResult,
) -> Result<Model, NotReproduced> {
    for c in &run.contract_calls {
        match c.end {
            CallEnd::Raised => return Err(NotReproduced::Broken(c.function.clone())),
            CallEnd::Other => return Err(NotReproduced::Unfinished(c.function.clone())),
            CallEnd::Returned(_) | CallEnd::PreconditionFailed => {}
        }
    }
    let inputs = session.input_model(&model.inputs);
    let leaf = [session.candidate(id)];
    let mut hits = session.holding_run(&leaf, &inputs, kappa_limit(run), Some(&run.contract_calls));
    match hits.all.pop() {
        Some((_, bound)) => Ok(bound),
        None if hits.any_undecided => Err(NotReproduced::Unevaluated),
        None => Err(NotReproduced::TooWeak(session.contracts_used(id))),
    }
}
