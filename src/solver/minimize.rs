//! Minimal models: the shortest tuples and the smallest absolute integers, within a budget.
//!
//! A model is what users read (counterexample lines, the model pane, generated tests), and
//! Z3's first model is whatever its search ended at: tuples of 100,000 elements, integers
//! of twenty digits. After a `sat` check, [`Incremental::minimal_model`] shrinks it one
//! measure at a time, in this order: the length of each tuple, the absolute value of each
//! integer, then the elements of each (now short) tuple: as many zeros as possible (all at
//! once, else one position at a time, greedily), then the smallest largest absolute value. (The sum of
//! absolute values would be a finer measure, but proving a bound on it optimal costs Z3
//! milliseconds per check: 15× the whole run on the linear search at unroll 10.) Each measure is
//! found by binary search with `push; assert measure <= k; check; pop`, starting with a
//! probe just below the current value (Z3's values often sit at a bound already, so one
//! check settles it); the bound found is then kept asserted while the next measures are
//! minimised, so the final model is minimal for each measure in turn (lexicographically).
//! The budget is counted in Z3's resource units ([`Work`]), not in time: every check runs
//! with what is left of it as Z3's `rlimit`, so the same program gives the same models
//! whatever the machine's load (a budget in time once made `testgen` write a test with a
//! tuple of 30,000 elements on a busy machine). A check that runs out (or an `unknown`)
//! keeps the best model found so far, which is always a model of the path condition.
//! While the tuples' lengths are minimised, only the lengths of Z3's models are read ([`Best::Lengths`]): Z3's first model may hold a tuple of 60,000
//! elements, and decoding it, once per probe, cost more than the whole budget.
//!
//! Before a probe goes to Z3, [`Refuter`] tries to prove it unsatisfiable by evaluating
//! the conjuncts that read only what is already fixed and what the probe proposes (the
//! linear search's `t[j] != x` once `x = 0` is fixed refutes `t[j] == 0`): the answer is
//! the one Z3 would give. The other way round, [`Refuter::repair`] answers a probe `sat` when
//! moving the offending atoms of the best model (large elements to 0, 1, -1, ...) keeps
//! every conjunct true under evaluation. Either way the minimum found for each measure is
//! the one Z3 alone would find; only which of the equally small models is returned may
//! differ (the signs of ±1 elements, say), for far fewer checks.
//!
//! A deep component's minimisation may start from a model derived from the previous
//! one (`refute/derive.rs`) instead of Z3's: a model, so the component is satisfiable and
//! is not checked first; Z3 is given the component (one check) only when a probe is
//! neither refuted nor repaired ([`Stack`]), with the bounds found so far. On the linear
//! search no probe is: a leaf's model costs no Z3 call (issue 30).

use std::collections::BTreeMap;
use std::time::Duration;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};
use z3::ast::{Ast, Bool, Int};

use super::bounded::{Bounded, Probe};
use super::incremental::Incremental;
use super::model::{decode, length};
use super::refute::{Atom, Refuter};
use super::translate::{int_lit, tuple_consts};
use super::work::Work;
use super::SatResult;
use crate::concrete::Value;
use crate::term::{Model, Term};
use crate::term::{Sort, Sym};

/// Values above this are first probed from below ([`GALLOP_FROM`], its square, ...).
const GALLOP_ABOVE: u64 = 256;
const GALLOP_FROM: u64 = 8;

/// Tuples up to this length get their elements minimised too.
const ELEMENTS_LIMIT: usize = 64;

/// One measure to minimise.
#[derive(Clone)]
enum Measure {
    /// `len(t)`.
    Len(Sym),
    /// `|x|`.
    Abs(Sym),
    /// The largest `|t[k]|` for `k < len(t) <= n` (`n`: the length bound already asserted).
    Elements(Sym, usize),
}

