//! The book's correctness tests of symbolic transitions (chapter 001), with the concrete
//! interpreter as oracle.
//!
//! - **Exhaustive**: every concrete run is represented by a leaf: for a random input, some
//!   explored leaf's path condition holds and that leaf ends the way the concrete run does
//!   (same outcome, exception class, final variables or return value). A `bound` or
//!   `unknown` leaf represents no concrete result, so an input that lands there is a
//!   counterexample (the book's while_program with unroll 2 is not exhaustive). Inputs
//!   that violate an `assume` (the concrete run ends `infeasible`) or exceed the
//!   interpreter's step budget are skipped: no leaf is meant to represent them. So are
//!   inputs under which the path conditions cannot be evaluated in Rust (a quantifier over
//!   a huge range), counted in [`Report::unevaluated`].
//! - **Precise**: every satisfiable leaf is real: running its model concretely ends the way
//!   the leaf says. A model whose concrete run uses up the interpreter's step budget (e.g.
//!   a quantifier over 10^15 values, which Z3 decides at once) is skipped and counted in
//!   [`Report::unfinished`], as are such random inputs.
//!
//! Verdicts are "probably" (testing, not proof). Used by `symdbg check`; no IO here.

use std::collections::BTreeMap;

use crate::base::rng::SplitMix64;
use crate::session::program::{ConcreteConfig, ContractCall, RunResult};
use crate::session::{
    Candidate, Hits, Model, NoModel, NodeId, Outcome, ReplayError, Session, Type, Value,
};

mod contracts;
mod merge;
pub mod parallel;
#[cfg(test)]
mod print_tests;
pub mod shrink;

/// One concrete result, comparable between a leaf and a concrete run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Behaviour {
    /// How it ended; `None` at a node the exploration left open (cut by `--max-nodes`).
    pub outcome: Option<Outcome>,
    /// Module runs: the final variables; entry runs: empty.
    pub store: BTreeMap<String, Value>,
    pub return_value: Option<Value>,
    /// What the run printed (a leaf's printed lines under the model; `None` where they
    /// cannot be evaluated).
    pub stdout: Option<String>,
    /// Why a leaf's claim is wrong beyond its outcome and values (a fold's κ that is not
    /// the real iteration count); `None` on concrete runs.
    pub note: Option<String>,
}

impl Behaviour {
    /// The outcome's name, or [`CUT`] at a node left open.
    pub fn outcome_name(&self) -> &'static str {
        self.outcome.map_or(CUT, Outcome::name)
    }

    /// The exception class's name at an exception.
    pub fn exception(&self) -> Option<&'static str> {
        self.outcome.and_then(Outcome::exception).map(|c| c.name())
    }
}

/// A failed check: the input and what went wrong.
#[derive(Clone, Debug)]
pub struct Counterexample {
    pub inputs: BTreeMap<String, Value>,
    /// The concrete interpreter's behaviour.
    pub concrete: Behaviour,
    /// The leaf's (or `None`: no leaf's path condition holds).
    pub symbolic: Option<Behaviour>,
    pub leaf: Option<NodeId>,
}

