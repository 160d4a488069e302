//! Quantifier-free answers for a folded path's model queries (issues 30, 31).
//!
//! A folded loop's path condition holds quantifiers `all(P(τ) for τ in range(lo, hi))`
//! with symbolic bounds (`range(0, κ2)`). Z3 decides such formulas by instantiation, and
//! the checks a leaf's model needs (the first model, the minimiser's probes `len(t) <= k`)
//! took seconds each below three or four folds: the parity loop's `run --json` took a
//! minute, and how far a check got before the time limit depended on the machine's load.
//!
//! Under a bound `hi - lo <= n` the quantifier is the finite conjunction of
//! `lo + c < hi => P(lo + c)` for `c = 0 .. n-1` (an `any` the disjunction of
//! `lo + c < hi and P(lo + c)`): exactly equivalent, and quantifier-free. [`Bounded`]
//! holds a component's conjuncts in a fresh Z3 solver in two forms, the conjuncts without
//! quantifiers (`qf`, a weakening of the component) and, per `n`, the expansion of the
//! quantified ones, and answers a query `component ∧ kept ∧ probe` in two ways:
//! - **construction** ([`Incremental::construct`]): `expansion_n ∧ widths <= n` for
//!   `n = 1, 2, 4, ..., 64` until one is satisfiable. Its model satisfies every width
//!   bound, so the expansion is exact for it: it is a model of the component, and it is
//!   checked by evaluation ([`Model::eval`]) before it is used. No quantifier reaches Z3.
//! - **probes** ([`Bounded::probe`]): first `qf ∧ kept ∧ probe ∧ some width > n`. If that is
//!   unsatisfiable, every model of `component ∧ kept ∧ probe` (a model of the weaker `qf`
//!   too) has all widths at most `n`, so `component ∧ kept ∧ probe` is equivalent to
//!   `qf ∧ expansion_n ∧ kept ∧ probe`: its answer, `sat` with a model or `unsat`, is the
//!   one Z3 would give on the quantified query. Otherwise (the bound is not implied) the
//!   probe is left to the quantified query, as before. On a fold over a tuple, `κ < len(t)`
//!   is in `qf`, so once a length is bounded every probe is answered here.
//!
//! A quantifier nested in another's body is expanded inside each instance (its bounds then
//! mention the outer instance's position); its width bound is required only where the
//! instance is active (`lo + c < hi`). A quantifier over a constant range is expanded over
//! that range. Expansions past [`INSTANCE_LIMIT`] instances are not made (the quantified
//! query answers).
//!
//! Every check is counted in Z3's resource units from the minimisation's budget
//! (`minimize.rs`, [`Work`]): the answers do not depend on the machine's load or on the
//! per-call time limit (`--timeout-ms`).

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_traits::ToPrimitive;
use z3::ast::Bool;

use super::incremental::{new_z3, Incremental};
use super::model::decode;
use super::translate::Translator;
use super::work::Work;
use super::SatResult;
use crate::concrete::Value;
use crate::term::features::split_parts;
use crate::term::{Model, Sym, Term, TermKind as K};

/// The largest width bound `n` an expansion is made for.
pub(super) const EXPAND_LIMIT: u64 = 64;

/// The most instances (of all quantifiers, nested ones included) one expansion may have.
const INSTANCE_LIMIT: usize = 4096;

/// The first width bound [`Incremental::construct`] tries; each next one doubles it.
const CONSTRUCT_FROM: u64 = 1;

/// A component's conjuncts, quantifier-free where a width bound allows (module doc).
pub(super) struct Bounded {
    /// The component's conjuncts that hold quantifiers (split at their `and`s).
    quantified: Vec<Term>,
    z3: z3::Solver,
    tr: Translator,
    /// Per width bound `n`: the expansion and "some width exceeds `n`", or `None` when
    /// there is no expansion for it (too many instances).
    expansions: BTreeMap<u64, Option<(Bool, Bool)>>,
    /// Probes answered here (tests and statistics).
    pub(super) answered: u64,
    /// Did a model come from this solver (construction or a `sat` probe)?
    pub(super) gave_model: bool,
}