impl Measure {
    /// Its value in `m` (always >= 0).
    fn value(&self, m: &Model) -> BigInt {
        match (self, m.values.get(self.sym())) {
            (Measure::Len(_), Some(Value::Tuple(t))) => BigInt::from(t.len()),
            (Measure::Len(s), None) if m.long.contains_key(s) => m.long[s].len.clone(),
            (Measure::Abs(_), Some(Value::Int(i))) => i.abs(),
            (Measure::Elements(..), Some(Value::Tuple(t))) => {
                t.iter().map(|e| e.abs()).max().unwrap_or_default()
            }
            _ => BigInt::zero(),
        }
    }

    /// Does the refuter prove `measure <= mid` impossible (values below `lo` are known
    /// impossible already)?
    fn refuted(&self, proofs: &mut Proofs, lo: &BigInt, mid: &BigInt) -> bool {
        match self {
            Measure::Len(s) => proofs.get().refutes_range(&Atom::Len(s.clone()), lo, mid),
            Measure::Abs(x) => proofs
                .get()
                .refutes_range(&Atom::Int(x.clone()), &-mid, mid),
            Measure::Elements(s, n) => mid.is_zero() && proofs.get().refutes(&zeros(s, *n)),
        }
    }

    /// A model with `measure <= mid`, found by moving atoms of `best` (no Z3 call).
    fn repaired(&self, proofs: &mut Proofs, best: &Model, mid: &BigInt) -> Option<Model> {
        let targets = match self {
            Measure::Len(_) => return None,
            Measure::Abs(x) => vec![Atom::Int(x.clone())],
            Measure::Elements(s, n) => zeros(s, *n).into_iter().map(|(a, _)| a).collect(),
        };
        proofs.get().repair(best, &targets, mid)
    }

    /// Record what `measure <= found`, now asserted and minimal, fixes.
    fn fix(&self, proofs: &mut Proofs, found: &BigInt) {
        match self {
            Measure::Len(s) => proofs.get().fix(Atom::Len(s.clone()), found.clone()),
            Measure::Abs(x) if found.is_zero() => {
                proofs.get().fix(Atom::Int(x.clone()), BigInt::zero())
            }
            Measure::Elements(s, n) if found.is_zero() => {
                for (a, v) in zeros(s, *n) {
                    proofs.get().fix(a, v);
                }
            }
            _ => {}
        }
    }

    fn sym(&self) -> &Sym {
        match self {
            Measure::Len(s) | Measure::Abs(s) | Measure::Elements(s, _) => s,
        }
    }

    /// `measure <= k`.
    fn at_most(&self, k: &BigInt) -> Bool {
        let k = int_lit(k);
        let abs_le = |x: &Int| Bool::and(&[&x.le(&k), &x.ge(k.unary_minus())]);
        match self {
            Measure::Len(s) => tuple_consts(s).0.le(&k),
            Measure::Abs(s) => abs_le(&super::translate::int_const(s)),
            Measure::Elements(s, n) => {
                let (len, elems) = tuple_consts(s);
                let parts: Vec<Bool> = (0..*n)
                    .map(|i| {
                        let at = Int::from_u64(i as u64);
                        let e = elems
                            .apply(&[&at as &dyn Ast])
                            .as_int()
                            .expect("an Int -> Int function");
                        at.lt(&len).implies(abs_le(&e))
                    })
                    .collect();
                Bool::and(&parts.iter().collect::<Vec<_>>())
            }
        }
    }
}

/// The best model so far.
enum Best {
    Decoded(Model),
    /// Z3's model, of which only the tuples' lengths were read (while they are minimised).
    Lengths(z3::Model, BTreeMap<Sym, BigInt>),
}

impl Best {
    /// `z`, read for measure `m`: only the lengths if `m` is a length and `z` has tuples.
    fn read(z: z3::Model, syms: &[Sym], m: Option<&Measure>) -> Best {
        if matches!(m, None | Some(Measure::Len(_))) {
            let lengths: Option<BTreeMap<Sym, BigInt>> = syms
                .iter()
                .filter(|s| s.sort == Sort::Seq)
                .map(|s| Some((s.clone(), length(&z, s)?)))
                .collect();
            if let Some(lengths) = lengths.filter(|l| !l.is_empty()) {
                return Best::Lengths(z, lengths);
            }
        }
        Best::Decoded(decode(&z, syms))
    }

