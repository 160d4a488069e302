//! Unsat cores: which parts of an unsatisfiable conjunction clash.
//!
//! [`Solver::core`] answers, for `parts` (Bool terms, typically the path condition split at
//! its `and`s) and `goal` (the indices of the parts whose addition is being explained):
//! `Unsat { core, minimal }` with `core` the indices of a subset of `parts` that is already
//! unsatisfiable, `Sat`, or `Unknown(reason)`. Only on demand: exploration never calls it.
//!
//! 1. **Slice.** With a non-empty `goal`, only the parts connected to the goal parts through
//!    shared free symbols are sent to Z3 (`slice::connected`). *Precondition:* the parts
//!    outside `goal` are satisfiable together (for a pruned branch: the node's own path
//!    condition; for a leaf: its parent's). Then every minimal core lies inside the slice
//!    `C`: let `K` be a minimal core and `R` the parts outside `C`. `K ∩ R ⊆ R` is
//!    satisfiable and shares no symbol with `K ∩ C`; if `K ∩ C` were satisfiable, the union
//!    of the two models (disjoint symbols) would satisfy `K` (each part's truth depends only
//!    on its own symbols, as in `slice.rs`). So `K ∩ C` is unsatisfiable, and `K = K ∩ C` by
//!    minimality. Conversely the whole is unsatisfiable iff `C` is (the argument of
//!    `slice.rs`). With an empty `goal` nothing is assumed: each connected component is
//!    checked on its own (a minimal core lies in one component, by the same argument),
//!    newest first, and the first unsatisfiable one is minimised.
//! 2. **Tracked assertions.** A fresh `z3::Solver` (the exploration's incremental solver and
//!    its push stack are not touched): for each part `p_i` of the slice, `a_i ⇒ p_i` with a
//!    fresh Bool literal `a_i`, then `check_assumptions(a…)` and, on unsat,
//!    `get_unsat_core()`. An "(incomplete quantifiers)" answer is retried with other seeds.
//! 3. **Deletion minimisation.** For each member `c` of the core: check the core without
//!    `c`; unsat → drop `c` and continue with the (possibly smaller) new core Z3 returns;
//!    sat → `c` is needed. The result is irreducible (`minimal: true`) when no check
//!    answered unknown or ran out of budget. A goal part that is the only goal part left
//!    is needed by the precondition and not checked.
//! 4. **Cost control.** At most [`CORE_PART_LIMIT`] parts after slicing (else `Unknown("too
//!    large: …")`); each check gets the solver's per-check timeout, the whole computation
//!    `budget`; every check runs under the watchdog (`interrupt.rs`) with the cancel flag,
//!    so setting it (the TUI's Esc) stops a check in progress and the answer is
//!    `Unknown("interrupted")`. Each check counts as a Z3 call in [`Solver::stats`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use z3::ast::Bool;

use super::incremental::new_z3;
use super::translate::Translator;
use super::{interrupt, slice, with_watchdog, SatResult, Solver, Unknown};
use crate::term::Term;

/// The most parts [`Solver::core`] sends to Z3 (after slicing).
pub const CORE_PART_LIMIT: usize = 256;

/// Fresh solvers (random seeds) to try after "(incomplete quantifiers)".
const RETRY_SEEDS: u32 = 3;

/// The answer of [`Solver::core`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoreAnswer {
    /// The parts are unsatisfiable; `core` (ascending indices into the parts) already is.
    /// `minimal`: dropping any one member makes the rest satisfiable (checked).
    Unsat {
        core: Vec<usize>,
        minimal: bool,
    },
    Sat,
    /// Undecided: timeout, interrupted, too many parts (`too large: …`), or Z3's reason.
    Unknown(Unknown),
}

/// One answer of a tracked check.
enum Check {
    /// The members of an unsat core (indices into the parts).
    Unsat(Vec<usize>),
    Sat,
    Unknown(Unknown),
}

/// A fresh Z3 solver holding `a_i ⇒ p_i` for the parts of one slice.
struct Tracked<'a> {
    z3: z3::Solver,
    /// (part index, its literal).
    lits: Vec<(usize, Bool)>,
    timeout: Option<Duration>,
    deadline: Option<Instant>,
    cancel: Option<&'a Arc<AtomicBool>>,
    checks: u64,
    time: Duration,
}