/// What [`Bounded::probe`] found.
pub(super) enum Probe {
    Sat(z3::Model),
    Unsat,
}

impl Bounded {
    /// `None` when no conjunct of `part` holds a quantifier (nothing to expand).
    pub(super) fn new(part: &[Term]) -> Option<Bounded> {
        // (each term knows whether it holds one: no walk over a deep path's conjuncts)
        if !part.iter().any(Term::has_quantifier) {
            return None;
        }
        let mut qf = Vec::new();
        let mut quantified = Vec::new();
        for (_, p) in split_parts(part) {
            if p.has_quantifier() {
                quantified.push(p);
            } else {
                qf.push(p);
            }
        }
        if quantified.is_empty() {
            return None;
        }
        let z3 = new_z3(0);
        let mut tr = Translator::default();
        // Every assertion inside a push frame (Z3 4.8.12's incremental mode, see
        // `incremental.rs`).
        z3.push();
        for p in &qf {
            z3.assert(tr.conjunct(p));
        }
        Some(Bounded {
            quantified,
            z3,
            tr,
            expansions: BTreeMap::new(),
            answered: 0,
            gave_model: false,
        })
    }

    /// Keep `b` asserted for the rest of the minimisation.
    pub(super) fn keep(&mut self, b: &Bool) {
        self.z3.assert(b);
    }

    /// The expansion for width bound `n` and "some width exceeds `n`" (made once).
    fn expansion(&mut self, n: u64) -> Option<(Bool, Bool)> {
        if let Some(e) = self.expansions.get(&n) {
            return e.clone();
        }
        let mut x = Expander {
            n,
            instances: 0,
            wide: Vec::new(),
        };
        let expanded: Option<Vec<Term>> =
            self.quantified.iter().map(|q| x.expand(q, &[])).collect();
        let e = expanded.map(|parts| {
            let formula: Vec<Bool> = parts.iter().map(|p| self.tr.conjunct(p)).collect();
            let wide = Term::or_all(std::mem::take(&mut x.wide));
            (
                Bool::and(&formula.iter().collect::<Vec<_>>()),
                self.tr.conjunct(&wide),
            )
        });
        self.expansions.insert(n, e.clone());
        e
    }

    /// Is `kept ∧ probe` (with the component) satisfiable, answered without quantifiers
    /// for the first of `scales` (width bounds) the asserted conjuncts imply? `None`: no
    /// such bound, out of budget, or undecided (the quantified query is to answer).
    pub(super) fn probe(
        &mut self,
        probe: &Bool,
        scales: &[u64],
        work: &mut Work,
        inc: &Incremental,
    ) -> Option<Probe> {
        let mut tried = Vec::new();
        for &n in scales {
            let n = n.clamp(1, EXPAND_LIMIT);
            if tried.contains(&n) {
                continue;
            }
            tried.push(n);
            let Some((formula, wide)) = self.expansion(n) else {
                continue;
            };
            // Does what is asserted bound every width by `n`?
            self.z3.push();
            self.z3.assert(probe);
            self.z3.assert(&wide);
            let implied = work.check_on(&self.z3, inc);
            self.z3.pop(1);
            match implied? {
                z3::SatResult::Unsat => {}
                z3::SatResult::Sat => continue,
                z3::SatResult::Unknown => return None,
            }
            self.z3.push();
            self.z3.assert(probe);
            self.z3.assert(&formula);
            let answer = work.check_on(&self.z3, inc);
            let found = match answer {
                Some(z3::SatResult::Sat) => self.z3.get_model().map(Probe::Sat),
                Some(z3::SatResult::Unsat) => Some(Probe::Unsat),
                _ => None,
            };
            self.z3.pop(1);
            if found.is_some() {
                self.answered += 1;
                self.gave_model |= matches!(found, Some(Probe::Sat(_)));
            }
            return found;
        }
        None
    }