    /// The value of `m` in this model.
    fn value(&mut self, m: &Measure, syms: &[Sym]) -> BigInt {
        match (&*self, m) {
            (Best::Lengths(_, lengths), Measure::Len(s)) => {
                lengths.get(s).cloned().unwrap_or_default()
            }
            _ => m.value(self.decoded(syms)),
        }
    }

    /// The model, decoded (once) if it was not.
    fn decoded(&mut self, syms: &[Sym]) -> &mut Model {
        if let Best::Lengths(z, _) = self {
            *self = Best::Decoded(decode(z, syms));
        }
        match self {
            Best::Decoded(m) => m,
            Best::Lengths(..) => unreachable!("decoded above"),
        }
    }
}

/// `t[k] = 0` for every `k < n`.
fn zeros(s: &Sym, n: usize) -> Vec<(Atom, BigInt)> {
    (0..n)
        .map(|k| (Atom::Elem(s.clone(), k), BigInt::zero()))
        .collect()
}

/// The refuter of one minimisation, built on its first use.
struct Proofs<'a> {
    part: &'a [Term],
    refuter: Option<Refuter>,
}

impl Proofs<'_> {
    fn get(&mut self) -> &mut Refuter {
        self.refuter.get_or_insert_with(|| Refuter::new(self.part))
    }
}

/// The Z3 side of one minimisation: whether Z3 holds the component (`ready`: its
/// conjuncts asserted, then a push frame for what the minimisation keeps), and, while it
/// does not, what is to be asserted once it does (`kept`, in order).
struct Stack<'a> {
    part: &'a [Term],
    ready: bool,
    /// Making it ready failed: no more Z3 in this minimisation.
    failed: bool,
    kept: Vec<Kept>,
    /// A folded component's quantifier-free form (`bounded.rs`): probes it answers
    /// exactly never reach the quantified query.
    bounded: Option<&'a mut Bounded>,
    /// The largest length bound kept so far, and the largest absolute value: the width
    /// bounds [`Bounded::probe`] tries first.
    scale: [Option<u64>; 2],
}

impl Stack<'_> {
    /// Ask [`Bounded`] about `probe` (a probe of measure `m <= mid`, if one).
    fn bounded(
        &mut self,
        probe: &Bool,
        m: Option<(&Measure, &BigInt)>,
        work: &mut Work,
        inc: &Incremental,
    ) -> Option<Probe> {
        let b = self.bounded.as_deref_mut()?;
        let mut scales: Vec<u64> = Vec::new();
        if let Some((Measure::Len(_) | Measure::Abs(_), k)) = m {
            scales.extend(k.to_u64());
        }
        scales.extend(self.scale.iter().flatten());
        scales.sort_unstable();
        scales.push(super::bounded::EXPAND_LIMIT);
        b.probe(probe, &scales, work, inc)
    }

    /// Record a kept constraint in [`Bounded`] and in the scales.
    fn note(&mut self, k: &Kept) {
        if let Some(b) = self.bounded.as_deref_mut() {
            b.keep(&k.build());
        }
        if let Kept::AtMost(m, v) = k {
            let slot = match m {
                Measure::Len(_) => 0,
                Measure::Abs(_) => 1,
                Measure::Elements(..) => return,
            };
            let v = v.to_u64().unwrap_or(u64::MAX);
            self.scale[slot] = Some(self.scale[slot].map_or(v, |s| s.max(v)));
        }
    }
}

/// A constraint the minimisation keeps asserted.
enum Kept {
    /// The measure is at most this.
    AtMost(Measure, BigInt),
    /// `k < len(t) -> t[k] == 0` for every `k < n`.
    Zeros(Sym, usize),
    /// `t[k] == 0`.
    ZeroAt(Sym, usize),
}

impl Kept {
    fn build(&self) -> Bool {
        match self {
            Kept::AtMost(m, k) => m.at_most(k),
            Kept::Zeros(s, n) => all_zero(s, *n),
            Kept::ZeroAt(s, k) => zero_at(s, *k).1,
        }
    }
}

