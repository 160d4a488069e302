//! Folds for a person walking the tree (the TUI's `F` and `=`, issue 15): is an open node
//! a loop head that can fold, step it folded or classically whatever `--fold` says, and
//! the view of a node with κ := n (NEXT.md §1.6: nodes are immutable, so this is a view,
//! not a change of the tree).

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use num_bigint::BigInt;

use super::super::step::{self, Action, Stepper};
use super::super::{eval, Engine, NodeId};
use super::{FoldMode, NoTemplate, Template};
use crate::concrete::Value;
use crate::solver::SatResult;
use crate::term::{Sym, Term, TermKind};

/// A quantifier over at most this many iterations is shown expanded in an instance
/// (`t[0] != x and t[1] != x` instead of `all(... for τ1 in range(0, 2))`).
pub const EXPAND_UPTO: usize = 8;

/// A node's path condition and store with one fold's κ := n (see [`Engine::instantiate`]).
#[derive(Clone, Debug)]
pub struct InstanceView {
    /// The fold whose parameter is instantiated.
    pub fold: NodeId,
    pub kappa: Sym,
    pub value: BigInt,
    /// A two-parameter fold's λ and its value, when one was given (issue 27; else λ stays
    /// symbolic).
    pub lambda: Option<(Sym, BigInt)>,
    /// The path condition with κ := n (small quantifiers expanded), oldest first.
    pub pc: Vec<Term>,
    /// The store with κ := n. At the fold node itself: the loop head after n iterations
    /// of the path.
    pub store: Vec<(String, Term)>,
    /// A `return` leaf's value with κ := n.
    pub return_value: Option<Term>,
    /// Is there an input that reaches the node with κ = n? (Z3)
    pub sat: SatResult,
    /// Such inputs (when `sat` is `Sat`).
    pub inputs: Option<BTreeMap<String, Value>>,
}

impl Engine {
    /// At an open node settled at a `while`'s condition: the loop's template, or why it
    /// has none. `None` at any other node.
    pub fn fold_head(&self, id: NodeId) -> Option<Result<Rc<Template>, NoTemplate>> {
        let node = self.tree.node(id);
        if !node.is_open() {
            return None;
        }
        let Some(Action::Guard { block, index, .. }) = step::next_action(&node.state) else {
            // The entry of a self-recursive function (issue 27).
            let func = super::recursion::at_entry(&node.state, &self.ir)?;
            let mut config = self.replay_config();
            config.recursion = u32::MAX;
            let stepper = Stepper {
                cx: eval::Context::new(&self.ir, &self.locals, &self.input_names),
                config: &config,
                types: &self.types,
            };
            return self.rec_template_cached(&stepper, &func);
        };
        let config = self.replay_config();
        let stepper = Stepper {
            cx: eval::Context::new(&self.ir, &self.locals, &self.input_names),
            config: &config,
            types: &self.types,
        };
        Some(self.template_cached(&stepper, &block, index, node.state.func()))
    }

    /// Is `id` at the condition of a `while` (stepped or not)? Unlike [`Engine::fold_head`],
    /// the same before and after the node is stepped, so a client's view of a node does not
    /// depend on when it was sent.
    pub fn at_loop_guard(&self, id: NodeId) -> bool {
        matches!(
            step::next_action(&self.tree.node(id).state),
            Some(Action::Guard { .. })
        )
    }

    /// Is `id` where a fold may happen (stepped or not): a `while`'s condition, or the
    /// entry of a function that calls itself (issue 27)?
    pub fn at_fold_point(&self, id: NodeId) -> bool {
        self.at_loop_guard(id)
            || super::recursion::at_entry(&self.tree.node(id).state, &self.ir).is_some()
    }

    /// Step like [`Engine::step`] with `--fold` set to `mode` for this step only: `Auto`
    /// folds a loop head whose path has a template (where the fold applies), `Off` steps
    /// it classically.
    pub fn step_fold(&mut self, id: NodeId, mode: FoldMode) -> Vec<NodeId> {
        let saved = std::mem::replace(&mut self.config.fold, mode);
        let children = self.step(id);
        self.config.fold = saved;
        children
    }

