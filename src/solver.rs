//! The solver layer: the only module that names `z3`. The engine asks it questions in its
//! own [`Term`] language.
//!
//! [`Solver::check`] decides whether a path condition (a conjunction of Bool terms) is
//! satisfiable, combining three techniques of symbolic executors such as KLEE:
//! - an **answer cache** (`solver/cache.rs`) keyed by the *set* of conjuncts (terms hash
//!   in O(1), their hash being cached in the node);
//! - **constraint independence** (`solver/slice.rs`): when all but the newest conjuncts are
//!   known satisfiable, only the conjuncts connected to the newest ones by shared symbols
//!   are sent to Z3 (the soundness argument is in that module);
//! - **incremental solving** (`solver/incremental.rs`): one Z3 solver, one push frame per
//!   conjunct, popped back to the common prefix of consecutive queries.
//!
//! Every Z3 call has a time limit ([`SolverConfig::timeout_ms`]), enforced from outside Z3 by
//! one watchdog thread per engine thread (`solver/interrupt.rs`, [`with_watchdog`]); a
//! timeout answers `Unknown("timeout")`. Queries Z3 may not interrupt (nonlinear,
//! quantified) run in a solver process that is killed past the limit (`solver/isolate.rs`)
//! when the binary has registered one ([`isolate_hard_queries`]). [`Solver::model`] decodes a Z3 model into concrete values
//! (tuples from sequences), and [`Model::eval`] evaluates any term under it in plain Rust.
//! The translation (`solver/translate.rs`) encodes Python's `//`, `%` and negative indices
//! exactly, like `Term::to_smt2`.
//!
//! Z3 objects live in the thread-local context of the `z3` crate: a `Solver` must stay on
//! the thread that created it (it is `!Send`).

mod bounded;
mod cache;
mod clusters;
mod core;
mod incremental;
mod interrupt;
mod isolate;
mod minimize;
mod model;
mod prefer;
mod refute;
mod slice;
#[cfg(test)]
mod tests;
mod translate;
mod unknown;
mod work;

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::term::{Model, PathCondition, Sym, Term};
use cache::{Cache, Key, Scratch};
use incremental::Incremental;
use slice::VarsMemo;

pub use self::core::{CoreAnswer, CORE_PART_LIMIT};
pub use interrupt::{interruptible, with_watchdog, INTERRUPTED};
pub use isolate::{
    isolate_hard_queries, serve as serve_isolated, Asked, Isolator, Served, END, MARGIN,
};
pub use translate::UNROLL_LIMIT;
pub use unknown::Unknown;

/// A concrete value of a model: an int, a bool or a tuple of ints.
pub type ConcreteValue = crate::concrete::Value;

/// The budget for minimising one model ([`Solver::model`]); less if the per-call limit is
/// smaller. It is spent in Z3 resource units, so many per millisecond (`solver/minimize.rs`):
/// the result does not depend on the machine's load; the wall clock is only a guard.
pub const MINIMIZE_BUDGET: Duration = Duration::from_millis(250);

/// The environment variable that sets the minimisation budget in milliseconds instead of
/// [`MINIMIZE_BUDGET`] (tests that check how small models are set it, so that the load of
/// the machine cannot change their result).
pub const MINIMIZE_BUDGET_VAR: &str = "SYMDBG_MINIMIZE_MS";

/// [`MINIMIZE_BUDGET`], or [`MINIMIZE_BUDGET_VAR`] milliseconds when that is set.
pub fn minimize_budget() -> Duration {
    static BUDGET: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
    *BUDGET.get_or_init(|| {
        std::env::var(MINIMIZE_BUDGET_VAR)
            .ok()
            .and_then(|v| v.parse().ok())
            .map_or(MINIMIZE_BUDGET, Duration::from_millis)
    })
}

/// Whole path conditions longer than this are not keyed in the answer cache (building a
/// key sorts a copy of the conjuncts; see [`Solver::check`]).
const PATH_KEY_LIMIT: usize = 32;

/// The answer to a satisfiability question.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SatResult {
    Sat,
    Unsat,
    /// Z3 could not decide, and why.
    Unknown(Unknown),
}