/// `(k, t[k] == 0)` in Z3's terms.
fn zero_at(s: &Sym, k: usize) -> (Int, Bool) {
    let (_, elems) = tuple_consts(s);
    let at = Int::from_u64(k as u64);
    let e = elems
        .apply(&[&at as &dyn Ast])
        .as_int()
        .expect("an Int -> Int function");
    let zero = e.eq(Int::from_i64(0));
    (at, zero)
}

/// `k < len(t) -> t[k] == 0` for every `k < n`, in Z3's terms.
fn all_zero(s: &Sym, n: usize) -> Bool {
    let all = all_zero_parts(s, n);
    Bool::and(&all.iter().collect::<Vec<_>>())
}

/// The parts of [`all_zero`].
fn all_zero_parts(s: &Sym, n: usize) -> Vec<Bool> {
    let (len, _) = tuple_consts(s);
    (0..n)
        .map(|k| {
            let (at, zero) = zero_at(s, k);
            at.lt(&len).implies(zero)
        })
        .collect()
}

impl Incremental {
    /// A minimal model of the conjuncts `part` (see the module doc), minimised for at most
    /// `budget`. `None` if there is none to give (Z3 gives no model, or the check that a
    /// derived start skipped does not answer `sat`).
    ///
    /// Without `derived`, the caller has just checked `part` (`sat`) and the minimisation
    /// starts from Z3's model. With `derived` (a model of `part` that `refuter`, built on
    /// `part`, derived from a neighbouring leaf's model, `refute/derive.rs`), it starts
    /// from that model and `part` has not been checked: Z3 is asked about `part` only when
    /// a probe needs it ([`Stack`]), which on the linear search's leaves is never (Z3's
    /// check and model construction are what cost on deep paths).
    pub fn minimal_model(
        &mut self,
        part: &[Term],
        syms: &[Sym],
        budget: Duration,
        derived: Option<(Model, Refuter)>,
        bounded: Option<&mut Bounded>,
    ) -> Option<Model> {
        let (derived, refuter) = match derived {
            Some((m, r)) => (Some(m), Some(r)),
            None => (None, None),
        };
        if derived.is_none() && (self.retried.is_some() || budget.is_zero()) {
            // A model from a retry's solver: the main one cannot search around it.
            let _armed = self.arm(self.budget());
            return self.model(syms);
        }
        self.derived += u64::from(derived.is_some());
        let mut proofs = Proofs { part, refuter };
        let mut stack = Stack {
            part,
            ready: derived.is_none(),
            failed: false,
            kept: Vec::new(),
            bounded,
            scale: [None, None],
        };
        let mut best = match derived {
            Some(m) if budget.is_zero() => return Some(m),
            Some(m) => Best::Decoded(m),
            None => {
                let _armed = self.arm(self.budget());
                Best::read(self.z3.get_model()?, syms, None)
            }
        };
        let mut work = Work::new(budget);
        if stack.ready {
            self.z3.push();
        }
        let mut measures: Vec<Measure> = syms
            .iter()
            .filter(|s| s.sort == Sort::Seq)
            .map(|s| Measure::Len(s.clone()))
            .collect();
        measures.extend(
            syms.iter()
                .filter(|s| s.sort == Sort::Int)
                .map(|s| Measure::Abs(s.clone())),
        );
        let mut k = 0;
        while k < measures.len() {
            let m = &measures[k];
            if let Measure::Elements(s, n) = m {
                let decoded = best.decoded(syms);
                if !self.zeros(s, *n, decoded, syms, &mut work, &mut proofs, &mut stack) {
                    break;
                }
            }
            let Some(found) = self.shrink(m, &mut best, syms, &mut work, &mut proofs, &mut stack)
            else {
                break;
            };
            self.keep(&mut stack, Kept::AtMost(m.clone(), found.clone()));
            m.fix(&mut proofs, &found);
            if let Measure::Len(s) = m {
                if let Some(n) = found
                    .to_usize()
                    .filter(|n| (1..=ELEMENTS_LIMIT).contains(n))
                {
                    measures.push(Measure::Elements(s.clone(), n));
                }
            }
            k += 1;
        }
        if stack.ready {
            self.z3.pop(1);
        }
        work.done(self);
        Some(std::mem::take(best.decoded(syms)))
    }