#[derive(Clone, Debug)]
pub struct Report {
    pub runs: usize,
    pub exhaustive: Option<Counterexample>,
    pub precise: Option<Counterexample>,
    /// Leaves that claim a result, each replayed or named in [`Report::not_replayed`]
    /// (with no model: issue 31).
    pub leaves_checked: usize,
    /// Random inputs that ended on a `bound`/`unknown` leaf or an unexplored node and were
    /// skipped ([`Undecided::Skip`]); always 0 with [`Undecided::Counterexample`].
    pub undecided: usize,
    /// Inputs (random ones, or leaf models) skipped because the path conditions or the
    /// leaf's values cannot be evaluated under them in Rust (a quantifier over a range
    /// larger than `EVAL_RANGE_LIMIT` values): no verdict either way.
    pub unevaluated: usize,
    /// Concrete runs that used up the interpreter's step budget (`step_limit`): they end
    /// nowhere, so they are no verdict either way (random inputs and leaf models).
    pub unfinished: usize,
    /// Random inputs that an `assume` of the program rejected (the run ends `infeasible`)
    /// or that the interpreter refused: outside what the program is about, no verdict.
    pub rejected: usize,
    /// Random inputs compared with a leaf (the exhaustiveness test's evidence): none, and
    /// exhaustiveness was not tested whatever `runs` says.
    pub compared: usize,
    /// Leaves with a model whose replay gave no verdict, in leaf order, with the reason
    /// (also counted in [`Report::leaves_checked`], and in [`Report::unevaluated`] or
    /// [`Report::unfinished`] as their reason says).
    pub not_replayed: Vec<(NodeId, NotReplayed)>,
    /// `--calls contract` (issue 28): the first run (a random input or a leaf's model) in
    /// which a contracted function called with its precondition true raised or returned a
    /// value its postcondition rejects: a failure CPython shows that the tree, which
    /// trusts the contract, does not. The function, and the run.
    pub broken: Option<(String, Counterexample)>,
    /// How many runs broke a contract that way (random inputs are then not compared).
    pub contracts_broken: usize,
}

/// Why a leaf's model gave no precision verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotReplayed {
    /// The model is too large to run, or the leaf's values cannot be computed under it
    /// (counted in [`Report::unevaluated`]).
    Unevaluated,
    /// The model's run used up the step budget (counted in [`Report::unfinished`]).
    Unfinished,
    /// The interpreter refused the model's inputs.
    RunFailed,
    /// The solver found no model of the leaf's path (it gave up: a timeout), though the
    /// exploration decided the path (issue 31: such a leaf is named, never left out).
    NoModel,
    /// An abstract leaf (below a use of a contract): the body's real results differ from
    /// the results its model gives the calls, so the run may take another path. The run
    /// was checked against the whole tree instead (issue 28).
    ContractTooWeak,
    /// The model's run broke a contract ([`Report::broken`]).
    ContractBroken,
}

impl NotReplayed {
    /// In words, for `symdbg check`'s report.
    pub fn describe(self) -> &'static str {
        match self {
            NotReplayed::Unevaluated => {
                "its model is too large to run or its result cannot be computed under it"
            }
            NotReplayed::Unfinished => "its model's run used up the step budget",
            NotReplayed::RunFailed => "the interpreter refused its model's inputs",
            NotReplayed::NoModel => {
                "the solver found no model of its path (it gave up, e.g. a timeout)"
            }
            NotReplayed::ContractTooWeak => {
                "not reproduced: the contract it uses may be too weak (the real results of \
                 the calls differ from its model's; the run agrees with the leaf it reaches)"
            }
            NotReplayed::ContractBroken => "its model's run breaks a contract",
        }
    }

    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            NotReplayed::Unevaluated => "unevaluated",
            NotReplayed::Unfinished => "unfinished",
            NotReplayed::RunFailed => "run_failed",
            NotReplayed::NoModel => "no_model",
            NotReplayed::ContractTooWeak => "contract_too_weak",
            NotReplayed::ContractBroken => "contract_broken",
        }
    }
}

impl Report {
    /// Leaves whose models were replayed to a verdict (agreed, or the counterexample).
    pub fn leaves_replayed(&self) -> usize {
        self.leaves_checked - self.not_replayed.len()
    }
}

/// What the exhaustiveness test makes of a random input whose path ends in a `bound` or
/// `unknown` leaf, or in a node the exploration left open: such a leaf represents no
/// concrete result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Undecided {
    /// The input is a counterexample (the book's reading: while_program with unroll 2 is
    /// not exhaustive). `symdbg check` does this.
    #[default]
    Counterexample,
    /// The input is counted in [`Report::undecided`] and the test goes on: for callers that
    /// accept bounds and solver `unknown`s (e.g. a timeout that depends on the machine)
    /// but want every decided leaf checked.
    Skip,
}

/// Parameters of [`check_with`].
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Random inputs for the exhaustiveness test.
    pub runs: usize,
    pub seed: u64,
    pub undecided: Undecided,
}

