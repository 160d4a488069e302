//! What clients read of nodes beyond [`super::view`]: counters, the inputs, models, the
//! call stack, path conditions as text. Plain data, so `cli`, `check` and `testgen` need
//! no handle on the engine.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::Session;
use crate::engine::live::Live;
use crate::engine::{NoModel, NodeId, NodeModel, Stats};
use crate::lang::Type;
use crate::term::Term;

impl Session {
    /// Node and solver counters of the tree so far.
    pub fn stats(&self) -> Stats {
        self.engine.stats()
    }

    /// Counters another thread may read while the session explores (`run`'s progress line).
    pub fn live(&self) -> Arc<Live> {
        self.engine.live()
    }

    /// The program's inputs (module run: the declared inputs; `--entry f`: `f`'s
    /// parameters), name and type, in the engine's order.
    pub fn inputs(&self) -> Vec<(String, Type)> {
        self.engine
            .inputs()
            .iter()
            .map(|s| (s.name.to_string(), s.sort.to_type()))
            .collect()
    }

    /// Concrete inputs that reach exactly this node, with the visible store evaluated under
    /// them, or why there are none.
    pub fn try_model(&mut self, id: NodeId) -> Result<NodeModel, NoModel> {
        self.engine.try_model(id)
    }

    /// What the path printed before node `id` (at a leaf: everything it printed), line
    /// by line, each line its items in minipy: expressions over the inputs (and `havoc`
    /// symbols) that, evaluated under a model of the node, are the values `print` wrote.
    /// `print()`'s line has no items.
    pub fn output_at(&self, id: NodeId) -> Vec<Vec<String>> {
        self.engine
            .output(id)
            .iter()
            .map(|line| line.iter().map(|t| t.to_string()).collect())
            .collect()
    }

    /// [`Session::output_at`] as one text per line: the items as `print`'s arguments
    /// (`x + 1, (x, 2)`; an empty string for `print()`). The text CPython prints on given
    /// inputs is the model's ([`NodeModel::stdout`], via [`Session::try_model`]). Below a
    /// fold the items are normalised for display ([`super::term_shown`]).
    pub fn stdout_at(&self, id: NodeId) -> Vec<String> {
        self.engine
            .output(id)
            .iter()
            .map(|line| {
                let items: Vec<String> = line.iter().map(super::term_shown).collect();
                items.join(", ")
            })
            .collect()
    }

    /// The call stack at node `id`, outermost first (`<module>`, then function names); at an
    /// exception leaf, the stack where it was raised (like a traceback).
    pub fn frames_at_raise(&self, id: NodeId) -> Vec<String> {
        self.engine.frames(self.engine.raise_node(id))
    }

    /// The conjuncts of the path condition at `id` in minipy, each once, oldest first.
    pub fn path_condition_texts(&self, id: NodeId) -> Vec<String> {
        let mut conjuncts: Vec<String> = Vec::new();
        for c in self.engine.path_condition(id) {
            let c = c.to_string();
            if !conjuncts.contains(&c) {
                conjuncts.push(c);
            }
        }
        conjuncts
    }

    /// The values of `inputs` each input of the program has, an input missing there
    /// getting its type's default (the inputs a counterexample line shows).
    pub fn inputs_or_default(
        &self,
        inputs: &BTreeMap<String, crate::concrete::Value>,
    ) -> Vec<(String, crate::concrete::Value)> {
        self.inputs()
            .into_iter()
            .map(|(name, ty)| {
                let v = inputs
                    .get(&name)
                    .cloned()
                    .unwrap_or_else(|| crate::concrete::Value::default_of(ty));
                (name, v)
            })
            .collect()
    }

    /// Is a node on the path to `id` (or `id` itself) a loop scope's `havoc` step (the
    /// path runs through an invariant's arbitrary iteration)?
    pub fn after_havoc(&self, id: NodeId) -> bool {
        let tree = self.tree();
        tree.path(id)
            .iter()
            .any(|&n| tree.node(n).label() == Some(crate::engine::label::HAVOC))
    }

