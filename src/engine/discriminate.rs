//! Discriminating models (issue 31): a leaf's model that a one-token bug is likely to
//! change the result of, for `testgen`. The model every client reads first is the minimal
//! one ([`Engine::try_model`]: shortest tuples, smallest integers), and minimal inputs sit
//! where many programs agree: `a = 0` makes `-a // 3` and `-a // 4` equal, and a folded
//! loop's κ = 0 never runs its body. [`Engine::model_preferring`] asks for a model of the
//! same path that also satisfies as many *preferences* as the path allows (all at once,
//! else one at a time in order), then minimises under them; [`Engine::preferences`] are
//! the default ones (on a path with quantifiers, a fold's, the κs first and at most
//! [`MAX_QUANTIFIED_TRIES`] tried one at a time: each is a quantified check): each fold's
//! κ and λ ≥ 1 (or above the first test's for a second test), every integer input
//! non-zero and the integer inputs pairwise distinct, and the elements of a short tuple
//! non-zero, distinct and distinct from the integers (at the length the minimal model
//! has, two rather than one). [`Engine::boundaries`] are `testgen --thorough`'s: each comparison of the path at
//! distance 0 and 1 from where it flips.
//!
//! [`Engine::selectors`] decide each `min`/`max` of a leaf's values by one operand or the
//! other (the first test, another test), a two-path fold's counts are preferred apart,
//! and [`Engine::tight`] also puts each condition of a loop's ending disjunction at its
//! flip alone and a search's exit element one iteration later.
//!
//! A preference is only ever added to the path condition, so the model still reaches the
//! leaf; when the solver cannot decide (a timeout) the minimal model stands.

use std::collections::BTreeSet;
use std::sync::atomic::Ordering;

use super::{Engine, NoModel, NodeId, NodeModel};
use atoms::{
    bookkeeping, comparison_atoms, comparisons, conjuncts, has_quantifier, is_sign, next_iteration,
    signed, value_comparisons,
};

mod atoms;
use crate::solver::SatResult;
use crate::term::{Sort, Sym, Term, TermKind as K};

/// At most this many preferences are tried one at a time (each is a solver check).
const MAX_SINGLE_TRIES: usize = 16;

/// On a quantified path (below a fold) at most this many single tries: each is a
/// quantified check (bounded work per leaf).
const MAX_QUANTIFIED_TRIES: usize = 8;

/// How far from where it flips [`Engine::far`] asks a comparison to be.
const FAR: i64 = 10;

/// How far apart [`Engine::selectors`] asks the operands of a `min`/`max` to be.
const APART: i64 = 2;

/// Tuples up to this length (in the minimal model) get element preferences.
const ELEMENT_PREFS_UP_TO: usize = 4;

impl Engine {
    /// The default preferences for node `id`, given a model `base` of it: each fold's
    /// κ ≥ 1 (and λ ≥ 1 for a two-parameter fold; `larger`: κ ≥ its value in `base` plus one) first, then integers non-zero
    /// and distinct, then tuple elements.
    pub fn preferences(&self, id: NodeId, base: &NodeModel, larger: bool) -> Vec<Term> {
        self.preferences_with(id, base, larger, Vec::new())
    }