impl SatResult {
    /// An `unknown` caused by the cancel flag (see [`interruptible`]), not by the problem.
    pub fn is_interrupted(&self) -> bool {
        matches!(self, SatResult::Unknown(Unknown::Interrupted))
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolverConfig {
    /// Per-check time limit for Z3 (`None`: no limit).
    pub timeout_ms: Option<u64>,
}

impl Default for SolverConfig {
    fn default() -> SolverConfig {
        SolverConfig {
            timeout_ms: Some(10_000),
        }
    }
}

/// Counters since the solver was created.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// Calls of [`Solver::check`].
    pub checks: u64,
    /// Questions answered from the cache: checks, their independent clusters, models of
    /// components.
    pub cache_hits: u64,
    /// Queries sent to Z3 (for checks and for models).
    pub z3_calls: u64,
    /// Time inside Z3: translation to Z3 terms, push/pop, `check`, model extraction.
    pub z3_time: Duration,
    /// Checks for which constraint independence sent Z3 a strict subset of the conjuncts.
    pub sliced: u64,
    /// Feasibility checks and isolated model queries that took at least half of their time
    /// limit (answered or not, see [`close_to_limit`]): on another machine, or at another
    /// load, the same query may time out (`check --jobs N` checks such a run again on one
    /// thread).
    pub close_calls: u64,
}

/// Did a call that ran for `took` come close to its time limit `budget` (at least half of
/// it)? Its answer may then depend on the machine's load. No limit: never.
pub fn close_to_limit(took: Duration, budget: Option<Duration>) -> bool {
    budget.is_some_and(|b| took.saturating_mul(2) >= b)
}

/// Feasibility checks and models for path conditions. Owns Z3 objects (`!Send`).
pub struct Solver {
    inc: Incremental,
    cache: Cache,
    /// The buffer answer-cache lookups sort their conjuncts into (no key per lookup).
    scratch: Scratch,
    /// The conjuncts of the last sliced query, their components and how much of them is
    /// known satisfiable (`solver/clusters.rs`).
    clusters: clusters::Clusters,
    /// The Z3 stack holds the first `z3_same` conjuncts of `clusters` (so a check of the
    /// whole path condition need not compare them again).
    z3_same: usize,
    vars: VarsMemo,
    stats: SolverStats,
    caching: bool,
    slicing: bool,
    minimize: bool,
    /// The solver process for hard queries (`solver/isolate.rs`).
    isolation: isolate::Isolation,
    /// The last component model found: the seed the next one is derived from.
    seed: Option<Rc<Model>>,
    /// The component `seed` is a model of (every conjunct true in it).
    seed_part: Vec<Term>,
    /// Components of at least this many conjuncts derive their first model from `seed`.
    derive_from: usize,
    /// The minimisation budget instead of [`minimize_budget`] (see
    /// [`Solver::set_minimize_budget`]).
    minimize_within: Option<Duration>,
    /// What the preference checks of the last path condition found (`solver/prefer.rs`).
    prefer: prefer::Prefer,
}

/// Components of at least this many conjuncts start their minimal model from the previous
/// model, repaired by evaluation, rather than from Z3's (`solver/refute/derive.rs`): Z3's
/// model construction costs more than the check from a few dozen asserted conjuncts on,
/// and grows with them; below, Z3's models are cheap and kept (so are the printed models
/// of small programs).
pub const DERIVE_FROM: usize = 32;

/// The cached answer for the set of `terms`, if any (sorted into `scratch` only when the
/// cache's filter says it may hold one).
fn cached<'a, I>(scratch: &mut Scratch, cache: &Cache, terms: I) -> Option<SatResult>
where
    I: IntoIterator<Item = &'a Term>,
    I::IntoIter: Clone,
{
    let terms = terms.into_iter();
    let h = scratch.set_hash(terms.clone());
    cached_as(scratch, cache, terms, h)
}

/// [`cached`], given the terms' [`Scratch::set_hash`].
fn cached_as<'a>(
    scratch: &mut Scratch,
    cache: &Cache,
    terms: impl IntoIterator<Item = &'a Term>,
    set_hash: u64,
) -> Option<SatResult> {
    if !cache.may_answer(set_hash) {
        return None;
    }
    cache.get(scratch.sorted(terms), set_hash).cloned()
}

