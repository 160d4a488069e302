//! The Z3 solver used incrementally: one push frame per asserted conjunct.
//!
//! The engine explores the tree depth-first, so consecutive queries are path conditions
//! that share a long prefix (a child's is its parent's plus one conjunct; a sibling's
//! differs in the last one). [`Incremental::check`] keeps the conjuncts currently asserted
//! on a stack, pops back to the longest common prefix with the new query and pushes only
//! the rest, so Z3 keeps what it learnt about the prefix.
//!
//! Every assertion sits inside a push frame, which keeps Z3 in its incremental mode (the
//! SMT core) for every check. This matters with Z3 4.8.12: with a `timeout` set, its
//! non-incremental mode (the tactic pipeline, e.g. for nonlinear integer arithmetic) can
//! deadlock in `scoped_timer` (Z3 PR #5371) — a 1 ms limit on `x*x == y*y + 17` hangs
//! forever there, while the incremental mode answers `sat` in 2 ms and honours timeouts.
//!
//! Time limits are enforced from outside Z3 (`interrupt.rs`: the watchdog interrupts the
//! context at the deadline), not with Z3's `timeout` parameter. Z3's own Ctrl-C handler is
//! off (`ctrl_c=false`): it would turn a Ctrl-C into an `unknown` and the run would go on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::model;
use super::translate::Translator;
use super::{SatResult, Unknown};
use crate::term::Model;
use crate::term::{Sym, Term};

/// Fresh solvers (random seeds) to try after "(incomplete quantifiers)".
const RETRY_SEEDS: u32 = 3;

/// Drop the translation memo beyond this many entries (it only saves time).
const MEMO_LIMIT: usize = 200_000;

/// A fresh Z3 solver with symdbg's parameters (`seed`: Z3's random seed, 0 its default).
pub(super) fn new_z3(seed: u32) -> z3::Solver {
    let z3 = z3::Solver::new();
    let mut p = z3::Params::new();
    p.set_bool("ctrl_c", false);
    if seed != 0 {
        p.set_u32("random_seed", seed);
    }
    z3.set_params(&p);
    z3
}

pub struct Incremental {
    pub(super) z3: z3::Solver,
    /// The conjuncts asserted, one push frame each, outermost first.
    stack: Vec<Term>,
    tr: Translator,
    timeout: Option<u64>,
    /// Reuse the common prefix (off: re-assert everything, for experiments).
    pub reuse: bool,
    /// Push frames created and popped (for the statistics and tests).
    pub pushes: u64,
    pub pops: u64,
    /// See [`super::Solver::set_cancel`].
    pub cancel: Option<Arc<AtomicBool>>,
    /// The solver of a successful [`retry`](Self::retry) after the last check.
    pub(super) retried: Option<z3::Solver>,
    /// Minimal models that started from a derived model instead of Z3's (see
    /// `refute/derive.rs`).
    pub derived: u64,
    /// Checks asked again of a fresh solver after a timeout ([`Self::fresh_retry`]).
    pub fresh_retries: u64,
    /// Checks a minimisation from a derived model made when a probe first needed Z3
    /// (see `minimize.rs`; counted as Z3 calls).
    pub lazy_checks: u64,
}

impl Incremental {
    pub fn new(timeout_ms: Option<u64>) -> Incremental {
        Incremental {
            z3: new_z3(0),
            stack: Vec::new(),
            tr: Translator::default(),
            timeout: timeout_ms,
            reuse: true,
            pushes: 0,
            pops: 0,
            cancel: None,
            retried: None,
            derived: 0,
            fresh_retries: 0,
            lazy_checks: 0,
        }
    }

    /// Make the asserted conjuncts exactly `terms` (in order), reusing the common prefix.
    /// The caller vouches that the first `same` of `terms` are asserted already (see
    /// [`Incremental::check_from`]): only the rest is compared.
    fn sync(&mut self, terms: &[Term], same: usize) {
        let same = if self.reuse {
            same.min(self.stack.len()).min(terms.len())
        } else {
            0
        };
        debug_assert!(self.stack[..same] == terms[..same], "a wrong prefix hint");
        let common = same
            + self.stack[same..]
                .iter()
                .zip(&terms[same..])
                .take_while(|(a, b)| self.reuse && a == b)
                .count();
        let extra = self.stack.len() - common;
        if extra > 0 {
            self.z3
                .pop(u32::try_from(extra).expect("fewer than 2^32 frames"));
            self.stack.truncate(common);
            self.pops += extra as u64;
        }
        if self.tr.memo_len() > MEMO_LIMIT {
            self.tr.clear_memo();
        }
        for t in &terms[common..] {
            let b = self.tr.conjunct(t);
            self.z3.push();
            self.z3.assert(&b);
            self.stack.push(t.clone());
            self.pushes += 1;
        }
    }

    /// Is the conjunction of `terms` satisfiable? Also returns the time spent in Z3.
    pub fn check(&mut self, terms: &[Term]) -> (SatResult, Duration) {
        self.check_from(terms, 0)
    }

