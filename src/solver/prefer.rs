//! `testgen`'s preference checks, answered with what earlier ones of the same path
//! condition found (issue 31's cost).
//!
//! A discriminating model (`engine/discriminate.rs`) asks, for one leaf's path condition
//! `pc`, whether `pc ∧ S` is satisfiable for many sets `S` of preferences: all of them,
//! then a greedy sequence of growing sets, and again for the boundary tests and the
//! second count, each set differing from earlier ones in a term or two. Asked one by one
//! (`Solver::check_folded`), each folded question built a fresh solver, translated the
//! path condition and expanded its quantifiers again: the discriminating tests made
//! `testgen` 3.7 times slower. [`Prefer`] keeps, for the last path condition asked about:
//! - the models found so far (each checked by evaluation to satisfy `pc`): `pc ∧ S` is
//!   satisfiable when one of them makes every term of `S` true (evaluation, no solver);
//! - the sets known unsatisfiable with `pc` (the cores of earlier answers): `pc ∧ S` is
//!   unsatisfiable when `S` contains one;
//! - for a folded path condition, one [`Bounded`] for `pc` (its solver, translation and
//!   expansions kept between the questions; `S` is asserted in a push frame), which also
//!   names the preferences an `unsat` of the quantifier-free conjuncts needs (a core).
//!
//! Every answer is the one the solver gives for `pc ∧ S` (a model proves `sat`, a core's
//! `unsat` implies its supersets'), so the preferences kept, and the model then found for
//! them (`Solver::try_model`, not cached here), are the same as when each set was asked
//! on its own. Only a question the solver could not decide (a budget ran out) may now be
//! answered.

use std::collections::BTreeSet;
use std::time::Instant;

use super::bounded::{satisfies, Bounded, Decided};
use super::work::Work;
use super::{minimize_budget, with_watchdog, SatResult, Solver};
use crate::term::{Model, Sym, Term};

/// The environment variable that turns the reuse off (`0`): every preference question
/// is then asked on its own ([`Solver::check_folded`]), as before; for the test that
/// compares the two (tests/it/testgen_cost.rs).
pub const PREFER_REUSE_VAR: &str = "SYMDBG_PREFER_REUSE";

/// Is the reuse on (unless [`PREFER_REUSE_VAR`] is `0`)?
fn prefer_reuse() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var(PREFER_REUSE_VAR).map_or(true, |v| v != "0"))
}

/// Models kept per path condition at most (each is evaluated for a question).
const MODELS_LIMIT: usize = 16;

/// Unsatisfiable sets kept per path condition at most.
const CORES_LIMIT: usize = 64;

/// What the preference checks of one path condition found (module doc).
#[derive(Default)]
pub(super) struct Prefer {
    pc: Vec<Term>,
    /// The path condition's [`Bounded`], once made (`None` inside: it has no quantifier).
    bounded: Option<Option<Bounded>>,
    models: Vec<Model>,
    cores: Vec<Vec<Term>>,
    /// Questions answered by a model, by a core, and by the solver (tests, statistics).
    pub(super) by_model: u64,
    pub(super) by_core: u64,
    pub(super) asked: u64,
}

impl Prefer {
    /// Start over when `pc` is not the path condition of the last question.
    fn on(&mut self, pc: &[Term]) {
        if self.pc != pc {
            *self = Prefer {
                pc: pc.to_vec(),
                by_model: self.by_model,
                by_core: self.by_core,
                asked: self.asked,
                ..Prefer::default()
            };
        }
    }

    /// The answer that what is known gives for `pc ∧ extra`, if any.
    fn known(&mut self, extra: &[Term]) -> Option<SatResult> {
        if self
            .cores
            .iter()
            .any(|c| c.iter().all(|t| extra.contains(t)))
        {
            self.by_core += 1;
            return Some(SatResult::Unsat);
        }
        if self.models.iter().any(|m| satisfies(m, extra)) {
            self.by_model += 1;
            return Some(SatResult::Sat);
        }
        None
    }