    /// The fold whose κ `=` instantiates at `id`: the fold node itself, else the nearest
    /// fold above it (the innermost on its path).
    pub fn fold_param_of(&self, id: NodeId) -> Option<(NodeId, Sym)> {
        if let Some(f) = self.fold_at(id) {
            return Some((id, f.kappa.clone()));
        }
        self.folds_on_path(id).pop()
    }

    /// Node `id`'s path condition and store with κ := `n` (and, for a two-parameter fold,
    /// λ := `m` when given) for the fold of [`Engine::fold_param_of`], and whether (and by
    /// which inputs) it is reachable so. At the fold node: its path condition and Φ(n),
    /// and the store after n iterations. `None` when no fold is at or above `id`.
    pub fn instantiate(
        &mut self,
        id: NodeId,
        n: &BigInt,
        m: Option<&BigInt>,
    ) -> Option<InstanceView> {
        let (fold, kappa) = self.fold_param_of(id)?;
        let lambda = match (m, self.fold_at(fold)?.multi.as_ref()) {
            (Some(m), Some(p)) => Some((p.lambda.clone(), m.clone())),
            _ => None,
        };
        let value = Term::int(n.clone());
        let set = |t: &Term| {
            let t = t.subst1(&kappa, &value);
            match &lambda {
                Some((l, m)) => t.subst1(l, &Term::int(m.clone())),
                None => t,
            }
        };
        let mut pc = self.path_condition(id);
        let mut store = self.store(id);
        if fold == id {
            let f = &self.folds.nodes[&id];
            pc.extend(f.phi.iter().cloned());
            for (name, v) in &f.after {
                match store.iter_mut().find(|(k, _)| k == name) {
                    Some(slot) => slot.1 = v.clone(),
                    None => store.push((name.clone(), v.clone())),
                }
            }
        }
        let pc: Vec<Term> = pc
            .iter()
            .flat_map(conjuncts)
            .flat_map(|t| expand_small(&set(&t)))
            .filter(|t| !t.is_true())
            .collect();
        let store = store.into_iter().map(|(k, t)| (k, set(&t))).collect();
        let return_value = self.tree.node(id).return_value().map(set);
        self.cancel
            .store(false, std::sync::atomic::Ordering::Relaxed);
        let cancel = self.cancel.clone();
        let (sat, inputs) = crate::solver::interruptible(&cancel, || {
            let syms: Vec<Sym> = {
                let mut s: BTreeSet<Sym> = self.inputs.iter().cloned().collect();
                pc.iter().for_each(|t| t.vars(&mut s));
                s.into_iter().collect()
            };
            match self.solver.try_model(&pc, &syms) {
                Ok(m) => (SatResult::Sat, Some(self.input_values(&m))),
                Err(SatResult::Unknown(r)) => (SatResult::Unknown(r), None),
                Err(_) => (SatResult::Unsat, None),
            }
        });
        Some(InstanceView {
            fold,
            kappa,
            value: n.clone(),
            lambda,
            pc,
            store,
            return_value,
            sat,
            inputs,
        })
    }
}

/// The conjuncts of `t` (an `and` is split, nested ones too).
fn conjuncts(t: &Term) -> Vec<Term> {
    match t.kind() {
        TermKind::And(items) => items.iter().flat_map(conjuncts).collect(),
        _ => vec![t.clone()],
    }
}

/// A conjunct with literal-bounded quantifiers over at most [`EXPAND_UPTO`] values
/// replaced by their instances (a top-level `all` becomes several conjuncts).
fn expand_small(t: &Term) -> Vec<Term> {
    if let TermKind::Forall(var, lo, hi, body) = t.kind() {
        if let (Some(lo), Some(hi)) = (lo.as_int(), hi.as_int()) {
            let count = hi - lo;
            if count <= BigInt::from(EXPAND_UPTO) {
                let mut out = Vec::new();
                let mut i = lo.clone();
                while &i < hi {
                    out.push(body.subst1(var, &Term::int(i.clone())));
                    i += 1;
                }
                return out;
            }
        }
    }
    vec![t.clone()]
}