/// Deterministic input generation (splitmix64).
struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn small(&mut self) -> i64 {
        // Mostly small values, sometimes larger ones.
        let r = self.next();
        if r.is_multiple_of(5) {
            (r >> 8) as i64 % 1000 - 500
        } else {
            (r >> 8) as i64 % 21 - 10
        }
    }

    fn value(&mut self, ty: Type) -> Value {
        match ty {
            Type::Int => Value::Int(self.small().into()),
            Type::Bool => Value::Bool(self.next().is_multiple_of(2)),
            Type::Tuple => {
                let n = (self.next() % 6) as usize;
                Value::Tuple(
                    (0..n)
                        .map(|_| self.small().into())
                        .collect::<Vec<_>>()
                        .into(),
                )
            }
        }
    }
}

/// [`Behaviour::outcome`] of a node the exploration left open (cut by `--max-nodes`).
pub const CUT: &str = "cut";

/// The leaf's behaviour under `model`; `None` if a value cannot be evaluated although the
/// model covers its symbols ([`Session::leaf_values`]).
pub(crate) fn leaf_behaviour(
    session: &Session,
    leaf: NodeId,
    model: &Model,
    entry: bool,
) -> Option<Behaviour> {
    let values = session.leaf_values(leaf, model, entry)?;
    let node = session.tree().node(leaf);
    let outcome = node.outcome().unwrap_or(Outcome::Unknown);
    Some(Behaviour {
        // A node the exploration left open (`--max-nodes`) was cut, not decided.
        outcome: (!node.is_open()).then_some(outcome),
        store: values.store,
        return_value: values.return_value,
        stdout: values.stdout,
        note: None,
    })
}

fn concrete_behaviour(r: &RunResult, entry: bool) -> Behaviour {
    Behaviour {
        outcome: Some(r.outcome),
        store: if entry {
            BTreeMap::new()
        } else {
            r.store.clone()
        },
        return_value: if entry { r.return_value.clone() } else { None },
        stdout: Some(r.stdout.clone()),
        note: None,
    }
}

/// Run both tests on an explored session. `runs` random inputs for exhaustiveness; every
/// satisfiable leaf for precision.
pub fn check(session: &mut Session, runs: usize, seed: u64) -> Report {
    let options = Options {
        runs,
        seed,
        undecided: Undecided::Counterexample,
    };
    check_with(session, &options)
}

/// The concrete behaviour of a run on `inputs` (`None`: the interpreter refused them),
/// with the most iterations any loop of it made ([`kappa_limit`]) and the run's
/// [`RunResult::contract_calls`].
fn run_calls(
    session: &Session,
    inputs: &BTreeMap<String, Value>,
) -> Option<(Behaviour, u64, Vec<ContractCall>)> {
    let is_entry = session.entry().is_some();
    session
        .run_concrete(inputs, &ConcreteConfig::default())
        .ok()
        .map(|r| {
            (
                concrete_behaviour(&r, is_entry),
                kappa_limit(&r),
                r.contract_calls,
            )
        })
}

pub use crate::session::kappa_limit;