    /// A model of `expansion_n ∧ widths <= n` for the first `n` of 1, 2, 4, ..., 64 that
    /// has one (see the module doc), read for `syms`.
    fn construct(&mut self, syms: &[Sym], work: &mut Work, inc: &Incremental) -> Option<Model> {
        let mut n = CONSTRUCT_FROM;
        while n <= EXPAND_LIMIT {
            if let Some((formula, wide)) = self.expansion(n) {
                self.z3.push();
                self.z3.assert(&formula);
                self.z3.assert(wide.not());
                let answer = work.check_on(&self.z3, inc);
                let model = match answer {
                    Some(z3::SatResult::Sat) => self.z3.get_model().map(|z| decode(&z, syms)),
                    _ => None,
                };
                self.z3.pop(1);
                match answer {
                    Some(z3::SatResult::Sat) => return model,
                    Some(z3::SatResult::Unsat) => {}
                    _ => return None,
                }
            }
            n *= 2;
        }
        None
    }
}

/// What [`Bounded::decide_with`] found.
pub(super) enum Decided {
    /// A model of the expansion under a width bound (to be checked by evaluation).
    Sat(Model),
    /// Unsatisfiable; the indices of the extra terms it needs (all of them when the
    /// quantifier-free conjuncts alone do not refute them).
    Unsat(Vec<usize>),
}

impl Bounded {
    /// [`Incremental::decide_bounded`] of the component with `extra` (quantifier-free
    /// terms, asserted in a push frame and popped after): the same questions on a solver
    /// that keeps the component's conjuncts and expansions between calls (`prefer.rs`).
    /// First the quantifier-free conjuncts with `extra` under assumption literals: an
    /// `unsat` there (a weakening of the component) is the answer, with the extra terms
    /// its core needs. `None`: not decided here.
    pub(super) fn decide_with(
        &mut self,
        extra: &[Term],
        syms: &[Sym],
        work: &mut Work,
        inc: &Incremental,
    ) -> Option<Decided> {
        self.z3.push();
        let lits: Vec<Bool> = (0..extra.len())
            .map(|i| Bool::new_const(format!("pref!{i}")))
            .collect();
        for (l, e) in lits.iter().zip(extra) {
            self.z3.assert(l.implies(self.tr.conjunct(e)));
        }
        let found = match work.check_assuming(&self.z3, inc, &lits) {
            Some(z3::SatResult::Unsat) => {
                let core = self.z3.get_unsat_core();
                let mut ids: Vec<usize> = (0..lits.len())
                    .filter(|&i| core.iter().any(|c| c == &lits[i]))
                    .collect();
                if ids.is_empty() {
                    ids = (0..extra.len()).collect();
                }
                Some(Decided::Unsat(ids))
            }
            Some(z3::SatResult::Sat) => {
                for l in &lits {
                    self.z3.assert(l);
                }
                match self.construct(syms, work, inc) {
                    Some(m) => Some(Decided::Sat(m)),
                    None => match self.probe(&Bool::from_bool(true), &[EXPAND_LIMIT], work, inc) {
                        Some(Probe::Unsat) => Some(Decided::Unsat((0..extra.len()).collect())),
                        _ => None,
                    },
                }
            }
            _ => None,
        };
        self.z3.pop(1);
        found
    }
}

impl Incremental {
    /// Is `pc` satisfiable, decided without quantifiers: `Sat` when the construction
    /// finds a model of it (verified by evaluation), `Unsat` when its quantifier-free
    /// conjuncts bound every width by [`EXPAND_LIMIT`] and the expansion for that bound
    /// has no model. `None`: not decided here (no quantifier, the budget, no bound).
    pub(super) fn decide_bounded(
        &mut self,
        pc: &[Term],
        budget: std::time::Duration,
    ) -> Option<SatResult> {
        let mut b = Bounded::new(pc)?;
        let mut syms = std::collections::BTreeSet::new();
        pc.iter().for_each(|t| t.vars(&mut syms));
        let syms: Vec<Sym> = syms.into_iter().collect();
        let mut work = Work::new(budget);
        if let Some(m) = b.construct(&syms, &mut work, self) {
            return satisfies(&m, pc).then_some(SatResult::Sat);
        }
        match b.probe(&Bool::from_bool(true), &[EXPAND_LIMIT], &mut work, self)? {
            Probe::Unsat => Some(SatResult::Unsat),
            // (the construction would have found it)
            Probe::Sat(_) => None,
        }
    }