    /// Make sure Z3 holds `stack.part` and, in a push frame, what the minimisation keeps
    /// asserted: after a derived start, check `part` now (once; it is satisfiable, the
    /// derived model says so, but Z3 must have it on its stack to answer probes). `false`
    /// when that check does not answer `sat` (out of time, cancelled) or was answered by
    /// a retry's solver: the minimisation then stops with the model it has.
    fn ready(&mut self, stack: &mut Stack) -> bool {
        if stack.ready || stack.failed {
            return stack.ready;
        }
        self.lazy_checks += 1;
        let (answer, _) = self.check(stack.part);
        if answer != SatResult::Sat || self.retried.is_some() {
            stack.failed = true;
            return false;
        }
        self.z3.push();
        for k in std::mem::take(&mut stack.kept) {
            self.z3.assert(k.build());
        }
        stack.ready = true;
        true
    }

    /// Keep `k` asserted for the rest of the minimisation (now if Z3 is in use, else when
    /// it is first needed).
    fn keep(&mut self, stack: &mut Stack, k: Kept) {
        stack.note(&k);
        if stack.ready {
            self.z3.assert(k.build());
        } else {
            stack.kept.push(k);
        }
    }

    /// Make the elements of tuple `s` (of length at most `n`) zero where possible: all at
    /// once if the path allows it, else one position at a time (positions holding 1 or -1
    /// are left alone: no more readable as 0, and each try is a check), keeping each zero
    /// found asserted. `false` when out of time.
    #[allow(clippy::too_many_arguments)]
    fn zeros(
        &mut self,
        s: &Sym,
        n: usize,
        best: &mut Model,
        syms: &[Sym],
        work: &mut Work,
        proofs: &mut Proofs,
        stack: &mut Stack,
    ) -> bool {
        if stack.ready {
            // Z3's terms made in the order they always were (Z3's models depend on it:
            // the models that do not start derived are the ones they were).
            let _ = all_zero_parts(s, n);
        }
        let targets: Vec<Atom> = zeros(s, n).into_iter().map(|(a, _)| a).collect();
        let all_zero = if proofs.get().refutes(&zeros(s, n)) {
            Some(false)
        } else if let Some(m) = proofs.get().repair(best, &targets, &BigInt::zero()) {
            *best = m;
            self.keep(stack, Kept::Zeros(s.clone(), n));
            Some(true)
        } else {
            self.try_with(Kept::Zeros(s.clone(), n), best, syms, work, stack)
        };
        match all_zero {
            Some(true) => {
                for (a, v) in zeros(s, n) {
                    proofs.get().fix(a, v);
                }
                return true;
            }
            Some(false) => {}
            None => return false,
        }
        for k in 0..n {
            let Value::Tuple(items) = best.get(s) else {
                return true;
            };
            let Some(item) = items.get(k) else {
                return true;
            };
            if stack.ready {
                let _ = zero_at(s, k); // (as above)
            }
            let atom = Atom::Elem(s.clone(), k);
            if item.magnitude() > &1u32.into() {
                if proofs.get().refutes(&[(atom.clone(), BigInt::zero())]) {
                    continue;
                }
                if let Some(m) =
                    proofs
                        .get()
                        .repair(best, std::slice::from_ref(&atom), &BigInt::zero())
                {
                    *best = m;
                } else {
                    match self.try_with(Kept::ZeroAt(s.clone(), k), best, syms, work, stack) {
                        // (kept asserted by `try_with`)
                        Some(true) => {
                            proofs.get().fix(atom, BigInt::zero());
                            continue;
                        }
                        Some(false) => continue,
                        None => return false,
                    }
                }
            } else if !item.is_zero() {
                continue;
            }
            self.keep(stack, Kept::ZeroAt(s.clone(), k));
            proofs.get().fix(atom, BigInt::zero());
        }
        true
    }