/// [`check`] with all parameters.
pub fn check_with(session: &mut Session, options: &Options) -> Report {
    let Options {
        runs,
        seed,
        undecided: on_undecided,
    } = *options;
    let is_entry = session.entry().is_some();
    let candidates = candidates(session, |_| true);
    // `--calls contract` (issue 28): each use's fresh result is bound to the body's real
    // result in the run (see `contracts.rs`).
    let uses_contracts = session.uses_contracts();
    let (mut broken, mut contracts_broken) = (None, 0);

    // Exhaustiveness.
    let mut exhaustive = None;
    let mut undecided = 0;
    let mut unevaluated = 0;
    let mut unfinished = 0;
    let (mut rejected, mut compared) = (0, 0);
    for inputs in random_inputs(session, runs, seed) {
        let (concrete, limit, calls) = match input_run_calls(session, &inputs) {
            (InputRun::Skipped, _) => {
                rejected += 1;
                continue;
            }
            (InputRun::Unfinished, _) => {
                unfinished += 1;
                continue;
            }
            (InputRun::Ran(c, limit), calls) => (c, limit, calls),
        };
        if uses_contracts {
            match contracts::classify(&calls) {
                contracts::Calls::Kept => {}
                contracts::Calls::Broken(f) => {
                    contracts_broken += 1;
                    broken.get_or_insert_with(|| contracts::broken(f, &inputs, &concrete, None));
                    continue;
                }
                contracts::Calls::Other => {
                    rejected += 1;
                    continue;
                }
            }
        }
        let model = session.input_model(&inputs);
        let mut hits =
            session.holding_run(&candidates, &model, limit, uses_contracts.then_some(&calls));
        let first = (!hits.all.is_empty()).then(|| hits.all.swap_remove(0));
        let leaf = first.as_ref().map(|(id, _)| *id);
        if leaf.is_none() && hits.any_undecided {
            unevaluated += 1;
            continue;
        }
        if on_undecided == Undecided::Skip && leaf.is_some_and(|l| undecided_leaf(session, l)) {
            undecided += 1;
            continue;
        }
        let symbolic = match first.map(|(l, m)| leaf_behaviour(session, l, &m, is_entry)) {
            Some(None) => {
                unevaluated += 1;
                continue;
            }
            b => b.flatten(),
        };
        compared += 1;
        if symbolic.as_ref() != Some(&concrete) {
            exhaustive = Some(Counterexample {
                inputs,
                concrete,
                symbolic,
                leaf,
            });
            break;
        }
    }

    // Precision: every satisfiable leaf that claims a result, its model asked in the order
    // `testgen` asks (`Session::leaf_models`: one model path, issue 31).
    let leaves = claiming_leaves(session, |_| true);
    let verdicts = leaves.into_iter().map(|leaf| {
        let verdict = match precision(session, leaf, is_entry) {
            LeafCheck::Broken(f, c) => {
                contracts_broken += 1;
                broken.get_or_insert((f, *c));
                LeafCheck::NotReproduced(NotReplayed::ContractBroken)
            }
            v => v,
        };
        (leaf, verdict)
    });
    let (precise, checked, not_replayed) = tally(verdicts, &mut unevaluated, &mut unfinished);
    Report {
        runs,
        exhaustive,
        precise,
        leaves_checked: checked,
        undecided,
        unevaluated,
        unfinished,
        rejected,
        compared,
        not_replayed,
        broken,
        contracts_broken,
    }
}

/// The nodes a random input may end at (leaves other than `infeasible` and fold leaves
/// that fell back to unrolling, and nodes left open), among those `keep` accepts, in id order, with their path conditions.
pub(crate) fn candidates(session: &Session, keep: impl Fn(NodeId) -> bool) -> Vec<Candidate> {
    session
        .tree()
        .nodes()
        .filter(|n| n.is_open() || (n.is_leaf() && n.outcome() != Some(Outcome::Infeasible)))
        // An undecided fold leaf whose loop a fallback unrolled (issue 31): its inputs end
        // at the fallback's leaves.
        .filter(|n| !session.fell_back(n.id))
        .filter(|n| keep(n.id))
        .map(|n| session.candidate(n.id))
        .collect()
}

/// The leaves that claim a result (precision replays their models), among those `keep`
/// accepts, in id order.
pub(crate) fn claiming_leaves(session: &Session, keep: impl Fn(NodeId) -> bool) -> Vec<NodeId> {
    session
        .tree()
        .nodes()
        .filter(|n| {
            matches!(
                n.outcome(),
                Some(Outcome::Normal | Outcome::Return | Outcome::Exception(_) | Outcome::Halt)
            )
        })
        .map(|n| n.id)
        .filter(|&id| keep(id))
        .collect()
}

/// The most random inputs `check --runs` takes (each is a concrete run of the program).
pub const MAX_RUNS: usize = 10_000_000;