    /// [`Engine::preferences`] with `first` right after the κs (before the others: on a
    /// path below a fold only the first [`MAX_QUANTIFIED_TRIES`] are tried one at a time).
    /// After the operators', all the non-zero and distinct preferences as one (a single
    /// try), then each on its own.
    pub fn preferences_with(
        &self,
        id: NodeId,
        base: &NodeModel,
        larger: bool,
        first: Vec<Term>,
    ) -> Vec<Term> {
        let mut prefs = Vec::new();
        let mut unequal = Vec::new();
        for (fold, k) in self.folds_on_path(id) {
            // A two-parameter fold's λ too (issue 27): both paths run where the path allows.
            let lambda = self
                .fold_at(fold)
                .and_then(|f| f.multi.as_ref())
                .map(|m| m.lambda.clone());
            // The two paths' counts apart (`κ1 != λ1`): a loop that counts one path's
            // iterations (`if v % 2 == 0: even += 1`) on as many of each as of the
            // other tells no `==` from `!=`.
            if let Some(l) = &lambda {
                unequal.push(Term::ne(Term::var(k.clone()), Term::var(l.clone())));
            }
            for k in std::iter::once(k).chain(lambda) {
                let floor = match base.havoc.get(&*k.name) {
                    Some(crate::concrete::Value::Int(v)) if larger => Term::int(v.clone() + 1),
                    _ => Term::int(if larger { 2 } else { 1 }),
                };
                prefs.push(Term::ge(Term::var(k), floor));
            }
        }
        prefs.extend(unequal);
        prefs.extend(first);
        // (A quantified path, a fold's, gets the others too, with fewer single tries:
        // [`MAX_QUANTIFIED_TRIES`].)
        prefs.extend(self.operator_preferences(id));
        let ints: Vec<Term> = self
            .inputs
            .iter()
            .filter(|s| s.sort == Sort::Int)
            .map(|s| Term::var(s.clone()))
            .collect();
        let group_at = prefs.len();
        let mut not_grouped = Vec::new();
        let mut guarded = Vec::new();
        for x in &ints {
            prefs.push(Term::ne(x.clone(), Term::int(0)));
        }
        for (i, x) in ints.iter().enumerate() {
            for y in &ints[i + 1..] {
                prefs.push(Term::ne(x.clone(), y.clone()));
            }
        }
        // Signs where the path allows, alternating (the first integer negative, the next
        // positive, ...): of the equally small models (`b = 2` or `b = -2`) one, the same
        // every time, and both signs among the inputs (`abs(a)` and `a` differ).
        for (i, x) in ints.iter().enumerate() {
            prefs.push(signed(x.clone(), i));
        }
        for s in self.inputs.iter().filter(|s| s.sort == Sort::Seq) {
            let Some(crate::concrete::Value::Tuple(items)) = base.inputs.get(&*s.name) else {
                continue;
            };
            let mut n = items.len();
            if n > ELEMENT_PREFS_UP_TO {
                continue;
            }
            let t = Term::var(s.clone());
            let elem = |k: usize| Term::index(t.clone(), Term::int(k as i64));
            if n == 0 {
                // An empty tuple in `base` (below a fold, κ = 0): the elements that a
                // larger count brings, where there are some (in the group only).
                for k in 0..2 {
                    let absent = Term::le(Term::len(t.clone()), Term::int(k as i64));
                    let mut good = vec![Term::ne(elem(k), Term::int(0))];
                    good.extend(ints.iter().map(|x| Term::ne(elem(k), x.clone())));
                    if k == 1 {
                        good.push(Term::ne(elem(0), elem(1)));
                    }
                    guarded.push(Term::or(absent, Term::and_all(good)));
                }
                continue;
            }
            // Two elements rather than one where the path allows: `t[0]` and `t[-1]` are
            // the same element of a 1-tuple (`t[-0]` for `t[-1]` survives it).
            if n == 1 {
                prefs.push(Term::eq(Term::len(t.clone()), Term::int(2)));
                n = 2;
            }
            // (the fallback when two elements are not allowed: not in the group below)
            let fallback = Term::eq(Term::len(t.clone()), Term::int(items.len() as i64));
            if n != items.len() {
                not_grouped.push(fallback.to_string());
            }
            prefs.push(fallback);
            for k in 0..n {
                prefs.push(Term::ne(elem(k), Term::int(0)));
            }
            for k in 0..n {
                for j in k + 1..n {
                    prefs.push(Term::ne(elem(k), elem(j)));
                }
                for x in &ints {
                    prefs.push(Term::ne(elem(k), x.clone()));
                }
            }
            for k in 0..n {
                prefs.push(signed(elem(k), k + 1));
            }
        }
        // The non-zero, distinct and length preferences together, one try: below a fold
        // the single tries run out before the tuple's elements (a test on `t = (0, 0)`
        // tells no `t[0]` from `t[1]`).
        let group: Vec<Term> = prefs[group_at..]
            .iter()
            .filter(|p| !is_sign(p) && !not_grouped.contains(&p.to_string()))
            .cloned()
            .chain(guarded)
            .collect();
        if group.len() > 1 {
            prefs.insert(group_at, Term::and_all(group));
        }
        prefs
    }