/// The conjuncts that are not `True`, or the answer if one is `False` or none is left.
fn nontrivial(pc: &[Term]) -> Result<Vec<Term>, SatResult> {
    if pc.iter().any(Term::is_false) {
        return Err(SatResult::Unsat);
    }
    let rest: Vec<Term> = pc.iter().filter(|t| !t.is_true()).cloned().collect();
    if rest.is_empty() {
        return Err(SatResult::Sat);
    }
    Ok(rest)
}

impl Solver {
    pub fn new(config: SolverConfig) -> Solver {
        Solver {
            inc: Incremental::new(config.timeout_ms),
            cache: Cache::default(),
            scratch: Scratch::default(),
            clusters: clusters::Clusters::default(),
            z3_same: 0,
            vars: VarsMemo::default(),
            stats: SolverStats::default(),
            caching: true,
            slicing: true,
            minimize: true,
            isolation: isolate::Isolation::default(),
            seed: None,
            seed_part: Vec::new(),
            derive_from: DERIVE_FROM,
            minimize_within: None,
            prefer: prefer::Prefer::default(),
        }
    }

    /// Minimise models within `budget` (still at most the time limit of one call) instead
    /// of [`minimize_budget`]'s 250 ms: for a model that must not depend on the load of
    /// the machine (`check`'s minimal counterexample, the same whatever `--jobs`). Queries
    /// sent to the solver process (`solver/isolate.rs`) keep the default.
    pub fn set_minimize_budget(&mut self, budget: Duration) {
        self.minimize_within = Some(budget);
    }

    /// Derive the models of components of at least `n` conjuncts from the previous model
    /// ([`DERIVE_FROM`] by default; `usize::MAX`: never, `0`: always; for tests and
    /// experiments).
    pub fn set_derive_from(&mut self, n: usize) {
        self.derive_from = n;
    }

    /// Minimal models that started from a derived model instead of Z3's.
    pub fn derived_models(&self) -> u64 {
        self.inc.derived
    }