/// The exhaustiveness test's random inputs, in order (the same seed gives the same list),
/// made one at a time (a list of `--runs 4000000000` inputs would not fit in memory).
pub(crate) fn random_inputs(
    session: &Session,
    runs: usize,
    seed: u64,
) -> impl Iterator<Item = BTreeMap<String, Value>> {
    let inputs_of: Vec<(String, Type)> = session.inputs();
    let mut rng = Rng(SplitMix64::new(seed));
    (0..runs).map(move |_| {
        inputs_of
            .iter()
            .map(|(n, t)| (n.clone(), rng.value(*t)))
            .collect()
    })
}

/// What the concrete run on one random input means for the exhaustiveness test.
pub(crate) enum InputRun {
    /// No verdict and not counted: the interpreter refused the inputs, or the run violates
    /// an `assume` (outside the inputs the program is about: the SET keeps no leaf for it;
    /// its `infeasible` leaves have unsatisfiable path conditions).
    Skipped,
    /// Past the step budget: it ends nowhere ([`Report::unfinished`]).
    Unfinished,
    /// The run's behaviour and its [`kappa_limit`].
    Ran(Behaviour, u64),
}

pub(crate) fn input_run(session: &Session, inputs: &BTreeMap<String, Value>) -> InputRun {
    input_run_calls(session, inputs).0
}

/// [`input_run`], with the run's [`RunResult::contract_calls`] (empty unless it ran).
fn input_run_calls(
    session: &Session,
    inputs: &BTreeMap<String, Value>,
) -> (InputRun, Vec<ContractCall>) {
    match run_calls(session, inputs) {
        None => (InputRun::Skipped, Vec::new()),
        Some((c, _, _)) if c.outcome == Some(Outcome::StepLimit) => {
            (InputRun::Unfinished, Vec::new())
        }
        Some((c, _, _)) if c.outcome == Some(Outcome::Infeasible) => {
            (InputRun::Skipped, Vec::new())
        }
        Some((c, limit, calls)) => (InputRun::Ran(c, limit), calls),
    }
}

/// Which of `candidates` hold under `model` (`limit`: the run's [`kappa_limit`]).
pub(crate) fn holding(
    session: &Session,
    candidates: &[Candidate],
    model: &Model,
    limit: u64,
) -> Hits {
    session.holding(candidates, model, limit)
}

/// A node where a path stopped undecided: left open, a `bound` or an `unknown` leaf.
pub(crate) fn undecided_leaf(session: &Session, id: NodeId) -> bool {
    let node = session.tree().node(id);
    node.is_open() || matches!(node.outcome(), Some(Outcome::Bound | Outcome::Unknown))
}

/// The precision test's verdict on one leaf.
#[derive(Clone, Debug)]
pub(crate) enum LeafCheck {
    /// No model (the solver gave up): counted as checked, named as not replayed.
    NoModel,
    /// The interpreter refused the model's inputs: checked, no verdict.
    RunFailed,
    /// The leaf's values cannot be evaluated in Rust under the model.
    Unevaluated,
    /// The model's run used up the step budget.
    Unfinished,
    /// The run ends as the leaf says.
    Agrees,
    /// It does not.
    Wrong(Box<Counterexample>),
    /// No verdict on the leaf, for this reason (an abstract leaf, issue 28).
    NotReproduced(NotReplayed),
    /// The model's run broke the contract of this function ([`Report::broken`]).
    Broken(String, Box<Counterexample>),
}