impl<'a> Tracked<'a> {
    fn new(
        parts: &[Term],
        slice: &[usize],
        seed: u32,
        timeout: Option<Duration>,
        deadline: Option<Instant>,
        cancel: Option<&'a Arc<AtomicBool>>,
    ) -> Tracked<'a> {
        let z3 = new_z3(seed);
        let mut tr = Translator::default();
        // Inside a push frame, as everywhere (Z3 4.8.12's incremental mode; `incremental.rs`).
        z3.push();
        let lits = slice
            .iter()
            .map(|&i| {
                let lit = Bool::fresh_const("core");
                z3.assert(lit.implies(tr.conjunct(&parts[i])));
                (i, lit)
            })
            .collect();
        Tracked {
            z3,
            lits,
            timeout,
            deadline,
            cancel,
            checks: 0,
            time: Duration::ZERO,
        }
    }

    fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }

    fn out_of_budget(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Are the parts `subset` (part indices) satisfiable together?
    fn check(&mut self, subset: &[usize]) -> Check {
        if self.cancelled() {
            return Check::Unknown(Unknown::Interrupted);
        }
        let left = self
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        if left.is_some_and(|l| l.is_zero()) {
            return Check::Unknown(Unknown::Timeout);
        }
        let limit = match (self.timeout, left) {
            (Some(t), Some(l)) => Some(t.min(l)),
            (t, l) => t.or(l),
        };
        let assumptions: Vec<Bool> = self
            .lits
            .iter()
            .filter(|(i, _)| subset.contains(i))
            .map(|(_, l)| l.clone())
            .collect();
        let start = Instant::now();
        let armed = interrupt::arm(limit, self.cancel);
        let answer = self.z3.check_assumptions(&assumptions);
        let late = armed.late();
        drop(armed);
        self.checks += 1;
        self.time += start.elapsed();
        match answer {
            z3::SatResult::Sat => Check::Sat,
            z3::SatResult::Unsat => {
                let core = self.z3.get_unsat_core();
                let mut members: Vec<usize> = self
                    .lits
                    .iter()
                    .filter(|(_, l)| core.iter().any(|c| c == l))
                    .map(|(i, _)| *i)
                    .collect();
                members.sort_unstable();
                if members.is_empty() {
                    // Cannot happen (every part is guarded by its literal); never guess.
                    return Check::Unknown(Unknown::Other("empty unsat core".into()));
                }
                Check::Unsat(members)
            }
            z3::SatResult::Unknown => {
                let reason = self.z3.get_reason_unknown().unwrap_or_default();
                if self.cancelled() {
                    Check::Unknown(Unknown::Interrupted)
                } else if late || reason.contains("timeout") || reason == "canceled" {
                    Check::Unknown(Unknown::Timeout)
                } else if reason.is_empty() {
                    Check::Unknown(Unknown::Other("unknown".into()))
                } else {
                    Check::Unknown(Unknown::Other(reason))
                }
            }
        }
    }
}

impl Solver {
    /// An unsat core of `parts`, minimised by deletion (see the module doc for the
    /// algorithm, the precondition on `goal` and the soundness of slicing). `budget` bounds
    /// the whole computation; `cancel` (default: the flag of [`Solver::set_cancel`]) stops
    /// it, answering `Unknown("interrupted")`.
    pub fn core(
        &mut self,
        parts: &[Term],
        goal: &[usize],
        budget: Duration,
        cancel: Option<&Arc<AtomicBool>>,
    ) -> CoreAnswer {
        let own = self.inc.cancel.clone();
        let cancel = cancel.or(own.as_ref());
        if self.isolation.wanted(parts) {
            // Z3 may not interrupt these: a process that can be killed (`isolate.rs`).
            return self.isolated_core(parts, goal, budget, cancel.cloned());
        }
        with_watchdog(|| self.core_watched(parts, goal, budget, cancel))
    }