    /// Report a check that ends `unknown` while `flag` is set as [`INTERRUPTED`] (and never
    /// cache it). The flag is typically set from another thread during [`interruptible`].
    pub fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.inc.cancel = Some(flag);
    }

    /// Turn the answer cache on or off (on by default; off for experiments).
    pub fn set_caching(&mut self, on: bool) {
        self.caching = on;
    }

    /// Turn model minimisation on or off (on by default: shortest tuples, smallest
    /// absolute integers, see `solver/minimize.rs`; off: Z3's first model).
    pub fn set_minimize(&mut self, on: bool) {
        self.minimize = on;
    }

    /// For experiments: also set Z3's own per-check `timeout` parameter (off by default;
    /// the watchdog enforces the limit either way). Measures what Z3's timer costs.
    pub fn set_z3_timer(&mut self, on: bool) {
        self.inc.set_z3_timer(on);
    }

    /// Turn constraint independence on or off (on by default; off for experiments).
    pub fn set_slicing(&mut self, on: bool) {
        self.slicing = on;
    }

    /// Turn the reuse of the Z3 stack's common prefix on or off (on by default; off for
    /// experiments: every query then pops everything and asserts all its conjuncts).
    pub fn set_incremental(&mut self, on: bool) {
        self.inc.reuse = on;
    }

    /// End the solver process of hard queries, if one runs: before a solver is leaked at
    /// the end of a process (`Session::leak_at_exit`), so that no process outlives it.
    pub fn stop_process(&mut self) {
        self.isolation.stop();
    }

    pub fn stats(&self) -> SolverStats {
        self.stats.clone()
    }

    /// Count a call of `took` against the time limit ([`SolverStats::close_calls`]).
    fn count_close(&mut self, took: Duration) {
        if close_to_limit(took, self.inc.budget()) {
            self.stats.close_calls += 1;
        }
    }

    /// Is the conjunction of `pc` satisfiable? Best called in depth-first order (a node's
    /// path condition extends its parent's), which the cache, constraint independence and
    /// the incremental Z3 stack all exploit; any order gives the right answers. (Builds a
    /// [`PathCondition`]: the engine calls [`Solver::check_pc`] with its own.)
    pub fn check(&mut self, pc: &[Term]) -> SatResult {
        self.check_pc(&PathCondition::from_terms(pc))
    }

    /// [`Solver::check`] of a persistent path condition. Its prefix shared with the last
    /// query is found by pointer, so a check costs what changed since the last one (plus
    /// Z3), not a walk of the whole path (docs/PERFORMANCE.md, "Deep paths").
    pub fn check_pc(&mut self, pc: &PathCondition) -> SatResult {
        with_watchdog(|| self.check_watched(pc))
    }

    fn check_watched(&mut self, pc: &PathCondition) -> SatResult {
        self.stats.checks += 1;
        if pc.has_false() {
            return SatResult::Unsat;
        }
        if pc.is_empty() {
            return SatResult::Sat;
        }
        // A whole path condition is keyed (a sorted copy, O(n log n)) only while it is
        // short: in a depth-first exploration a long one recurs only as a prefix of the
        // last query, which `clusters` recognises by pointer (see `check_sliced`).
        let keyed = self.caching && pc.len() <= PATH_KEY_LIMIT;
        let set_hash = keyed.then(|| self.scratch.set_hash(pc.iter_newest()));
        if let Some(h) = set_hash {
            if let Some(r) = cached_as(&mut self.scratch, &self.cache, pc.iter_newest(), h) {
                self.stats.cache_hits += 1;
                return r;
            }
        }
        let r = self.check_uncached(pc);
        if r.is_interrupted() {
            return r;
        }
        if let Some(h) = set_hash {
            self.cache.insert_path(h, pc, r.clone());
        }
        r
    }

    fn check_uncached(&mut self, pc: &PathCondition) -> SatResult {
        if !self.slicing {
            return self.solve(&pc.to_vec());
        }
        let common = self.clusters.sync(pc, &mut self.vars);
        self.z3_same = self.z3_same.min(common);
        self.isolation.prefix.truncate(common);
        let r = self.check_sliced();
        if r == SatResult::Sat {
            self.clusters.set_sat(self.clusters.len());
        }
        r
    }

    /// [`Solver::check`] with constraint independence, of the path condition that
    /// `clusters` holds.
    fn check_sliced(&mut self) -> SatResult {
        let n = self.clusters.len();
        let known = self.known_sat_prefix();
        if known == n {
            // `pc` is a prefix of a satisfiable path condition.
            self.stats.cache_hits += 1;
            return SatResult::Sat;
        }
        if known == 0 {
            return self.solve_whole();
        }
        let Some(positions) = self.clusters.cluster(known) else {
            // Everything is connected to the new conjuncts.
            return self.solve_whole();
        };
        let cluster: Vec<Term> = positions
            .into_iter()
            .map(|i| self.clusters.term(i).clone())
            .collect();
        self.stats.sliced += 1;
        if !self.caching {
            return self.solve(&cluster);
        }
        if let Some(r) = cached(&mut self.scratch, &self.cache, &cluster) {
            self.stats.cache_hits += 1;
            return r;
        }
        let r = self.solve(&cluster);
        if !r.is_interrupted() {
            let key = Key::of_sorted(self.scratch.sorted(&cluster));
            self.cache.insert_cluster(key, r.clone());
        }
        r
    }

    /// The length of a prefix of the path condition in `clusters` known to be
    /// satisfiable: the common prefix with the last satisfiable path condition, or all but
    /// the last conjunct if the cache says so (short path conditions only, see
    /// `PATH_KEY_LIMIT`).
    fn known_sat_prefix(&mut self) -> usize {
        let pc = self.clusters.terms();
        let n = pc.len();
        let common = self.clusters.known_sat();
        if common + 1 >= n || !self.caching || n - 1 > PATH_KEY_LIMIT {
            return common;
        }
        match cached(&mut self.scratch, &self.cache, &pc[..n - 1]) {
            Some(SatResult::Sat) => n - 1,
            _ => common,
        }
    }

    /// Ask Z3 about the whole path condition in `clusters`, reusing what the Z3 stack
    /// is known to hold without comparing it.
    fn solve_whole(&mut self) -> SatResult {
        if self.isolation.wanted_prefix(self.clusters.terms()) {
            // The Z3 stack is left as it is: `z3_same` still describes it.
            let terms = self.clusters.terms().to_vec();
            return self.isolated_check(&terms);
        }
        self.stats.z3_calls += 1;
        let (r, time) = self.inc.check_from(self.clusters.terms(), self.z3_same);
        self.z3_same = self.clusters.len();
        self.stats.z3_time += time;
        self.count_close(time);
        r
    }

    /// Ask Z3 about exactly these conjuncts.
    fn solve(&mut self, terms: &[Term]) -> SatResult {
        if self.isolation.wanted(terms) {
            return self.isolated_check(terms);
        }
        self.stats.z3_calls += 1;
        self.z3_same = 0;
        let (r, time) = self.inc.check(terms);
        self.stats.z3_time += time;
        self.count_close(time);
        r
    }

    /// [`Solver::check`], answered without a quantified query where a folded path allows
    /// (`solver/bounded.rs`): `Sat` when a model is built from the quantifiers' expansion
    /// under a width bound, `Unsat` when the quantifier-free conjuncts bound the widths and
    /// the expansion has no model; those answers are counted in Z3's resource units (the
    /// minimisation budget), so they do not depend on the load or `--timeout-ms`. Else
    /// [`Solver::check`]. For `testgen`'s preference checks (`engine/discriminate.rs`).
    pub fn check_folded(&mut self, pc: &[Term]) -> SatResult {
        if self.minimize && !pc.iter().any(Term::is_false) {
            let limit = self.minimize_within.unwrap_or_else(minimize_budget);
            let budget = self.inc.budget().map_or(limit, |b| b.min(limit));
            let start = Instant::now();
            let r = with_watchdog(|| self.inc.decide_bounded(pc, budget));
            self.stats.z3_time += start.elapsed();
            if let Some(r) = r {
                self.stats.checks += 1;
                self.stats.z3_calls += 1;
                return r;
            }
        }
        self.check(pc)
    }

    /// A model of `pc` giving a value to each of `syms` (symbols that `pc` does not
    /// mention get their defaults `0`, `False`, `()`). `None` if `pc` is unsat or unknown.
    /// The model is minimal within [`MINIMIZE_BUDGET`]: shortest tuples, then smallest
    /// absolute integers (see `solver/minimize.rs`).
    ///
    /// Each connected component of `pc` (conjuncts linked by shared symbols) is solved
    /// on its own and its model cached: the components have disjoint symbols, so the
    /// union of their models is a model of `pc`.
    pub fn model(&mut self, pc: &[Term], syms: &[Sym]) -> Option<Model> {
        self.try_model(pc, syms).ok()
    }

    /// Like [`Solver::model`], with the reason when there is none: the solver's answer,
    /// `Unsat` or `Unknown("timeout")`, `Unknown("interrupted")`, ...
    pub fn try_model(&mut self, pc: &[Term], syms: &[Sym]) -> Result<Model, SatResult> {
        with_watchdog(|| self.model_watched(pc, syms))
    }

    fn model_watched(&mut self, pc: &[Term], syms: &[Sym]) -> Result<Model, SatResult> {
        let wanted: BTreeSet<&Sym> = syms.iter().collect();
        let mut values = BTreeMap::new();
        let mut long = BTreeMap::new();
        match nontrivial(pc) {
            Err(SatResult::Sat) => {}
            Err(r) => return Err(r),
            Ok(pc) => {
                let parts = if self.slicing {
                    slice::components(&pc, &mut self.vars)
                } else {
                    vec![pc]
                };
                for part in parts {
                    let m = self.part_model(&part)?;
                    let found = m.values.iter().filter(|(s, _)| wanted.contains(s));
                    values.extend(found.map(|(s, v)| (s.clone(), v.clone())));
                    let found = m.long.iter().filter(|(s, _)| wanted.contains(s));
                    long.extend(found.map(|(s, t)| (s.clone(), t.clone())));
                }
            }
        }
        for s in syms {
            if !long.contains_key(s) {
                values.entry(s.clone()).or_insert_with(|| m_default(s));
            }
        }
        // A value too long to materialise is said so (with every other input's value and
        // each κ, from all components), never replaced.
        let all = Model { values, long };
        if let Some(why) = all.too_large(wanted.iter().copied()) {
            return Err(SatResult::Unknown(Unknown::TooLarge(why)));
        }
        let values = all.values;
        Ok(Model {
            values,
            ..Model::default()
        })
    }

    /// A model of one component, for all its symbols.
    fn part_model(&mut self, part: &[Term]) -> Result<Rc<Model>, SatResult> {
        let key = self.caching.then(|| Key::new(part));
        if let Some(m) = key
            .as_ref()
            .and_then(|k| self.cache.model(std::borrow::Borrow::borrow(k)))
        {
            self.stats.cache_hits += 1;
            return Ok(m.clone());
        }
        // (the conjuncts' symbols are memoised: a deep path's recur at every leaf)
        let mut syms = BTreeSet::new();
        for t in part {
            syms.extend(self.vars.vars(t).iter().cloned());
        }
        let syms: Vec<Sym> = syms.into_iter().collect();
        if self.isolation.wanted(part) {
            let m = Rc::new(self.isolated_model(part, &syms)?);
            if let Some(k) = key {
                self.cache.insert_model(k, m.clone());
            }
            return Ok(m);
        }
        // Deep components start from the last model, repaired (`refute/derive.rs`): a
        // model of `part` found without Z3, so `part` is not checked (the minimisation
        // asks Z3 only if a probe needs it).
        let mut derived = self
            .seed
            .as_deref()
            .filter(|_| self.minimize && part.len() >= self.derive_from)
            .and_then(|seed| {
                let refuter = refute::Refuter::new(part);
                // (a neighbouring leaf's component: mostly the same conjuncts, first)
                let known = part
                    .iter()
                    .zip(&self.seed_part)
                    .take_while(|(a, b)| a == b)
                    .count();
                Some((refuter.derive_known(seed, &syms, known)?, refuter))
            });
        // A folded component (quantifiers): its first model built and its probes answered
        // without quantifiers where a width bound makes that exact (`solver/bounded.rs`).
        let limit = self.minimize_within.unwrap_or_else(minimize_budget);
        let budget = self.inc.budget().map_or(limit, |b| b.min(limit));
        let mut bounded = if self.minimize {
            bounded::Bounded::new(part)
        } else {
            None
        };
        if let (None, Some(b)) = (&derived, bounded.as_mut()) {
            let start = Instant::now();
            derived = self
                .inc
                .construct(b, part, &syms, budget)
                .map(|m| (m, refute::Refuter::new(part)));
            self.stats.z3_time += start.elapsed();
        }
        if derived.is_none() {
            let r = self.solve(part);
            if r != SatResult::Sat {
                return Err(r);
            }
        }
        let start = Instant::now();
        let m = if self.minimize {
            let lazy = self.inc.lazy_checks;
            let m = self
                .inc
                .minimal_model(part, &syms, budget, derived, bounded.as_mut());
            // A model from the quantifier-free form is a model: checked all the same by
            // evaluation, and where that does not say `True` (a read out of range that the
            // path condition leaves free evaluates to nothing), found again as before.
            let unchecked = bounded.as_ref().is_some_and(|b| b.gave_model)
                && !m.as_ref().is_some_and(|m| bounded::satisfies(m, part));
            let m = if unchecked && self.solve(part) == SatResult::Sat {
                self.inc.minimal_model(part, &syms, budget, None, None)
            } else {
                m
            };
            self.stats.z3_calls += self.inc.lazy_checks - lazy;
            // (Z3's stack may hold other conjuncts now.)
            self.z3_same = 0;
            m
        } else {
            let _armed = self.inc.arm(self.inc.budget());
            self.inc.model(&syms)
        };
        self.stats.z3_time += start.elapsed();
        let Some(m) = m else {
            return Err(SatResult::Unknown(if self.inc.cancelled() {
                Unknown::Interrupted
            } else {
                Unknown::Other("no model".into())
            }));
        };
        let m = Rc::new(m);
        self.seed = Some(m.clone());
        self.seed_part = part.to_vec();
        if let Some(k) = key {
            self.cache.insert_model(k, m.clone());
        }
        Ok(m)
    }
}

fn m_default(s: &Sym) -> ConcreteValue {
    ConcreteValue::default_of(s.sort.to_type())
}