    /// The contracted functions whose contract the path to `id` used instead of their
    /// bodies, in path order (each once): a leaf below one is abstract (issue 28).
    /// A leaf a `check --jobs N` worker found is not in this session's tree (the workers
    /// explore subtrees of their own; a run that uses contracts checks on one thread): it
    /// used none.
    pub fn contracts_used(&self, id: NodeId) -> Vec<String> {
        let tree = self.tree();
        let mut out: Vec<String> = Vec::new();
        if id.index() >= tree.len() {
            return out;
        }
        for n in tree.path(id) {
            if let Some(crate::engine::Tag::UseContract(f)) = &tree.node(n).tag {
                if !out.iter().any(|g| **g == **f) {
                    out.push(f.to_string());
                }
            }
        }
        out
    }

    /// How calls of contracted functions run when no choice is made: `--calls`, else the
    /// default (the contract when proving the `--entry` function's, else inline).
    pub fn call_mode(&self) -> crate::engine::CallMode {
        self.engine.call_mode()
    }

    /// Does the tree use a contract anywhere (a node below a use of one)?
    pub fn uses_contracts(&self) -> bool {
        self.tree()
            .nodes()
            .any(|n| matches!(n.tag, Some(crate::engine::Tag::UseContract(_))))
    }

    /// Is node `id` below a use of a contract (see [`Session::contracts_used`])?
    pub fn is_abstract(&self, id: NodeId) -> bool {
        self.engine.is_abstract(id)
    }

    /// Is `f` a contracted function whose calls are always inlined, because it prints (or
    /// calls a function that does) and a contract says nothing of output?
    pub fn contract_prints(&self, f: &str) -> bool {
        self.engine.contract_prints(f)
    }

    /// At a leaf that is a contract's failure: which clause of which function.
    pub fn contract_failure(&self, id: NodeId) -> Option<crate::lang::ContractFailure> {
        self.engine.contract_failure(id)
    }

    /// Did node `id` come from a step cut by an engine limit (a term too large, a
    /// predicate unfolded too deep), which is deterministic, rather than by the solver?
    pub fn engine_limit(&self, id: NodeId) -> bool {
        self.tree().node(id).tag == Some(crate::engine::Tag::Limit)
    }
}

/// Discriminating models for `testgen` (issue 31; `engine/discriminate.rs`).
impl Session {
    /// The model of every leaf that claims a result (`normal`, `return`, `exception`,
    /// `halt`), asked in node-id order: the queries `check`'s precision test makes, in its
    /// order (and `run --json`'s, which also asks at `bound` leaves), so `testgen` and
    /// `check` ask the solver the same questions with the same budget and cache (issue 31:
    /// a leaf has a model in both or in neither, up to the load on a solver time limit).
    pub fn leaf_models(&mut self) -> BTreeMap<NodeId, Result<NodeModel, NoModel>> {
        use crate::engine::Outcome;
        let leaves: Vec<NodeId> = self
            .tree()
            .nodes()
            .filter(|n| {
                matches!(
                    n.outcome(),
                    Some(Outcome::Normal | Outcome::Return | Outcome::Exception(_) | Outcome::Halt)
                )
            })
            .map(|n| n.id)
            .collect();
        leaves
            .into_iter()
            .map(|id| (id, self.try_model(id)))
            .collect()
    }

    /// A model of leaf `id` that prefers each fold's κ ≥ 1 (`larger`: above its value in
    /// `base`), each `min`/`max` of its values deciding by its first operand (`larger`:
    /// by its second, [`Engine::selectors`]), non-zero and distinct integers and tuple
    /// elements, given a model `base` of it; `None` when no preference fits the path or
    /// the solver cannot decide (`base` stands).
    pub fn discriminating_model(
        &mut self,
        id: NodeId,
        base: &NodeModel,
        larger: bool,
    ) -> Option<NodeModel> {
        let sides = self.engine.selectors(id, !larger);
        let mut prefs = self.engine.preferences_with(id, base, larger, sides);
        if !larger {
            prefs.extend(self.engine.far(id));
        }
        self.engine.model_preferring(id, &prefs).ok().flatten()
    }