    /// Preferences that each `min`/`max` (and `if` expression) in the values of leaf `id`
    /// (its return value and variables, not in quantifiers) takes one side, the first
    /// operand (`first`) or the second: `min(r, a - 2)` as `r - (a - 2) <= -2`, where a
    /// one-token change of `r` still decides the result (the minimal model may take the
    /// other operand and hide every bug before it).
    pub fn selectors(&self, id: NodeId, first: bool) -> Vec<Term> {
        let mut values: Vec<Term> = self.store_entries(id).map(|(_, t)| t.clone()).collect();
        values.extend(self.tree.node(id).return_value().cloned());
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        let mut todo = values;
        while let Some(t) = todo.pop() {
            let side = match t.kind() {
                K::Forall(..) | K::Exists(..) => continue,
                K::Min(a, b) | K::Max(a, b) => {
                    let diff = Term::sub(a.clone(), b.clone());
                    let below = matches!(t.kind(), K::Min(..)) == first;
                    Some(if below {
                        Term::le(diff, Term::int(-APART))
                    } else {
                        Term::ge(diff, Term::int(APART))
                    })
                }
                K::Ite(c, _, _) => Some(if first {
                    c.clone()
                } else {
                    Term::not(c.clone())
                }),
                _ => None,
            };
            if let Some(p) = side.filter(|p| !has_quantifier(p)) {
                if seen.insert(p.to_string()) {
                    out.push(p);
                }
            }
            t.kind().for_each_child(|c| todo.push(c.clone()));
        }
        out
    }

    /// Preferences that make each division by a constant on the path, in the store or in
    /// the return value tell its one-token mutants apart: for `a // c`, `a // c` differs
    /// from `a // (c + 1)`, `a // (c - 1)` and `a % c` (and likewise for `a % c`). A
    /// minimal `a = 0` has `-a // 3 == -a // 4`; these ask for an `a` where they differ.
    fn operator_preferences(&self, id: NodeId) -> Vec<Term> {
        let mut terms: Vec<Term> = self.path_condition(id);
        terms.extend(self.store_entries(id).map(|(_, t)| t.clone()));
        terms.extend(self.tree.node(id).return_value().cloned());
        let mut found = Vec::new();
        let mut seen = BTreeSet::new();
        let mut todo = terms;
        while let Some(t) = todo.pop() {
            match t.kind() {
                K::Forall(..) | K::Exists(..) => continue,
                K::FloorDiv(a, b) | K::Mod(a, b)
                    if b.as_int().is_some() && seen.insert(t.to_string()) =>
                {
                    found.push((matches!(t.kind(), K::FloorDiv(..)), a.clone(), b.clone()));
                }
                _ => {}
            }
            t.kind().for_each_child(|c| todo.push(c.clone()));
        }
        let mut prefs = Vec::new();
        for (div, a, b) in found {
            let c = b.as_int().cloned().unwrap_or_default();
            let op = |x: Term, y: Term, div: bool| {
                if div {
                    Term::floor_div(x, y)
                } else {
                    Term::modulo(x, y)
                }
            };
            let this = op(a.clone(), b.clone(), div);
            for d in [1, -1] {
                let c2 = c.clone() + d;
                if c2 != 0.into() {
                    prefs.push(Term::ne(this.clone(), op(a.clone(), Term::int(c2), div)));
                }
            }
            prefs.push(Term::ne(this.clone(), op(a, b, !div)));
        }
        prefs
    }