    /// Is `extra` satisfiable with what is asserted? If so, `best` becomes such a model and
    /// `extra` stays asserted. `None` when out of time, cancelled or undecided.
    fn try_with(
        &mut self,
        extra: Kept,
        best: &mut Model,
        syms: &[Sym],
        work: &mut Work,
        stack: &mut Stack,
    ) -> Option<bool> {
        if work.spent() {
            return None;
        }
        match stack.bounded(&extra.build(), None, work, self) {
            Some(Probe::Sat(z)) => {
                *best = decode(&z, syms);
                self.keep(stack, extra);
                return Some(true);
            }
            Some(Probe::Unsat) => return Some(false),
            None if !self.ready(stack) => return None,
            None => {}
        }
        let kept = extra;
        let extra = kept.build();
        self.z3.push();
        self.z3.assert(&extra);
        let Some(answer) = work.check(self) else {
            self.z3.pop(1);
            return None;
        };
        let model = match answer {
            z3::SatResult::Sat => self.z3.get_model().map(|z| decode(&z, syms)),
            _ => None,
        };
        self.z3.pop(1);
        match (answer, model) {
            (z3::SatResult::Sat, Some(m)) => {
                *best = m;
                stack.note(&kept);
                self.z3.assert(&extra);
                Some(true)
            }
            (z3::SatResult::Unsat, _) => Some(false),
            _ => None,
        }
    }

    /// The smallest value of `m` (given the bounds asserted so far) that the time allows,
    /// updating `best` to a model with it. `None` when out of time or cancelled.
    fn shrink(
        &mut self,
        m: &Measure,
        best: &mut Best,
        syms: &[Sym],
        work: &mut Work,
        proofs: &mut Proofs,
        stack: &mut Stack,
    ) -> Option<BigInt> {
        let mut hi = best.value(m, syms);
        let mut lo = BigInt::zero();
        let mut first = true;
        // A large value is first probed from below (8, 64, 512, ...): a small bound is a
        // cheap query where a big one is not (a folded loop's quantifier over [0, κ) with
        // κ in the tens of thousands, issue 15), and small values are what users read.
        let mut gallop = BigInt::from(GALLOP_FROM);
        while lo < hi {
            if work.spent() {
                return None;
            }
            // Probes from below while the value is large, then one just below the current
            // value, then bisection.
            let mid: BigInt = if gallop < hi && hi > BigInt::from(GALLOP_ABOVE) {
                let g = gallop.clone();
                gallop *= GALLOP_FROM;
                g
            } else if first {
                first = false;
                &hi - 1
            } else {
                (&lo + &hi) / 2
            };
            if m.refuted(proofs, &lo, &mid) {
                lo = mid + 1;
                continue;
            }
            let repaired = match best {
                Best::Decoded(b) => m.repaired(proofs, b, &mid),
                Best::Lengths(..) => None,
            };
            if let Some(model) = repaired {
                hi = m.value(&model).min(mid);
                *best = Best::Decoded(model);
                continue;
            }
            match stack.bounded(&m.at_most(&mid), Some((m, &mid)), work, self) {
                Some(Probe::Sat(z)) => {
                    let mut model = Best::read(z, syms, Some(m));
                    hi = model.value(m, syms).min(mid);
                    *best = model;
                    continue;
                }
                Some(Probe::Unsat) => {
                    lo = mid + 1;
                    continue;
                }
                None => {}
            }
            if !self.ready(stack) {
                return None;
            }
            self.z3.push();
            self.z3.assert(m.at_most(&mid));
            let Some(answer) = work.check(self) else {
                self.z3.pop(1);
                return None;
            };
            let sat = match answer {
                z3::SatResult::Sat => self.z3.get_model().map(|z| Best::read(z, syms, Some(m))),
                _ => None,
            };
            self.z3.pop(1);
            match (answer, sat) {
                (z3::SatResult::Sat, Some(mut model)) => {
                    hi = model.value(m, syms).min(mid);
                    *best = model;
                }
                (z3::SatResult::Unsat, _) => lo = mid + 1,
                // Out of time, cancelled, or no answer: keep what was found.
                _ => return None,
            }
            if self.cancelled() {
                return None;
            }
        }
        Some(hi)
    }
}