    /// Keep `m` if it is a model of the path condition (the newest first).
    fn add_model(&mut self, m: Model) {
        if !satisfies(&m, &self.pc) {
            return;
        }
        self.models.insert(0, m);
        self.models.truncate(MODELS_LIMIT);
    }

    fn add_core(&mut self, core: Vec<Term>) {
        if self.cores.len() < CORES_LIMIT {
            self.cores.push(core);
        }
    }
}

impl Solver {
    /// Is `pc ∧ extra` satisfiable? The answer of [`Solver::check_folded`] on their
    /// conjunction, found with what the earlier questions about the same `pc` found
    /// (`solver/prefer.rs`): for `testgen`'s preference checks (`engine/discriminate.rs`),
    /// which ask about one path condition with many sets of preferences in a row.
    pub fn check_preferring(&mut self, pc: &[Term], extra: &[Term]) -> SatResult {
        let whole = || -> Vec<Term> { pc.iter().chain(extra).cloned().collect() };
        if !self.minimize || !prefer_reuse() || extra.iter().any(Term::has_quantifier) {
            return self.check_folded(&whole());
        }
        self.prefer.on(pc);
        if self.prefer.bounded.is_none() {
            self.prefer.bounded = Some(Bounded::new(pc));
        }
        if matches!(self.prefer.bounded, Some(None)) {
            // No quantifier: the incremental solver answers, as before. (Its answers are
            // quick, and the minimal model found next depends on the checks it made: one
            // question fewer may change which of the equally small models it gives.)
            return self.check(&whole());
        }
        if let Some(r) = self.prefer.known(extra) {
            return r;
        }
        self.prefer.asked += 1;
        let Some(Some(b)) = self.prefer.bounded.as_mut() else {
            return self.check_folded(&whole());
        };
        let limit = self.minimize_within.unwrap_or_else(minimize_budget);
        let budget = self.inc.budget().map_or(limit, |l| l.min(limit));
        let mut syms = BTreeSet::new();
        pc.iter().chain(extra).for_each(|t| t.vars(&mut syms));
        let syms: Vec<Sym> = syms.into_iter().collect();
        let start = Instant::now();
        let inc = &self.inc;
        let decided = with_watchdog(|| b.decide_with(extra, &syms, &mut Work::new(budget), inc));
        self.stats.z3_time += start.elapsed();
        match decided {
            Some(Decided::Sat(m)) if satisfies(&m, extra) && satisfies(&m, pc) => {
                self.stats.checks += 1;
                self.stats.z3_calls += 1;
                self.prefer.add_model(m);
                SatResult::Sat
            }
            Some(Decided::Unsat(core)) => {
                self.stats.checks += 1;
                self.stats.z3_calls += 1;
                self.prefer
                    .add_core(core.into_iter().map(|i| extra[i].clone()).collect());
                SatResult::Unsat
            }
            _ => {
                let r = self.check(&whole());
                if r == SatResult::Unsat {
                    self.prefer.add_core(extra.to_vec());
                }
                r
            }
        }
    }

    /// A model of `pc` and some preferences (`Solver::try_model`'s): the questions about
    /// `pc` that come after may be answered by it ([`Solver::check_preferring`]).
    pub fn note_preferred_model(&mut self, pc: &[Term], m: &Model) {
        if self.prefer.pc == pc {
            self.prefer.add_model(m.clone());
        }
    }