    /// A model of `part` built by [`Bounded`]'s construction (module doc) within `budget`,
    /// verified by evaluation; `None` if there is none up to the largest width bound, the
    /// budget runs out or (never expected) the evaluation disagrees.
    pub(super) fn construct(
        &mut self,
        bounded: &mut Bounded,
        part: &[Term],
        syms: &[Sym],
        budget: std::time::Duration,
    ) -> Option<Model> {
        let mut work = Work::new(budget);
        let m = bounded.construct(syms, &mut work, self)?;
        bounded.gave_model = true;
        satisfies(&m, part).then_some(m)
    }
}

/// Does every conjunct of `part` evaluate to `True` under `m`?
pub(super) fn satisfies(m: &Model, part: &[Term]) -> bool {
    part.iter()
        .all(|t| matches!(m.eval(t), Some(Value::Bool(true))))
}

/// Expands quantifiers under the width bound `n` (module doc).
struct Expander {
    n: u64,
    instances: usize,
    /// For each quantifier expanded over `n` positions: "active and wider than `n`".
    wide: Vec<Term>,
}

impl Expander {
    /// `t` with every quantifier expanded; `guards`: where the enclosing instances are
    /// active. `None` past [`INSTANCE_LIMIT`] or a constant range wider than it.
    fn expand(&mut self, t: &Term, guards: &[Term]) -> Option<Term> {
        if !t.has_quantifier() {
            return Some(t.clone());
        }
        match t.kind() {
            K::Forall(v, lo, hi, body) => return self.quantifier(true, (v, lo, hi, body), guards),
            K::Exists(v, lo, hi, body) => return self.quantifier(false, (v, lo, hi, body), guards),
            _ => {}
        }
        let mut go = |x: &Term| self.expand(x, guards);
        Some(match t.kind() {
            K::Forall(..) | K::Exists(..) => unreachable!("expanded above"),
            K::Int(_) | K::Bool(_) | K::Var(_) | K::SeqEmpty => t.clone(),
            K::Neg(a) => Term::neg(go(a)?),
            K::Add(a, b) => Term::add(go(a)?, go(b)?),
            K::Sub(a, b) => Term::sub(go(a)?, go(b)?),
            K::Mul(a, b) => Term::mul(go(a)?, go(b)?),
            K::FloorDiv(a, b) => Term::floor_div(go(a)?, go(b)?),
            K::Mod(a, b) => Term::modulo(go(a)?, go(b)?),
            K::Abs(a) => Term::abs(go(a)?),
            K::Min(a, b) => Term::min(go(a)?, go(b)?),
            K::Max(a, b) => Term::max(go(a)?, go(b)?),
            K::Not(a) => Term::not(go(a)?),
            K::And(xs) => Term::and_all(xs.iter().map(&mut go).collect::<Option<Vec<_>>>()?),
            K::Or(xs) => Term::or_all(xs.iter().map(&mut go).collect::<Option<Vec<_>>>()?),
            K::Ite(c, a, b) => Term::ite(go(c)?, go(a)?, go(b)?),
            K::Cmp(op, a, b) => Term::cmp(*op, go(a)?, go(b)?),
            K::SeqUnit(a) => Term::seq_unit(go(a)?),
            K::Concat(a, b) => Term::concat(go(a)?, go(b)?),
            K::Len(a) => Term::len(go(a)?),
            K::Index(a, b) => Term::index(go(a)?, go(b)?),
            K::Slice(a, lo, hi, step) => {
                let a = go(a)?;
                let lo = match lo {
                    Some(x) => Some(go(x)?),
                    None => None,
                };
                let hi = match hi {
                    Some(x) => Some(go(x)?),
                    None => None,
                };
                Term::slice(a, lo, hi, go(step)?)
            }
        })
    }

