//! Hard queries in a solver process that can be killed: a time limit Z3 cannot ignore.
//!
//! The watchdog (`interrupt.rs`) interrupts a Z3 call at its deadline, and Z3 4.8.12
//! usually stops; on some nonlinear problems it does not (`y = y * y % 1000003` five
//! times ran for more than ten minutes at `--timeout-ms 200`). A call that
//! ignores `Z3_interrupt` cannot be taken back on its thread, so, like KLEE, symdbg asks
//! such queries of **another process** and kills it when it overruns.
//!
//! - **Which queries.** Those with a nonlinear product or a symbolic divisor
//!   (`term/features.rs`), where Z3's nonlinear arithmetic ignored the interrupts. Linear
//!   queries, the common case, stay in this process and incremental, and so do quantified
//!   ones without nonlinear arithmetic: Z3 honours interrupts there (the quantified tests
//!   of `tests/it/solver_limits.rs`), and in the process their models came out unminimised
//!   under load (`fold::check::folded_leaf_models_are_small`: tuples of 11,406 elements at
//!   load 13; quantifier instantiation depends on the order terms are created, which
//!   differs there). The hardness of a path
//!   condition's prefix is remembered along it (`Isolation::prefix`), so a check costs
//!   what changed since the last one, as everywhere in the solver.
//! - **How.** A check sends the conjuncts (a DAG of numbered nodes, `isolate/wire.rs`); a
//!   model sends the part and its symbols and gets the minimised model back; an unsat core
//!   (`core.rs`, for `why`) sends the parts, the goal and the budget. The process
//!   is long-lived (one per solver, started on the first hard query) and runs symdbg's own
//!   [`Solver`] with the same time limit, so it answers as this process would have,
//!   `unknown (timeout)` included, and keeps its incremental stack between queries.
//! - **The limit.** If no answer has come [`MARGIN`] after the query's own limit (for a
//!   model: the check's limit plus the minimisation budget), or as soon as the cancel flag
//!   is set (Esc, Ctrl-C), the process is killed (and started again for the next hard
//!   query); the answer is `Unknown("timeout")` or `Unknown("interrupted")`.
//! - **Who spawns it.** Only the binary can start itself: the command line registers an
//!   [`Isolator`] factory ([`isolate_hard_queries`], `cli/worker.rs`, the hidden
//!   `__solver-worker` subcommand). Without one (the library, unit tests, benches) or when
//!   the process cannot be started, hard queries run in this process as before.

pub(super) mod wire;

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use super::{minimize_budget, CoreAnswer, SatResult, Solver, SolverConfig, Unknown};
use crate::term::features::{feature_of, FeatureKind};
use crate::term::{Model, PathCondition, Sym, Term};

/// How long after its limit an isolated query may still answer before it is killed.
pub const MARGIN: Duration = Duration::from_millis(250);

/// The line that ends a request and an answer.
pub const END: &str = "end";

/// Drop the hardness memo beyond this many subterms (it only saves time).
const MEMO_LIMIT: usize = 200_000;

/// What became of a request sent to a solver process.
pub enum Asked {
    /// Its answer, without the final [`END`] line.
    Answer(Vec<String>),
    /// No answer by the deadline: the process was killed.
    Late,
    /// The cancel flag was set: the process was killed.
    Cancelled,
    /// The process could not be started, or died, or answered nonsense.
    Failed(String),
}

/// A solver process (or anything answering requests like one).
pub trait Isolator {
    /// Send `request` (lines, ending with [`END`]) and wait for the answer until
    /// `deadline` (`None`: no limit) or until `cancel` is set; past either, kill the process
    /// (the next request starts a new one).
    fn ask(
        &mut self,
        request: &str,
        deadline: Option<Instant>,
        cancel: Option<&AtomicBool>,
    ) -> Asked;
}

/// Makes a solver process for a new [`Solver`] (`None`: hard queries stay in process).
pub type Factory = fn() -> Option<Box<dyn Isolator>>;

static FACTORY: OnceLock<Factory> = OnceLock::new();

/// Run the hard queries of every solver created from now on in processes made by
/// `factory` (the command line calls this once; see the module doc).
pub fn isolate_hard_queries(factory: Factory) {
    let _ = FACTORY.set(factory);
}

/// A solver's link to its solver process.
#[derive(Default)]
pub(super) struct Isolation {
    /// Started on the first hard query.
    process: Option<Box<dyn Isolator>>,
    /// No factory, or it made no process: everything runs here.
    off: bool,
    /// Is the term hard (does it hold a hard feature; see the module doc)?
    memo: crate::term::TermMap<bool>,
    /// `prefix[i]`: is one of the first `i + 1` conjuncts of the solver's `clusters` hard?
    pub prefix: Vec<bool>,
}

