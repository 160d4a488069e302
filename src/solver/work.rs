//! The work budget of one minimisation, in Z3's resource units ([`Work`]).

use std::time::{Duration, Instant};

use super::incremental::Incremental;

/// Z3 resource units ("rlimit") that one minimisation may spend per millisecond of its
/// budget. Measured on the folded parity loop (tests/data/mutation/parity_sum.py): Z3
/// 4.8.12 counts 100–150 units per millisecond of wall-clock time at load 13 on two
/// cores, i.e. about 500 per millisecond of one whole core.
const UNITS_PER_MS: u64 = 400;

/// How many times its budget a minimisation may run on the wall clock (a guard against a
/// call that ignores the resource limit; see `interrupt.rs`).
const GUARD_FACTOR: u32 = 40;

/// What one minimisation may still spend. The budget is counted in Z3's resource units,
/// not in time: the same queries get the same answers whatever the machine's load, so a
/// model (and a test written from it) does not depend on how busy the machine was. The
/// wall clock only guards against a call that would not stop.
pub(super) struct Work {
    units: u64,
    guard: Instant,
    /// Z3's resource count after the last check (what ran between two checks, asserting
    /// and reading models, is counted with the next one).
    count: Option<u64>,
}

impl Work {
    pub(super) fn new(budget: Duration) -> Work {
        let ms = u64::try_from(budget.as_millis()).unwrap_or(u64::MAX);
        Work {
            units: ms.saturating_mul(UNITS_PER_MS),
            guard: Instant::now() + budget * GUARD_FACTOR,
            count: None,
        }
    }

    /// Nothing left to spend?
    pub(super) fn spent(&self) -> bool {
        self.units == 0 || Instant::now() >= self.guard
    }

    /// Check what is asserted with what is left; `None` when nothing is left.
    pub(super) fn check(&mut self, inc: &mut Incremental) -> Option<z3::SatResult> {
        self.check_on(&inc.z3, inc)
    }

    /// [`Work::check`] of another solver of the same context (`bounded.rs`'s).
    pub(super) fn check_on(&mut self, z3: &z3::Solver, inc: &Incremental) -> Option<z3::SatResult> {
        self.check_assuming(z3, inc, &[])
    }

    /// [`Work::check_on`] under `assumptions` (literals; `get_unsat_core` names those an
    /// `unsat` needs).
    pub(super) fn check_assuming(
        &mut self,
        z3: &z3::Solver,
        inc: &Incremental,
        assumptions: &[z3::ast::Bool],
    ) -> Option<z3::SatResult> {
        if self.spent() {
            return None;
        }
        let before = match self.count {
            Some(n) => n,
            None => resource_count(z3),
        };
        let mut p = z3::Params::new();
        p.set_u32("rlimit", u32::try_from(self.units).unwrap_or(u32::MAX));
        z3.set_params(&p);
        #[cfg(test)]
        std::thread::sleep(SLOW_CHECKS.with(|d| d.get()));
        let armed = inc.arm(self.guard.checked_duration_since(Instant::now()));
        let answer = if assumptions.is_empty() {
            z3.check()
        } else {
            z3.check_assumptions(assumptions)
        };
        drop(armed);
        let after = resource_count(z3);
        self.count = Some(after);
        self.units = self
            .units
            .saturating_sub(after.saturating_sub(before).max(1));
        Some(answer)
    }

    /// Lift the resource limit from the solver again.
    pub(super) fn done(&self, inc: &mut Incremental) {
        if self.count.is_some() {
            let mut p = z3::Params::new();
            p.set_u32("rlimit", 0);
            inc.z3.set_params(&p);
        }
    }
}

#[cfg(test)]
thread_local! {
    /// A pause before each minimisation check: a busy machine, for tests.
    pub(super) static SLOW_CHECKS: std::cell::Cell<Duration> =
        const { std::cell::Cell::new(Duration::ZERO) };
}

/// Z3's resource count of `z3`'s context (it only grows).
fn resource_count(z3: &z3::Solver) -> u64 {
    match z3.get_statistics().value("rlimit count") {
        Some(z3::StatisticsValue::UInt(n)) => u64::from(n),
        Some(z3::StatisticsValue::Double(d)) => d as u64,
        None => 0,
    }
}