    /// The default boundary tests' models of leaf `id` (issue 31): first each comparison
    /// of the path nearest to where it flips, on the path's side ([`Engine::tight`]),
    /// those no earlier boundary model made tight (not in `covered`) first, then the
    /// default preferences; then, while there are at most [`TIGHT_MODELS`], each new
    /// comparison on its own with the default preferences after it, where the first model
    /// did not make it tight alone (`80 <= x < 90`: `x == 80` and `x == 89` are two tests;
    /// `0 <= k < len(t)`: `k == 0` with a longer tuple than `len(t) == 1`). Empty when no
    /// comparison can be made tight. The comparisons these models make tight join
    /// `covered`.
    pub fn tight_models(
        &mut self,
        id: NodeId,
        base: &NodeModel,
        covered: &mut BTreeSet<String>,
    ) -> Vec<NodeModel> {
        let tight = self.engine.tight(id);
        if tight.is_empty() {
            return Vec::new();
        }
        let defaults = self.engine.preferences(id, base, false);
        let (new, old): (Vec<Term>, Vec<Term>) = tight
            .into_iter()
            .partition(|t| !covered.contains(&t.to_string()));
        let n = new.len() + old.len();
        let mut prefs = new.clone();
        prefs.extend(old);
        prefs.extend(defaults.iter().cloned());
        let Some((model, kept)) = self.engine.model_preferring_kept(id, &prefs).ok().flatten()
        else {
            return Vec::new();
        };
        let made: Vec<Term> = kept
            .into_iter()
            .filter(|k| prefs[..n].contains(k))
            .collect();
        covered.extend(made.iter().map(Term::to_string));
        let mut out = vec![model];
        for t in new {
            if out.len() >= TIGHT_MODELS {
                break;
            }
            if made.len() == 1 && made.contains(&t) {
                continue;
            }
            let mut prefs = vec![t.clone()];
            prefs.extend(defaults.iter().cloned());
            if let Ok(Some((model, kept))) = self.engine.model_preferring_kept(id, &prefs) {
                if kept.contains(&t) {
                    covered.insert(t.to_string());
                    out.push(model);
                }
            }
        }
        out
    }

    /// A model of leaf `id` where each `min`/`max` of its values decides by its second
    /// operand (the first test's by its first: [`Engine::selectors`]), with the default
    /// preferences after; `None` when the leaf's values have none or no side fits.
    pub fn other_side_model(&mut self, id: NodeId, base: &NodeModel) -> Option<NodeModel> {
        let sides = self.engine.selectors(id, false);
        if sides.is_empty() {
            return None;
        }
        let prefs = self.engine.preferences_with(id, base, false, sides);
        self.engine.model_preferring(id, &prefs).ok().flatten()
    }

    /// How many folds are on the path to `id`.
    pub fn folds_above(&self, id: NodeId) -> usize {
        self.engine.folds_on_path(id).len()
    }

    /// `testgen --thorough`: models of leaf `id` at each comparison's boundary (distance
    /// 0 and 1 from where it flips), with the default preferences after it.
    pub fn boundary_models(&mut self, id: NodeId, base: &NodeModel) -> Vec<NodeModel> {
        let rest = self.engine.preferences(id, base, false);
        let mut out = Vec::new();
        for mut prefs in self.engine.boundaries(id) {
            prefs.extend(rest.iter().cloned());
            if let Ok(Some(m)) = self.engine.model_preferring(id, &prefs) {
                out.push(m);
            }
        }
        out
    }
}

/// Boundary models per leaf at most ([`Session::tight_models`]).
pub const TIGHT_MODELS: usize = 3;