    fn quantifier(
        &mut self,
        forall: bool,
        (v, lo, hi, body): (&Sym, &Term, &Term, &Term),
        guards: &[Term],
    ) -> Option<Term> {
        let width = Term::sub(hi.clone(), lo.clone());
        let count = match width.as_int() {
            Some(w) if w <= &BigInt::from(0) => 0,
            Some(w) => w.to_u64().filter(|&w| w as usize <= INSTANCE_LIMIT)?,
            None => {
                let mut g = guards.to_vec();
                g.push(Term::gt(width, Term::int(self.n)));
                self.wide.push(Term::and_all(g));
                self.n
            }
        };
        let mut items = Vec::new();
        for c in 0..count {
            self.instances += 1;
            if self.instances > INSTANCE_LIMIT {
                return None;
            }
            let at = Term::add(lo.clone(), Term::int(c));
            let active = Term::lt(at.clone(), hi.clone());
            let mut g = guards.to_vec();
            g.push(active.clone());
            let inst = self.expand(&body.subst1(v, &at), &g)?;
            items.push(if forall {
                Term::implies(active, inst)
            } else {
                Term::and(active, inst)
            });
        }
        Some(if forall {
            Term::and_all(items)
        } else {
            Term::or_all(items)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Sort;

    /// Under the width bound the expansion has the quantifier's value; past it the
    /// expander's "wide" term says so (every small model, a nested quantifier included).
    #[test]
    fn the_expansion_is_the_quantifier_under_its_width_bound() {
        let t = Sym::new("t", Sort::Seq);
        let (k, j, s) = (
            Sym::new("k", Sort::Int),
            Sym::new("j", Sort::Int),
            Sym::new("s", Sort::Int),
        );
        let (tv, kv, jv, sv) = (
            Term::var(t.clone()),
            Term::var(k.clone()),
            Term::var(j),
            Term::var(s.clone()),
        );
        let odd = Term::ne(
            Term::modulo(Term::index(tv.clone(), jv.clone()), Term::int(2)),
            Term::int(0),
        );
        // all(t[j] % 2 != 0 for j in range(s, len(t))), and any(all(...) for k in range(0, s))
        let inner = Term::forall(
            Sym::new("j", Sort::Int),
            sv.clone(),
            Term::len(tv.clone()),
            odd.clone(),
        );
        let nested = Term::exists(
            k.clone(),
            Term::int(0),
            sv.clone(),
            Term::forall(
                Sym::new("j", Sort::Int),
                kv.clone(),
                Term::add(kv, Term::int(2)),
                Term::and(Term::lt(jv.clone(), Term::len(tv.clone())), odd),
            ),
        );
        let n = 3;
        let mut checked = 0;
        for q in [inner, nested] {
            let mut x = Expander {
                n,
                instances: 0,
                wide: Vec::new(),
            };
            let e = x.expand(&q, &[]).expect("an expansion");
            let wide = Term::or_all(x.wide);
            for len in 0..=4usize {
                for bits in 0..(1u32 << len) {
                    let items: Vec<BigInt> = (0..len).map(|i| ((bits >> i) & 1).into()).collect();
                    for sval in -1..=4i64 {
                        let m = Model {
                            values: [
                                (t.clone(), Value::tuple(items.clone())),
                                (s.clone(), Value::Int(sval.into())),
                            ]
                            .into(),
                            ..Model::default()
                        };
                        match m.eval(&wide) {
                            Some(Value::Bool(false)) => {
                                assert_eq!(m.eval(&e), m.eval(&q), "{q} at {m:?}");
                                checked += 1;
                            }
                            Some(Value::Bool(true)) => {}
                            other => panic!("{other:?}"),
                        }
                    }
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }
}