impl Isolation {
    /// End the solver process, if one runs (its `Drop` kills and reaps it).
    pub(super) fn stop(&mut self) {
        self.process = None;
    }

    /// Is `t` hard for Z3 (a nonlinear product or a symbolic divisor)? Known for every
    /// subterm walked so far: a conjunct costs its new nodes only (a path's conjuncts share
    /// most of theirs).
    fn hard(&mut self, t: &Term) -> bool {
        if let Some(&h) = self.memo.get(t) {
            return h;
        }
        if self.memo.len() > MEMO_LIMIT {
            self.memo.clear();
        }
        // Children before parents, without recursion (terms may be 20,000 levels deep).
        let mut todo = vec![(t.clone(), false)];
        while let Some((u, expanded)) = todo.pop() {
            if self.memo.contains_key(&u) {
                continue;
            }
            if !expanded {
                todo.push((u.clone(), true));
                u.kind().for_each_child(|c| {
                    if !self.memo.contains_key(c) {
                        todo.push((c.clone(), false));
                    }
                });
                continue;
            }
            let mut h = matches!(
                feature_of(&u),
                Some(FeatureKind::Nonlinear | FeatureKind::SymbolicDivisor)
            );
            u.kind()
                .for_each_child(|c| h |= self.memo.get(c).copied().unwrap_or(false));
            self.memo.insert(u, h);
        }
        self.memo.get(t).copied().unwrap_or(false)
    }

    /// Is any of `terms` hard, and is there a process to ask?
    pub fn wanted(&mut self, terms: &[Term]) -> bool {
        self.available() && terms.iter().any(|t| self.hard(t))
    }

    /// Is one of `terms` (the conjuncts of `clusters`, whose first `prefix.len()` are known)
    /// hard, and is there a process to ask?
    pub fn wanted_prefix(&mut self, terms: &[Term]) -> bool {
        if !self.available() {
            return false;
        }
        self.prefix.truncate(terms.len());
        for t in &terms[self.prefix.len()..] {
            let h = self.prefix.last().copied().unwrap_or(false) || self.hard(t);
            self.prefix.push(h);
        }
        self.prefix.last().copied().unwrap_or(false)
    }

    /// Use `process` for the hard queries (tests: a solver process in this process).
    #[cfg(test)]
    pub fn set_process(&mut self, process: Box<dyn Isolator>) {
        self.process = Some(process);
        self.off = false;
    }

    fn available(&mut self) -> bool {
        if self.off {
            return false;
        }
        if self.process.is_none() {
            self.process = FACTORY.get().and_then(|f| f());
            self.off = self.process.is_none();
        }
        !self.off
    }
}