    /// `testgen --thorough`'s boundary preferences at `id`: for each integer comparison
    /// `a op b` in the path condition (under `and`, `or`, `not`; not in quantifiers),
    /// `a - b == d` for `d` in -1, 0, 1: the comparison at distance 0 and 1 from where it
    /// flips, on whichever sides the path allows (the solver drops the others), each
    /// followed by the other comparisons as preferences. Each is one extra model; the
    /// caller keeps those with new inputs.
    pub fn boundaries(&self, id: NodeId) -> Vec<Vec<Term>> {
        let mut atoms = Vec::new();
        for c in self.path_condition(id) {
            comparisons(&c, &mut atoms);
        }
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        for (i, (_, a, b)) in atoms.iter().enumerate() {
            for d in [-1i64, 0, 1] {
                let p = Term::eq(Term::sub(a.clone(), b.clone()), Term::int(d));
                if seen.insert(p.to_string()) {
                    // The other comparisons hold where they can: a chain `x >= 0 > y`
                    // flips at `y == 0` only when `x >= 0`.
                    let mut prefs = vec![p];
                    prefs.extend(
                        atoms
                            .iter()
                            .enumerate()
                            .filter(|(j, _)| *j != i)
                            .map(|(_, (c, _, _))| c.clone()),
                    );
                    out.push(prefs);
                }
            }
        }
        out
    }

    /// The default boundary test's preferences at `id` (issue 31): each integer comparison
    /// the path requires (a conjunct, or under `and`/`not`; not in quantifiers, not under
    /// `or`) at the point nearest to where it flips, on the path's side: `a < b` as
    /// `a - b == -1`, `a <= b` and `a >= b` as `a - b == 0`, `a > b` as `a - b == 1`,
    /// `a != b` as `a - b == 1`. These are the inputs an off-by-one in the comparison or
    /// its constant changes (`x >= 10` → `x > 10` or `x >= 9`). On a quantified path (a
    /// fold's) also the loop body's comparisons in its first iteration (`v < x` as
    /// `t[0] - x == -1`, an `if` of the body at equality), when the loop runs.
    pub fn tight(&self, id: NodeId) -> Vec<Term> {
        let mut out = self.comparison_preferences(id, false);
        // The deepest comparisons first: an early one is on many leaves' paths (and gets
        // its boundary on one of them), a deep one on few.
        out.reverse();
        out
    }

    /// The first test's comparison preferences at `id`: each integer comparison the path
    /// requires (as for [`Engine::tight`]) at least [`FAR`] away from where it flips
    /// (`a < b` as `a - b <= -FAR`): a loop that stops at a counter, not at `a < b`, runs
    /// on under a one-token bug in the counter only if `a < b` still holds then. Empty on
    /// a quantified path.
    pub fn far(&self, id: NodeId) -> Vec<Term> {
        self.comparison_preferences(id, true)
    }