/// The leaves' precision verdicts, in leaf order, summed up: the first wrong leaf (no later
/// verdict is asked for), how many leaves were checked and which gave no verdict;
/// unevaluated and unfinished leaves are added to those counts. One tally for the one-thread check and the merge of
/// `--jobs`.
pub(crate) fn tally(
    verdicts: impl IntoIterator<Item = (NodeId, LeafCheck)>,
    unevaluated: &mut usize,
    unfinished: &mut usize,
) -> (Option<Counterexample>, usize, Vec<(NodeId, NotReplayed)>) {
    let mut checked = 0;
    let mut not_replayed = Vec::new();
    for (leaf, verdict) in verdicts {
        checked += 1;
        match verdict {
            LeafCheck::Unevaluated => {
                *unevaluated += 1;
                not_replayed.push((leaf, NotReplayed::Unevaluated));
            }
            LeafCheck::Unfinished => {
                *unfinished += 1;
                not_replayed.push((leaf, NotReplayed::Unfinished));
            }
            LeafCheck::RunFailed => not_replayed.push((leaf, NotReplayed::RunFailed)),
            LeafCheck::NoModel => not_replayed.push((leaf, NotReplayed::NoModel)),
            LeafCheck::NotReproduced(why) => not_replayed.push((leaf, why)),
            LeafCheck::Broken(..) => not_replayed.push((leaf, NotReplayed::ContractBroken)),
            LeafCheck::Wrong(c) => return (Some(*c), checked, not_replayed),
            LeafCheck::Agrees => {}
        }
    }
    (None, checked, not_replayed)
}

/// Replay one leaf's model concretely and compare ([`LeafCheck`]).
pub(crate) fn precision(session: &mut Session, leaf: NodeId, is_entry: bool) -> LeafCheck {
    let config = ConcreteConfig::default();
    let replay = match session.replay(leaf, None, &config) {
        Ok(r) => r,
        // A model too long to materialise: there is one, it cannot be run (no verdict).
        Err(ReplayError::NoModel(NoModel::TooLarge(_))) => return LeafCheck::Unevaluated,
        Err(ReplayError::NoModel(_)) => return LeafCheck::NoModel,
        Err(ReplayError::Run(_)) => return LeafCheck::RunFailed,
    };
    let inputs = replay.inputs.clone();
    let model = session.input_model(&inputs);
    // Folds (issue 15): the real iteration counts, which the model's κs must equal.
    let limit = kappa_limit(&replay.run);
    // Contracts (issue 28): the calls' real results, which the model's `f@n` may not be.
    let model = if session.is_abstract(leaf) {
        match contracts::abstract_leaf(session, leaf, &inputs, &replay, is_entry) {
            Ok(bound) => bound,
            Err(verdict) => return verdict,
        }
    } else {
        model
    };
    let Some(model) = session.with_fold_params(leaf, &model, limit) else {
        return LeafCheck::Unevaluated;
    };
    let claimed = replay.model.as_ref().map(|m| &m.havoc);
    let wrong_kappa = session.wrong_kappa(leaf, claimed, &model);
    let Some(mut symbolic) = leaf_behaviour(session, leaf, &model, is_entry) else {
        return LeafCheck::Unevaluated;
    };
    let concrete = concrete_behaviour(&replay.run, is_entry);
    if concrete.outcome == Some(Outcome::StepLimit) {
        return LeafCheck::Unfinished;
    }
    if let Some(why) = wrong_kappa {
        symbolic.note = Some(why);
    }
    if concrete != symbolic {
        return LeafCheck::Wrong(Box::new(Counterexample {
            inputs,
            concrete,
            symbolic: Some(symbolic),
            leaf: Some(leaf),
        }));
    }
    LeafCheck::Agrees
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A claiming leaf without a model (the solver gave up) is counted and named, never
    /// left out silently (issue 31).
    #[test]
    fn a_leaf_without_a_model_is_named() {
        let (mut unevaluated, mut unfinished) = (0, 0);
        let verdicts = vec![
            (NodeId(3), LeafCheck::Agrees),
            (NodeId(38), LeafCheck::NoModel),
            (NodeId(40), LeafCheck::Agrees),
        ];
        let (wrong, checked, not_replayed) = tally(verdicts, &mut unevaluated, &mut unfinished);
        assert!(wrong.is_none());
        assert_eq!(checked, 3);
        assert_eq!(not_replayed, vec![(NodeId(38), NotReplayed::NoModel)]);
        assert_eq!(NotReplayed::NoModel.name(), "no_model");
        assert!(NotReplayed::NoModel.describe().contains("no model"));
        assert_eq!((unevaluated, unfinished), (0, 0));
    }
}