    /// [`Incremental::check`], where the caller knows that the first `same` conjuncts of
    /// `terms` are those asserted by the last check (a long path condition's prefix: not
    /// compared again, which would cost a walk of the whole path per check).
    pub fn check_from(&mut self, terms: &[Term], same: usize) -> (SatResult, Duration) {
        let start = Instant::now();
        self.retried = None;
        self.sync(terms, same);
        let armed = self.arm(self.budget());
        let answer = self.z3.check();
        let r = match answer {
            z3::SatResult::Sat => SatResult::Sat,
            z3::SatResult::Unsat => SatResult::Unsat,
            z3::SatResult::Unknown => {
                let reason = self.z3.get_reason_unknown().unwrap_or_default();
                // An interrupted check answers "canceled" or whatever the interrupted theory
                // says ("(incomplete (theory arithmetic))"): judge by the flag and the clock.
                if self.cancelled() {
                    SatResult::Unknown(Unknown::Interrupted)
                } else if armed.late() || reason.contains("timeout") || reason == "canceled" {
                    SatResult::Unknown(Unknown::Timeout)
                } else if let Some(r) = self.retry(terms, &reason, armed.started()) {
                    r
                } else if reason.is_empty() {
                    SatResult::Unknown(Unknown::Other("unknown".into()))
                } else {
                    SatResult::Unknown(Unknown::Other(reason))
                }
            }
        };
        drop(armed);
        let r = match r {
            SatResult::Unknown(Unknown::Timeout) => self.fresh_retry(terms).unwrap_or(r),
            r => r,
        };
        (r, start.elapsed())
    }

    /// For experiments (`benches/solver_dfs.rs --limits`): also give Z3 its own `timeout`
    /// parameter, as symdbg did before the watchdog, to measure what its timer costs.
    pub fn set_z3_timer(&mut self, on: bool) {
        let mut p = z3::Params::new();
        let ms = self.timeout.filter(|_| on).unwrap_or(u64::from(u32::MAX));
        p.set_u32("timeout", u32::try_from(ms).unwrap_or(u32::MAX));
        self.z3.set_params(&p);
    }

    /// The time limit of one call (`None`: none).
    pub fn budget(&self) -> Option<Duration> {
        self.timeout.map(Duration::from_millis)
    }

    /// Arm the watchdog for one Z3 call of at most `budget`.
    pub fn arm(&self, budget: Option<Duration>) -> super::interrupt::Armed {
        super::interrupt::arm(budget, self.cancel.as_ref())
    }

    /// Is the cancel flag set?
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Z3's quantifier instantiation depends on the order in which terms were created in
    /// the context, so "(incomplete quantifiers)" can go away in a fresh solver with another
    /// random seed. Try a few within the time left; keep the solver that answered (its model
    /// is the one [`model`](Self::model) reads).
    fn retry(&mut self, terms: &[Term], reason: &str, started: Instant) -> Option<SatResult> {
        if !reason.contains("quantifiers") {
            return None;
        }
        let asserted: Vec<z3::ast::Bool> = terms.iter().map(|t| self.tr.conjunct(t)).collect();
        for seed in 1..=RETRY_SEEDS {
            let left = match self.budget() {
                Some(b) => Some(b.checked_sub(started.elapsed())?),
                None => None,
            };
            let z3 = new_z3(seed);
            // Inside a push frame, as in `sync` (Z3 4.8.12's incremental mode).
            z3.push();
            for b in &asserted {
                z3.assert(b);
            }
            let armed = self.arm(left);
            let answer = z3.check();
            let late = armed.late();
            drop(armed);
            if self.cancelled() {
                return Some(SatResult::Unknown(Unknown::Interrupted));
            }
            if late {
                return None;
            }
            match answer {
                z3::SatResult::Sat => {
                    self.retried = Some(z3);
                    return Some(SatResult::Sat);
                }
                z3::SatResult::Unsat => return Some(SatResult::Unsat),
                z3::SatResult::Unknown => {}
            }
        }
        None
    }

    /// A check that ran out of time is asked once more of a fresh solver (Z3's default
    /// seed) with the whole budget again: what Z3 learnt on earlier queries of this
    /// solver, which can make one query slow, is not there (issue 31: `check --jobs N`'s
    /// workers have other histories than the one-thread run, and a query one of them
    /// timed out on was answered at once by the other). `None`: it ran out of time too,
    /// or was cancelled (the caller's answer stands). A solver that answered becomes this
    /// one (one push frame per conjunct, as `sync` makes them), so models are read and
    /// minimised on it as after any check.
    fn fresh_retry(&mut self, terms: &[Term]) -> Option<SatResult> {
        if self.cancelled() {
            return None;
        }
        self.fresh_retries += 1;
        let asserted: Vec<z3::ast::Bool> = terms.iter().map(|t| self.tr.conjunct(t)).collect();
        let z3 = new_z3(0);
        // One push frame per conjunct, as in `sync` (Z3 4.8.12's incremental mode).
        for b in &asserted {
            z3.push();
            z3.assert(b);
        }
        let armed = self.arm(self.budget());
        let answer = z3.check();
        let late = armed.late();
        drop(armed);
        if self.cancelled() {
            return Some(SatResult::Unknown(Unknown::Interrupted));
        }
        let r = match answer {
            _ if late => return None,
            z3::SatResult::Sat => SatResult::Sat,
            z3::SatResult::Unsat => SatResult::Unsat,
            z3::SatResult::Unknown => return None,
        };
        debug_assert!(self.stack == terms, "sync asserted the terms");
        self.z3 = z3;
        Some(r)
    }

    /// After a `Sat` answer of [`check`](Self::check): the values of `syms`.
    pub fn model(&self, syms: &[Sym]) -> Option<Model> {
        let m = self.retried.as_ref().unwrap_or(&self.z3).get_model()?;
        Some(model::decode(&m, syms))
    }

    /// The conjuncts currently asserted.
    #[cfg(test)]
    pub fn asserted(&self) -> &[Term] {
        &self.stack
    }
}