    fn comparison_preferences(&self, id: NodeId, far: bool) -> Vec<Term> {
        let pc = self.path_condition(id);
        // A quantified path: the comparisons outside the quantifiers, at their flip only
        // (a loop count far from its flip is a long test).
        if far && pc.iter().any(has_quantifier) {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        let params = self.fold_params_on_path(id);
        for c in pc.iter().flat_map(conjuncts) {
            if !bookkeeping(&c, &params) {
                comparison_atoms(&c, true, far, &mut out);
                if !far {
                    out.extend(next_iteration(&c, &params).into_iter().flatten());
                }
            }
        }
        if !far {
            // A comparison the leaf returns or stores (`return y % 400 == 0`) at its flip:
            // the path does not fork on it, so no other test makes it true.
            let mut values: Vec<Term> = self.store_entries(id).map(|(_, t)| t.clone()).collect();
            values.extend(self.tree.node(id).return_value().cloned());
            for v in values.iter().filter(|v| v.sort() == Sort::Bool) {
                value_comparisons(v, &mut out);
            }
        }
        out.retain(|t| seen.insert(t.to_string()));
        out
    }

    /// The κs (and λs) of the folds on the path to `id`.
    fn fold_params_on_path(&self, id: NodeId) -> BTreeSet<Sym> {
        let mut params = BTreeSet::new();
        for (fold, k) in self.folds_on_path(id) {
            params.insert(k);
            if let Some(m) = self.fold_at(fold).and_then(|f| f.multi.as_ref()) {
                params.insert(m.lambda.clone());
            }
        }
        params
    }

    /// A model of node `id` that satisfies as many of `prefs` as the path allows (all at
    /// once, else greedily in order, at most [`MAX_SINGLE_TRIES`] tries), minimised under
    /// them. `Ok(None)`: no preference could be added (the minimal model stands); `Err`:
    /// the solver could not decide.
    pub fn model_preferring(
        &mut self,
        id: NodeId,
        prefs: &[Term],
    ) -> Result<Option<NodeModel>, NoModel> {
        Ok(self.model_preferring_kept(id, prefs)?.map(|(m, _)| m))
    }

    /// [`Engine::model_preferring`] with the preferences the model satisfies.
    pub fn model_preferring_kept(
        &mut self,
        id: NodeId,
        prefs: &[Term],
    ) -> Result<Option<(NodeModel, Vec<Term>)>, NoModel> {
        self.cancel.store(false, Ordering::Relaxed);
        let cancel = self.cancel.clone();
        crate::solver::interruptible(&cancel, || self.preferring(id, prefs))
    }

    fn preferring(
        &mut self,
        id: NodeId,
        prefs: &[Term],
    ) -> Result<Option<(NodeModel, Vec<Term>)>, NoModel> {
        if prefs.is_empty() || !self.tree.node(id).is_leaf() {
            return Ok(None);
        }
        let pc = self.path_condition(id);
        let with = |extra: &[Term]| -> Vec<Term> {
            let mut v = pc.clone();
            v.extend_from_slice(extra);
            v
        };
        let kept: Vec<Term> = match self.solver.check_preferring(&pc, prefs) {
            SatResult::Sat => prefs.to_vec(),
            SatResult::Unknown(u) if prefs.len() == 1 => return Err(NoModel::from(u)),
            _ => {
                let mut kept = Vec::new();
                let tries = if pc.iter().any(has_quantifier) {
                    MAX_QUANTIFIED_TRIES
                } else {
                    MAX_SINGLE_TRIES
                };
                for p in prefs.iter().take(tries) {
                    let mut next = kept.clone();
                    next.push(p.clone());
                    match self.solver.check_preferring(&pc, &next) {
                        SatResult::Sat => kept = next,
                        SatResult::Unsat => {}
                        // Undecided: no more tries (each could take the time limit).
                        SatResult::Unknown(_) => break,
                    }
                }
                kept
            }
        };
        if kept.is_empty() {
            return Ok(None);
        }
        let terms = with(&kept);
        let store: Vec<_> = self
            .store_entries(id)
            .map(|(k, t)| (k.clone(), t.clone()))
            .collect();
        let rv = self.tree.node(id).return_value().cloned();
        let output = self.output(id);
        let mut syms: BTreeSet<Sym> = self.inputs.iter().cloned().collect();
        pc.iter().for_each(|t| t.vars(&mut syms));
        store.iter().for_each(|(_, t)| t.vars(&mut syms));
        rv.iter().for_each(|t| t.vars(&mut syms));
        output
            .iter()
            .flat_map(|l| l.iter())
            .for_each(|t| t.vars(&mut syms));
        let syms: Vec<Sym> = syms.into_iter().collect();
        let model = self.solver.try_model(&terms, &syms);
        if let Ok(m) = &model {
            self.solver.note_preferred_model(&pc, m);
        }
        let model = model.map_err(|r| match r {
            SatResult::Unknown(reason) => NoModel::from(reason),
            SatResult::Unsat | SatResult::Sat => NoModel::Infeasible,
        })?;
        Ok(Some((
            self.evaluate(&model, &store, rv.as_ref(), &output),
            kept,
        )))
    }
}