impl Solver {
    /// Ask the solver process about `terms` (and `syms`): the answer's lines, or the
    /// reason there is none. The limit is the solver's own plus [`MARGIN`] (plus the
    /// minimisation budget for a model; a core's budget bounds its whole computation).
    fn isolated(
        &mut self,
        ask: &wire::Ask,
        terms: &[Term],
        syms: &[Sym],
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<Vec<String>, SatResult> {
        let started = Instant::now();
        self.stats.z3_calls += 1;
        let timeout = self.inc.budget();
        let limit = match ask {
            wire::Ask::Check => timeout.map(|t| t + MARGIN),
            wire::Ask::Model => timeout.map(|t| t + t.min(minimize_budget()) + MARGIN),
            wire::Ask::Core { budget_ms, .. } => Some(Duration::from_millis(*budget_ms) + MARGIN),
        };
        let request = wire::request(
            ask,
            timeout.map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
            self.minimize,
            syms,
            terms,
        );
        let process = self.isolation.process.as_mut().expect("available");
        let asked = process.ask(
            &request,
            limit.and_then(|l| started.checked_add(l)),
            cancel.as_deref(),
        );
        self.stats.z3_time += started.elapsed();
        if !matches!(ask, wire::Ask::Core { .. }) {
            self.count_close(started.elapsed());
        }
        match asked {
            Asked::Answer(lines) => Ok(lines),
            Asked::Late => Err(SatResult::Unknown(Unknown::Timeout)),
            Asked::Cancelled => Err(SatResult::Unknown(Unknown::Interrupted)),
            Asked::Failed(e) => Err(failed(e)),
        }
    }

    /// A check of `terms` in the solver process.
    pub(super) fn isolated_check(&mut self, terms: &[Term]) -> SatResult {
        match self.isolated(&wire::Ask::Check, terms, &[], self.inc.cancel.clone()) {
            Ok(lines) => wire::parse_answer(&lines, &[]).map_or_else(failed, |(r, _)| r),
            Err(r) => r,
        }
    }

    /// A (minimised) model of `part` for `syms` in the solver process.
    pub(super) fn isolated_model(
        &mut self,
        part: &[Term],
        syms: &[Sym],
    ) -> Result<Model, SatResult> {
        let lines = self.isolated(&wire::Ask::Model, part, syms, self.inc.cancel.clone())?;
        match wire::parse_answer(&lines, syms).map_err(failed)? {
            (SatResult::Sat, Some(m)) => Ok(m),
            (SatResult::Sat, None) => Err(SatResult::Unknown(Unknown::Other("no model".into()))),
            (r, _) => Err(r),
        }
    }

    /// An unsat core of `parts` in the solver process (see [`Solver::core`]).
    pub(super) fn isolated_core(
        &mut self,
        parts: &[Term],
        goal: &[usize],
        budget: Duration,
        cancel: Option<Arc<AtomicBool>>,
    ) -> CoreAnswer {
        let ask = wire::Ask::Core {
            budget_ms: u64::try_from(budget.as_millis()).unwrap_or(u64::MAX),
            goal: goal.to_vec(),
        };
        match self.isolated(&ask, parts, &[], cancel) {
            Ok(lines) => wire::parse_core_answer(&lines, parts.len()).unwrap_or_else(|e| {
                CoreAnswer::Unknown(Unknown::Other(format!("solver process: {e}")))
            }),
            Err(SatResult::Unknown(r)) => CoreAnswer::Unknown(r),
            Err(other) => CoreAnswer::Unknown(Unknown::Other(format!("solver process: {other:?}"))),
        }
    }
}

/// The answer when the solver process failed (could not start, died, answered nonsense).
fn failed(e: String) -> SatResult {
    SatResult::Unknown(Unknown::Other(format!("solver process: {e}")))
}

/// The solver process's state between requests: its solver (for one time limit) and the
/// last path condition checked, one persistent [`PathCondition`] per prefix, so that a
/// check extending it shares its prefix by pointer (the solver's caches, constraint
/// independence and incremental stack then work as they do in the parent).
pub struct Served {
    timeout_ms: Option<u64>,
    solver: Solver,
    /// `pcs[i]`: the first `i` conjuncts of the last check (`pcs[0]` empty).
    pcs: Vec<PathCondition>,
}

impl Served {
    /// The path condition of `terms`, sharing the longest prefix with the last one.
    fn path(&mut self, terms: &[Term]) -> PathCondition {
        let last = self
            .pcs
            .last()
            .map(PathCondition::to_vec)
            .unwrap_or_default();
        let common = last.iter().zip(terms).take_while(|(a, b)| a == b).count();
        self.pcs.truncate(common + 1);
        if self.pcs.is_empty() {
            self.pcs.push(PathCondition::from_terms(&[]));
        }
        for t in &terms[common..] {
            let next = self.pcs.last().expect("non-empty").push(t.clone());
            self.pcs.push(next);
        }
        self.pcs.last().expect("non-empty").clone()
    }
}

/// The solver process's side: answer one request (its lines, without [`END`]) with the
/// process's state (made, or made again, for the request's time limit), the answer's lines
/// ending with [`END`]. Runs the query in this process: the caller is the solver process.
pub fn serve(request: &str, state: &mut Option<Served>) -> String {
    let req = match wire::parse_request(request) {
        Ok(r) => r,
        Err(e) => {
            let r = Err(SatResult::Unknown(Unknown::Other(format!(
                "bad request: {e}"
            ))));
            return format!("{}{END}\n", wire::answer(&r, &[]));
        }
    };
    if state
        .as_ref()
        .is_none_or(|s| s.timeout_ms != req.timeout_ms)
    {
        let mut solver = Solver::new(SolverConfig {
            timeout_ms: req.timeout_ms,
        });
        solver.isolation.off = true;
        *state = Some(Served {
            timeout_ms: req.timeout_ms,
            solver,
            pcs: Vec::new(),
        });
    }
    let st = state.as_mut().expect("made above");
    st.solver.set_minimize(req.minimize);
    let r = match &req.ask {
        wire::Ask::Check => {
            let pc = st.path(&req.terms);
            match st.solver.check_pc(&pc) {
                SatResult::Sat => Ok(None),
                r => Err(r),
            }
        }
        wire::Ask::Model => st.solver.try_model(&req.terms, &req.syms).map(Some),
        wire::Ask::Core { budget_ms, goal } => {
            if goal.iter().any(|&g| g >= req.terms.len()) {
                let r = CoreAnswer::Unknown("bad request: a goal past the parts".into());
                return format!("{}{END}\n", wire::core_answer(&r));
            }
            let budget = Duration::from_millis(*budget_ms);
            let r = st.solver.core(&req.terms, goal, budget, None);
            return format!("{}{END}\n", wire::core_answer(&r));
        }
    };
    format!("{}{END}\n", wire::answer(&r, &req.syms))
}