    fn core_watched(
        &mut self,
        parts: &[Term],
        goal: &[usize],
        budget: Duration,
        cancel: Option<&Arc<AtomicBool>>,
    ) -> CoreAnswer {
        if let Some(i) = parts.iter().position(Term::is_false) {
            return CoreAnswer::Unsat {
                core: vec![i],
                minimal: true,
            };
        }
        let deadline = Instant::now().checked_add(budget);
        let timeout = self.inc.budget();
        // `True` parts constrain nothing: never in a core.
        let live = |i: &usize| !parts[*i].is_true();
        let slices: Vec<Vec<usize>> = if goal.is_empty() {
            let mut comps = slice::component_indices(parts, &mut self.vars);
            // Newest first: the last conjuncts are the likeliest culprits.
            comps.sort_by_key(|c| std::cmp::Reverse(c.last().copied()));
            comps
                .into_iter()
                .map(|c| c.into_iter().filter(live).collect::<Vec<_>>())
                .filter(|c| !c.is_empty())
                .collect()
        } else {
            vec![slice::connected(parts, goal, &mut self.vars)
                .into_iter()
                .filter(live)
                .collect()]
        };
        let goal_parts: Vec<usize> = goal.iter().copied().filter(live).collect();
        let mut unknown = None;
        for slice in slices {
            if slice.len() > CORE_PART_LIMIT {
                unknown.get_or_insert(Unknown::Other(format!(
                    "too large: {} conditions (limit {CORE_PART_LIMIT})",
                    slice.len()
                )));
                continue;
            }
            match self.core_of_slice(parts, &slice, &goal_parts, timeout, deadline, cancel) {
                CoreAnswer::Sat => {}
                CoreAnswer::Unknown(Unknown::Interrupted) => {
                    return CoreAnswer::Unknown(Unknown::Interrupted)
                }
                CoreAnswer::Unknown(r) => {
                    unknown.get_or_insert(r);
                }
                unsat => return unsat,
            }
        }
        match unknown {
            Some(r) => CoreAnswer::Unknown(r),
            None => CoreAnswer::Sat,
        }
    }

    /// Check one slice; if unsat, minimise its core.
    fn core_of_slice(
        &mut self,
        parts: &[Term],
        slice: &[usize],
        goal: &[usize],
        timeout: Option<Duration>,
        deadline: Option<Instant>,
        cancel: Option<&Arc<AtomicBool>>,
    ) -> CoreAnswer {
        let mut seed = 0;
        let (mut t, mut core) = loop {
            let mut t = Tracked::new(parts, slice, seed, timeout, deadline, cancel);
            let r = t.check(slice);
            self.count(&t);
            match r {
                Check::Sat => return CoreAnswer::Sat,
                Check::Unsat(core) => break (t, core),
                Check::Unknown(Unknown::Other(r))
                    if r.contains("quantifiers") && seed < RETRY_SEEDS =>
                {
                    seed += 1;
                }
                Check::Unknown(r) => return CoreAnswer::Unknown(r),
            }
        };
        let (checks0, time0) = (t.checks, t.time);
        let mut minimal = true;
        let mut i = 0;
        while i < core.len() {
            let c = core[i];
            let goals_left = core.iter().filter(|k| goal.contains(k)).count();
            if goal.contains(&c) && goals_left == 1 {
                // The rest lies outside the goal: satisfiable by the precondition.
                i += 1;
                continue;
            }
            let without: Vec<usize> = core.iter().copied().filter(|&k| k != c).collect();
            match t.check(&without) {
                // Members before `i` were needed in a larger set, so they are in the new
                // core too (a subset of a satisfiable set is satisfiable) and still first.
                Check::Unsat(smaller) => core = smaller,
                Check::Sat => i += 1,
                Check::Unknown(Unknown::Interrupted) => {
                    self.count_since(&t, checks0, time0);
                    return CoreAnswer::Unknown(Unknown::Interrupted);
                }
                Check::Unknown(_) => {
                    minimal = false;
                    if t.out_of_budget() {
                        break;
                    }
                    i += 1;
                }
            }
        }
        self.count_since(&t, checks0, time0);
        CoreAnswer::Unsat { core, minimal }
    }

    fn count(&mut self, t: &Tracked<'_>) {
        self.stats.z3_calls += t.checks;
        self.stats.z3_time += t.time;
    }

    fn count_since(&mut self, t: &Tracked<'_>, checks: u64, time: Duration) {
        self.stats.z3_calls += t.checks - checks;
        self.stats.z3_time += t.time.saturating_sub(time);
    }

    /// Is the conjunction of `parts` satisfiable, asked of a fresh Z3 solver with random
    /// seed `seed` (no cache, no slicing, the exploration's solver untouched)? For checking
    /// an answer independently, e.g. a core's unsatisfiability in tests.
    pub fn check_fresh(&mut self, parts: &[Term], seed: u32) -> SatResult {
        with_watchdog(|| {
            let all: Vec<usize> = (0..parts.len()).collect();
            let cancel = self.inc.cancel.clone();
            let timeout = self.inc.budget();
            let mut t = Tracked::new(parts, &all, seed, timeout, None, cancel.as_ref());
            let r = t.check(&all);
            self.count(&t);
            match r {
                Check::Sat => SatResult::Sat,
                Check::Unsat(_) => SatResult::Unsat,
                Check::Unknown(r) => SatResult::Unknown(r),
            }
        })
    }
}