    /// Preference questions answered by a model, by a core, and asked of the solver
    /// ([`Solver::check_preferring`]).
    pub fn preference_counts(&self) -> (u64, u64, u64) {
        (self.prefer.by_model, self.prefer.by_core, self.prefer.asked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Sort;

    /// A folded path condition: `0 <= κ < len(t)`, `all(t[τ] % 2 != 0 for τ in
    /// range(0, κ))` and `len(t) <= 6` (the widths bounded, so the bounded form decides).
    fn folded() -> (Vec<Term>, Term, Term) {
        let t = Term::var(Sym::new("t", Sort::Seq));
        let k = Term::var(Sym::new("κ1", Sort::Int));
        let tau = Sym::new("τ1", Sort::Int);
        let odd = Term::ne(
            Term::modulo(Term::index(t.clone(), Term::var(tau.clone())), Term::int(2)),
            Term::int(0),
        );
        let pc = vec![
            Term::ge(k.clone(), Term::int(0)),
            Term::lt(k.clone(), Term::len(t.clone())),
            Term::le(Term::len(t.clone()), Term::int(6)),
            Term::forall(tau, Term::int(0), k.clone(), odd),
        ];
        (pc, t, k)
    }

    /// The preference sets `testgen` asks about in a row: all at once, then growing sets.
    fn questions(t: &Term, k: &Term) -> Vec<Vec<Term>> {
        let e = |i: i64| Term::index(t.clone(), Term::int(i));
        let prefs = [
            Term::ge(k.clone(), Term::int(1)),
            Term::ne(e(0), Term::int(0)),
            // (unsatisfiable with the path: t[0] is odd once κ >= 1)
            Term::eq(Term::modulo(e(0), Term::int(2)), Term::int(0)),
            Term::eq(Term::len(t.clone()), Term::int(2)),
            Term::lt(e(0), Term::int(0)),
            Term::gt(e(1), Term::int(0)),
            Term::ge(k.clone(), Term::int(7)),
        ];
        let mut out = vec![prefs.to_vec()];
        for n in 1..=prefs.len() {
            out.push(prefs[..n].to_vec());
            // (a set without the clashing preference, and one with the other after it)
            let mut skip: Vec<Term> = prefs[..n].to_vec();
            skip.retain(|p| p != &prefs[2]);
            out.push(skip);
        }
        out
    }

    /// Each answer is the one the solver gives for the conjunction asked on its own, and
    /// the repeated questions (a superset of an unsatisfiable set, a set an earlier model
    /// satisfies) are answered without the solver.
    #[test]
    fn preference_answers_are_the_solvers_and_repeats_cost_no_solver_call() {
        let (pc, t, k) = folded();
        let qs = questions(&t, &k);
        let mut alone = Solver::new(super::super::SolverConfig::default());
        let mut reusing = Solver::new(super::super::SolverConfig::default());
        let mut answers = (0, 0);
        for q in &qs {
            let whole: Vec<Term> = pc.iter().chain(q).cloned().collect();
            let want = alone.check_folded(&whole);
            assert_ne!(want, SatResult::Unknown(super::super::Unknown::Timeout));
            assert_eq!(reusing.check_preferring(&pc, q), want, "{q:?}");
            match want {
                SatResult::Sat => answers.0 += 1,
                _ => answers.1 += 1,
            }
        }
        assert!(answers.0 >= 4 && answers.1 >= 4, "{answers:?}");
        let (by_model, by_core, asked) = reusing.preference_counts();
        assert_eq!(by_model + by_core + asked, qs.len() as u64);
        assert!(
            by_model >= 2 && by_core >= 4,
            "{:?}",
            reusing.preference_counts()
        );
        // Asked again, every question is answered by what the first round found.
        let calls = reusing.stats().z3_calls;
        for q in &qs {
            let whole: Vec<Term> = pc.iter().chain(q).cloned().collect();
            assert_eq!(reusing.check_preferring(&pc, q), alone.check_folded(&whole));
        }
        assert_eq!(reusing.stats().z3_calls, calls);
        // Another path condition starts afresh (its answers are its own).
        let mut other = pc.clone();
        other.push(Term::ge(k.clone(), Term::int(3)));
        let q = vec![Term::eq(Term::len(t.clone()), Term::int(2))];
        assert_eq!(reusing.check_preferring(&other, &q), SatResult::Unsat);
        assert_eq!(reusing.check_preferring(&pc, &q), SatResult::Sat);
    }
}
