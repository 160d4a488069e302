//! The symbolic engine: grows the symbolic execution tree (SET) one step at a time.
//!
//! An [`Engine`] owns the lowered program, the tree and the solver. The session asks it to
//! [`Engine::step`] one open node, or to explore a subtree under limits ([`Engine::run`],
//! [`Engine::run_until`] a stopping rule, and [`Engine::run_to`] a node such as the first
//! exception leaf: the run policies built on these are the session's, `session/run.rs`);
//! it reads nodes from [`Engine::tree`] and asks for a model at any node
//! ([`Engine::model`]).
//!
//! Architecture invariants: the engine does no IO and knows no UI; it speaks
//! [`term::Term`] and reaches Z3 only through [`crate::solver::Solver`]. A node is never
//! stepped twice; an infeasible successor never becomes a node (except the one visible
//! `infeasible` leaf of an `assume` that closes a path); a solver `unknown` becomes an
//! `unknown` leaf, never a guess.

/// Contracts at calls: the choice, abstract nodes, contract failures (issue 28).
mod contract;
/// The first exception leaf whatever the branch order (issue 30 item 1).
mod directed;
mod discriminate;
mod eval;
pub mod explain;
/// Compact symbolic execution: loops folded with a parameter κ (issue 15).
pub mod fold;
/// Which loop iterations count against `--unroll` (issue 23 item 16).
mod forks;
pub mod inspect;
pub mod label;
pub mod live;
mod no_model;
pub mod origin;
pub mod state;
mod step;
pub mod tag;
pub mod tree;
mod why;

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::base::Span;
use crate::concrete::Value;
use crate::diagnostics::Diagnostic;
use crate::lang::{self, TypeInfo};
use crate::solver::{SatResult, Solver, SolverConfig, SolverStats, Unknown};
use crate::term::Model;
use crate::term::{Sym, Term};
use crate::transform::ir::{self, InstrKind};
pub use no_model::NoModel;
use state::{Cont, Frame, Kont, PathCondition, State};
use step::{Settled, Stepper};
pub use tag::{Check, Cut, Tag};
pub use tree::{Details, Node, NodeId, NodeKind, Outcome, Tree};
pub use why::{Caught, Origin, Pruned};

/// CPython's default recursion limit (frames, counting the module's).
pub const PYTHON_RECURSION_LIMIT: usize = 1000;

/// Iterations of one loop on one path whose guard was true as a constant (decided without
/// the solver): they do not count against `--unroll`, and past this many the path is cut
/// (a `bound` leaf), so `while True:` ends. `--max-nodes` may stop the exploration first.
pub const CONCRETE_LOOP_LIMIT: u16 = 10_000;

/// Iterations of one loop on one path that started after a constant guard and narrowed the
/// path condition without forking (a test on the inputs that only decided whether to leave
/// the loop, as the book's search over a concrete tuple): past this many they count against
/// `--unroll` ([`forks`]). Each costs solver checks and adds a leaf, so a search whose
/// constant guard never fails (`while i >= 0: if i == a: return i`) is cut after a hundred
/// of them, not ten thousand.
pub const NARROWING_LIMIT: u8 = 100;

/// Engine settings. Every field documents its default.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// How many times a loop body may start before the path is cut with a `bound` leaf.
    /// Default 3.
    pub unroll: u32,
    /// How many frames of one function may be active at once before a call is cut with a
    /// `bound` leaf. Default 5.
    pub recursion: u32,
    /// Per solver check, in milliseconds; `None`: no timeout. Default 10 000.
    pub timeout_ms: Option<u64>,
    /// Transparent calls (method frames). `false`: the book's opaque calls. Default true.
    pub frames: bool,
    /// How to run a `while` that has `invariant` lines. Default: apply the invariant.
    pub loops: LoopMode,
    /// Fold loops whose iteration path has a template (issue 15). Default off.
    pub fold: fold::FoldMode,
    /// How to run a call of a function with `requires`/`ensures` lines (issue 28). `None`
    /// (the default): use the contracts where the entry function has a contract (its
    /// proof covers recursion), inline them otherwise.
    pub calls: Option<CallMode>,
}

/// The transition at a call of a function with a contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CallMode {
    /// Step into the body (a method frame), as CPython runs it.
    #[default]
    Inline,
    /// Check the precondition, take a fresh result constrained by the postcondition.
    Contract,
}

/// The transition for loops with `invariant` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LoopMode {
    /// The book's loop-scope transformation: exhaustive, unbounded (chapter 002).
    #[default]
    Invariant,
    /// Unroll like any loop (bounded by `unroll`).
    Unroll,
    /// One iteration (if the guard holds), then the same choice again at the loop head.
    /// For a person walking the tree (the TUI's `u`); as a default it would unroll
    /// without bound, so `Config::loops` treats it as `Unroll`.
    UnrollOnce,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            unroll: 3,
            recursion: 5,
            timeout_ms: Some(10_000),
            frames: true,
            loops: LoopMode::Invariant,
            fold: fold::FoldMode::Off,
            calls: None,
        }
    }
}

/// Exploration order for [`Engine::run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    #[default]
    Dfs,
    Bfs,
}

/// Limits of one exploration.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop after the tree has this many nodes: no node is stepped once the tree has them,
    /// and the last step adds all its children (a branch passes the limit by one or more).
    pub max_nodes: Option<usize>,
    /// Stop after this much wall time.
    pub time: Option<Duration>,
    pub strategy: Strategy,
}

/// Why an exploration stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Nothing left to explore (within the stopping rule).
    Done,
    NodeLimit,
    TimeLimit,
    Cancelled,
}

/// Counters for `--json` stats and the status line.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub nodes: usize,
    pub open: usize,
    pub leaves: usize,
    pub exceptions: usize,
    pub bounds: usize,
    /// Fold nodes (loop heads folded with a parameter κ).
    pub folds: usize,
    pub solver: SolverStats,
}

/// A successor state, checked and settled, before it becomes a node.
struct Child {
    /// Which way the step went (under an opaque call: the call step's way).
    tag: Tag,
    state: State,
    settled: Settled,
    forced: Option<Outcome>,
    unknown_reason: Option<Unknown>,
}

/// A model at a node: concrete inputs, and the visible store evaluated under them.
#[derive(Clone, Debug)]
pub struct NodeModel {
    pub inputs: BTreeMap<String, Value>,
    /// The values of the other symbols the path mentions: those `havoc` made (`i!1`, the
    /// state of a loop's arbitrary iteration) and their definedness flags (`x!2.bound`).
    /// The inputs alone need not reproduce a leaf that depends on them.
    pub havoc: BTreeMap<String, Value>,
    pub store: BTreeMap<String, Value>,
    pub return_value: Option<Value>,
    /// What the path printed, under the model: byte for byte what CPython prints on these
    /// inputs (`None` if an item could not be evaluated).
    pub stdout: Option<String>,
}

/// The text `output` (a path's printed lines, see [`Engine::output`]) prints under `model`.
pub fn stdout_under(model: &Model, output: &[Rc<[Term]>]) -> Option<String> {
    let mut text = String::new();
    for line in output {
        let items = line
            .iter()
            .map(|t| model.eval(t).map(|v| v.to_string()))
            .collect::<Option<Vec<_>>>()?;
        text.push_str(&crate::semantics::print_line(items));
    }
    Some(text)
}

pub struct Engine {
    ir: Rc<ir::Program>,
    types: TypeInfo,
    config: Config,
    tree: Tree,
    solver: Solver,
    /// Membership in the path condition of the state being stepped, in O(1) (a step asks
    /// up to three times per successor; walking the list cost O(depth) each time).
    pc_index: crate::term::PcIndex,
    locals: BTreeMap<String, BTreeSet<String>>,
    inputs: Vec<Sym>,
    input_names: BTreeSet<String>,
    cancel: Arc<AtomicBool>,
    entry: Option<String>,
    /// The alternatives dropped inside opaque calls (`Config::frames == false`), per call
    /// node: they cannot be recomputed without the solver (see [`Engine::pruned`]).
    opaque_pruned: std::collections::HashMap<NodeId, Vec<why::Dropped>>,
    /// Tests: what every step dropped, to compare with [`Engine::pruned`]'s re-run.
    #[cfg(test)]
    recorded: Option<std::collections::HashMap<NodeId, Vec<why::Dropped>>>,
    /// Templates, fold nodes and their exits (issue 15).
    folds: fold::Folds,
    /// Counters for a progress display ([`Engine::live`]).
    live: Arc<live::Live>,
    /// During [`Engine::run_to_exception`]: the failure formula; an open node whose path
    /// condition contradicts it is not stepped ([`directed`]).
    prune: Option<directed::Prune>,
    /// During [`Engine::run_to_exception`]: the plain steps left before the lookahead.
    warm: Option<usize>,
}

impl Engine {
    /// Build the engine and the root node. `entry`: analyse this function alone.
    pub fn new(
        program: &lang::Program,
        types: TypeInfo,
        ir: Rc<ir::Program>,
        entry: Option<&str>,
        mut config: Config,
    ) -> Result<Engine, Diagnostic> {
        // One iteration at a time is a per-node choice; as the default it never ends.
        if config.loops == LoopMode::UnrollOnce {
            config.loops = LoopMode::Unroll;
        }
        let (inputs, cont) = match entry {
            None => {
                let inputs: Vec<Sym> = program
                    .inputs()
                    .map(|(id, ty)| Sym {
                        name: Rc::from(id.name.as_str()),
                        sort: step::sort_of(ty),
                    })
                    .collect();
                let mut cont = Cont::default().push(Kont::Block {
                    block: ir.body.clone(),
                    index: 0,
                });
                // `--assume`: the first statements of the module.
                if !ir.preconditions.is_empty() {
                    cont = cont.push(Kont::Block {
                        block: ir.preconditions.clone(),
                        index: 0,
                    });
                }
                (inputs, cont)
            }
            Some(f) => {
                lang::entry::entry_function(program, f)?;
                let Some(func) = ir.functions.get(f) else {
                    let names: Vec<&str> = ir.functions.keys().map(String::as_str).collect();
                    return Err(Diagnostic::global(format!(
                        "there is no function `{f}` to analyse"
                    ))
                    .with_note(if names.is_empty() {
                        "the program defines no functions".to_string()
                    } else {
                        format!("the functions are: {}", names.join(", "))
                    }));
                };
                let inputs: Vec<Sym> = func
                    .params
                    .iter()
                    .map(|(n, ty)| Sym {
                        name: Rc::from(n.as_str()),
                        sort: step::sort_of(*ty),
                    })
                    .collect();
                // `import module; module.f(args)`: the whole top level, then the call
                // (see `lang::entry`); declared module inputs stay unbound.
                let cont = Cont::default()
                    .push(Kont::EnterEntry { func: Rc::from(f) })
                    .push(Kont::Block {
                        block: ir.body.clone(),
                        index: 0,
                    });
                (inputs, cont)
            }
        };
        let mut locals = BTreeMap::new();
        for (name, f) in &ir.functions {
            let mut set: BTreeSet<String> = f.params.iter().map(|(n, _)| n.clone()).collect();
            ir::assigned_names(&f.body, &mut set);
            if let Some(c) = &f.contract {
                // A use of the contract havocs `result`, which the body (no `ensures`:
                // no method frame) need not assign (issue 28).
                ir::assigned_names(&c.use_, &mut set);
            }
            if entry == Some(name.as_str()) {
                // `--assume` runs in the entry's frame (its temporaries are its locals).
                ir::assigned_names(&ir.preconditions, &mut set);
            }
            locals.insert(name.clone(), set);
        }
        let input_names = inputs.iter().map(|s: &Sym| s.name.to_string()).collect();
        let cancel = Arc::new(AtomicBool::new(false));
        let mut solver = Solver::new(SolverConfig {
            timeout_ms: config.timeout_ms,
        });
        solver.set_cancel(cancel.clone());
        let mut engine = Engine {
            ir,
            types,
            config,
            tree: Tree::default(),
            solver,
            pc_index: Default::default(),
            locals,
            inputs,
            input_names,
            cancel,
            entry: entry.map(str::to_string),
            opaque_pruned: Default::default(),
            #[cfg(test)]
            recorded: None,
            folds: fold::Folds::default(),
            live: Arc::default(),
            prune: None,
            warm: None,
        };
        engine.config.calls = Some(engine.call_mode());
        // Module runs: every declared input is bound from the start, whatever line declares it.
        let mut globals = state::Env::new();
        if entry.is_none() {
            for sym in &engine.inputs {
                globals = globals.insert(sym.name.clone(), Term::var(sym.clone()));
            }
        }
        let mut state = State {
            globals,
            frames: state::Frames::new(Frame {
                func: None,
                locals: state::Env::new(),
                call_site: None,
            }),
            defined: Rc::default(),
            pc: PathCondition::default(),
            cont,
            abrupt: None,
            fresh: 0,
            output: Default::default(),
        };
        let settled = engine.settle(&mut state);
        engine.add_node(None, None, None, state, settled, None);
        Ok(engine)
    }

    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// Derive leaves' models from the previous model when their component has at least
    /// `n` conjuncts (`solver::DERIVE_FROM` by default; `0`: always; for tests and
    /// experiments).
    pub fn set_model_derivation_from(&mut self, n: usize) {
        self.solver.set_derive_from(n);
    }

    /// Minimise models within `budget` (see `Solver::set_minimize_budget`).
    pub fn set_minimize_budget(&mut self, budget: std::time::Duration) {
        self.solver.set_minimize_budget(budget);
    }

    /// How many leaves' models were derived so far (see `set_model_derivation_from`).
    pub fn derived_models(&self) -> u64 {
        self.solver.derived_models()
    }

    /// Never free the tree, the states and the solver: for a process that exits right
    /// after (`Session::leak_at_exit`). The solver process of hard queries is ended first.
    pub fn leak_at_exit(mut self) {
        self.solver.stop_process();
        std::mem::forget(self);
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The symbolic inputs (declared inputs, or the entry function's parameters).
    pub fn inputs(&self) -> &[Sym] {
        &self.inputs
    }

    /// The function analysed alone (`--entry`), if any.
    pub fn entry(&self) -> Option<&str> {
        self.entry.as_deref()
    }

    /// A flag that stops [`Engine::run`] and friends at the next step when set.
    pub fn cancel_handle(&self) -> Arc<AtomicBool> {
        self.cancel.clone()
    }

    /// Leaves and solver checks so far, readable from another thread during a run.
    pub fn live(&self) -> Arc<live::Live> {
        self.live.clone()
    }

    fn add_node(
        &mut self,
        parent: Option<NodeId>,
        branch: Option<Term>,
        tag: Option<Tag>,
        state: State,
        settled: Settled,
        forced: Option<Outcome>,
    ) -> NodeId {
        let depth = parent.map_or(0, |p| self.tree.node(p).depth + 1);
        let label = match (forced, &settled) {
            (None, Settled::Running) if self.contract_call(&state) => Some(label::CALL_CHOICE),
            (None, Settled::Running) => label::open(&state),
            (Some(o), _) | (None, &Settled::Done { outcome: o, .. }) => parent
                .zip(tag.as_ref())
                .and_then(|(p, t)| label::leaf(t, &self.tree.node(p).state, o)),
        };
        let (kind, return_value, exception_at, invariant_failure) = match (forced, settled) {
            (Some(o), _) => (NodeKind::Leaf(o), None, None, false),
            (None, Settled::Running) => (NodeKind::Open, None, None, false),
            (
                None,
                Settled::Done {
                    outcome,
                    return_value,
                    exception_at,
                    invariant,
                },
            ) => (
                NodeKind::Leaf(outcome),
                return_value,
                exception_at,
                invariant,
            ),
        };
        if matches!(kind, NodeKind::Leaf(_)) {
            self.live.leaf_added();
        }
        self.tree.add(Node {
            id: NodeId(0),
            parent,
            children: Box::default(),
            depth,
            kind,
            branch,
            tag,
            state: Rc::new(state),
            details: Details {
                return_value,
                exception_at,
                unknown_reason: None,
                label,
                invariant_failure,
            }
            .boxed(),
        })
    }

    /// Step an open node: apply one transition, add its feasible successors as children.
    /// Returns the children (empty for a node that is not open, or when the step was
    /// cancelled through [`Engine::cancel_handle`]: the node then stays open).
    pub fn step(&mut self, id: NodeId) -> Vec<NodeId> {
        self.cancel.store(false, Ordering::Relaxed);
        let cancel = self.cancel.clone();
        crate::solver::interruptible(&cancel, || self.step_inner(id))
    }

    fn step_inner(&mut self, id: NodeId) -> Vec<NodeId> {
        if !self.tree.node(id).is_open() {
            return Vec::new();
        }
        let state = self.tree.node(id).state.clone();
        self.tree.node_mut(id).kind = NodeKind::Inner;
        let opaque_call = !self.config.frames
            && matches!(
                step::next_action(&state),
                Some(step::Action::Instr(i)) if matches!(i.kind, InstrKind::Call { .. })
            );
        let mut dropped = Vec::new();
        let children = if opaque_call {
            self.successors_opaque(&state, &mut dropped)
        } else {
            #[cfg(test)]
            let record = self.recorded.is_some().then_some(&mut dropped);
            #[cfg(not(test))]
            let record = None;
            self.successors(&state, record)
        };
        if children
            .iter()
            .any(|c| c.unknown_reason == Some(Unknown::Interrupted))
        {
            // Cancelled in the middle of a Z3 check: the step did not happen.
            self.tree.node_mut(id).kind = NodeKind::Open;
            return Vec::new();
        }
        #[cfg(test)]
        if !opaque_call {
            if let Some(r) = self.recorded.as_mut() {
                r.insert(id, std::mem::take(&mut dropped));
            }
        }
        if !dropped.is_empty() {
            self.opaque_pruned.insert(id, dropped);
        }
        let base = state.pc.len();
        let ids: Vec<NodeId> = children
            .into_iter()
            .map(|c| {
                // The edge condition: what the step added to the path condition.
                let added = c.state.pc.newest(c.state.pc.len().saturating_sub(base));
                let branch = (!added.is_empty()).then(|| Term::and_all(added));
                let reason = c.unknown_reason;
                let leaf =
                    self.add_node(Some(id), branch, Some(c.tag), c.state, c.settled, c.forced);
                if let Some(r) = reason {
                    self.tree.node_mut(leaf).details_mut().unknown_reason = Some(r.to_string());
                }
                leaf
            })
            .collect();
        self.fold_attach(id, &ids, opaque_call); // fold (issue 15): record the fold's exits
        self.fold_fallbacks(&ids); // issue 31: an undecided leaf below a fold: unroll instead
        ids
    }

    /// Does the open node `id` sit at a `while` with invariants, where both transitions
    /// exist (apply the invariant, or unroll once; see [`Engine::step_with`])?
    pub fn loop_choice(&self, id: NodeId) -> bool {
        self.tree.node(id).is_open() && self.at_annotated_loop(id)
    }

    /// Does node `id` (stepped or not) sit at a `while` with invariants, where a step
    /// depends on the [`LoopMode`]? (A saved session records the mode of such steps.)
    pub fn at_annotated_loop(&self, id: NodeId) -> bool {
        matches!(
            step::next_action(&self.tree.node(id).state),
            Some(step::Action::Instr(i))
                if matches!(i.kind, InstrKind::While { abstraction: Some(_), .. })
        )
    }

    /// Step like [`Engine::step`], but apply `mode` at a loop with invariants, whatever
    /// [`Config::loops`] says (the default for [`Engine::step`] and the runs).
    pub fn step_with(&mut self, id: NodeId, mode: LoopMode) -> Vec<NodeId> {
        let saved = std::mem::replace(&mut self.config.loops, mode);
        let children = self.step(id);
        self.config.loops = saved;
        children
    }

    /// The feasible successors of a settled state (one transition), settled. With
    /// `dropped`: the alternatives found infeasible are recorded there.
    fn successors(
        &mut self,
        state: &State,
        mut dropped: Option<&mut Vec<why::Dropped>>,
    ) -> Vec<Child> {
        // fold (issue 15): a loop head whose path has a template steps to the fold's exits.
        if let Some(children) = self.fold_successors(state) {
            return children;
        }
        let result = {
            let stepper = Stepper {
                cx: eval::Context::new(&self.ir, &self.locals, &self.input_names),
                config: &self.config,
                types: &self.types,
            };
            let result = stepper.step(state);
            if let Some(reason) = stepper.cx.limit.take() {
                // The step would build a term past the engine's limits: it does not
                // happen; the path ends here, undecided.
                return vec![Child {
                    tag: Tag::Limit,
                    state: state.clone(),
                    settled: Settled::Running,
                    forced: Some(Outcome::Unknown),
                    unknown_reason: Some(Unknown::Other(reason)),
                }];
            }
            result
        };
        self.pc_index.align(&state.pc);
        let mut tally = forks::Tally::new(state, result.succs.iter().map(|s| &s.cond));
        let n = result.succs.len();
        let mut all_unsat = true;
        let mut children = Vec::new();
        for (k, succ) in result.succs.into_iter().enumerate() {
            // The child's path condition (as `state.pc.and(cond)`, without its walk).
            let present = succ.cond.is_true() || self.pc_index.contains(&succ.cond);
            let pc = if present {
                state.pc.clone()
            } else {
                state.pc.push(succ.cond.clone())
            };
            let sat = if present {
                SatResult::Sat
            } else if succ.cond.is_false() || self.pc_index.contains(&Term::not(succ.cond.clone()))
            {
                SatResult::Unsat
            } else if result.exhaustive && k + 1 == n && all_unsat {
                // The parent is feasible and the successors partition it.
                SatResult::Sat
            } else {
                self.solver.check_pc(&pc)
            };
            let mut st = succ.state;
            st.pc = pc;
            let tag = succ.tag;
            let child = |st, settled, forced, unknown_reason| Child {
                tag: tag.clone(),
                state: st,
                settled,
                forced,
                unknown_reason,
            };
            match sat {
                SatResult::Unsat => {
                    if let Some(t) = tally.as_mut().filter(|_| !succ.cond.is_false()) {
                        let mut st = st.clone();
                        let running = succ.forced.is_none()
                            && matches!(self.settle(&mut st), Settled::Running);
                        t.pruned(&st, running);
                    }
                    // An assumption that closes the path leaves one visible leaf.
                    if !result.exhaustive && succ.forced.is_none() && st.abrupt.is_none() {
                        children.push(child(st, Settled::Running, Some(Outcome::Infeasible), None));
                    } else if let Some(d) = dropped.as_deref_mut() {
                        d.push(why::Dropped {
                            tag,
                            cond: succ.cond,
                            pc: state.pc.clone(),
                            at: step::action_span(state),
                        });
                    }
                }
                SatResult::Unknown(reason) => {
                    all_unsat = false;
                    children.push(child(
                        st,
                        Settled::Running,
                        Some(Outcome::Unknown),
                        Some(reason),
                    ));
                }
                SatResult::Sat => {
                    all_unsat = false;
                    let settled = if succ.forced.is_some() {
                        Settled::Running
                    } else {
                        self.settle(&mut st)
                    };
                    children.push(child(st, settled, succ.forced, None));
                }
            }
        }
        if let Some(mut t) = tally {
            let running = |c: &Child| c.forced.is_none() && matches!(c.settled, Settled::Running);
            for c in &children {
                t.feasible(&c.state, running(c));
            }
            t.apply(
                children
                    .iter_mut()
                    .map(|c| (running(c), &mut c.state))
                    .map(|(r, s)| (s, r)),
            );
        }
        children
    }

    /// Settle a new node's state ([`step::settle_in`]: also past the temporaries that
    /// change nothing visible).
    fn settle(&self, state: &mut State) -> Settled {
        let cx = eval::Context::new(&self.ir, &self.locals, &self.input_names);
        step::settle_in(&cx, state)
    }

    /// The book's opaque call: the whole callee runs inside one step; the children are the
    /// states in which the paths are back in the caller (or ended).
    /// The children keep the call step's tag; what was dropped inside goes to `dropped`.
    fn successors_opaque(&mut self, state: &State, dropped: &mut Vec<why::Dropped>) -> Vec<Child> {
        let depth = state.frames.len();
        let mut done = Vec::new();
        let mut work = self.successors(state, Some(dropped));
        work.reverse();
        while let Some(c) = work.pop() {
            let inside = c.forced.is_none()
                && matches!(c.settled, Settled::Running)
                && c.state.frames.len() > depth;
            if !inside {
                done.push(c);
                continue;
            }
            if self.cancel.load(Ordering::Relaxed) {
                // Leave the rest visible as open paths inside the callee.
                done.push(c);
                continue;
            }
            let mut next = self.successors(&c.state, Some(dropped));
            for n in &mut next {
                n.tag = c.tag.clone();
            }
            next.reverse();
            work.extend(next);
        }
        done
    }

    /// Explore the subtree under `from` with `limits`, not stepping beyond nodes for which
    /// `stop` holds (they stay open). Returns why it stopped.
    pub fn run_until(
        &mut self,
        from: NodeId,
        limits: Limits,
        stop: &dyn Fn(&Node) -> bool,
    ) -> Stop {
        self.run_with(from, limits, stop, &|_| {})
    }

    /// [`Engine::run_until`] reporting progress: `progress` gets the tree's node count
    /// after every step.
    pub fn run_with(
        &mut self,
        from: NodeId,
        limits: Limits,
        stop: &dyn Fn(&Node) -> bool,
        progress: &dyn Fn(usize),
    ) -> Stop {
        self.explore(from, limits, stop, &|_| false, progress).1
    }

    /// Explore like [`Engine::run`] until a step creates a node for which `target` holds
    /// (e.g. the first exception leaf): returns it, or `Err` with why the exploration
    /// stopped without finding one.
    pub fn run_to(
        &mut self,
        from: NodeId,
        limits: Limits,
        target: &dyn Fn(&Node) -> bool,
    ) -> Result<NodeId, Stop> {
        match self.explore(from, limits, &|_| false, target, &|_| {}) {
            (Some(found), _) => Ok(found),
            (None, stop) => Err(stop),
        }
    }

    /// The exploration loop of [`Engine::run_until`] and [`Engine::run_to`].
    fn explore(
        &mut self,
        from: NodeId,
        limits: Limits,
        stop: &dyn Fn(&Node) -> bool,
        target: &dyn Fn(&Node) -> bool,
        progress: &dyn Fn(usize),
    ) -> (Option<NodeId>, Stop) {
        self.cancel.store(false, Ordering::Relaxed);
        let cancel = self.cancel.clone();
        crate::solver::interruptible(&cancel, || {
            self.explore_inner(from, limits, stop, target, progress)
        })
    }

    fn explore_inner(
        &mut self,
        from: NodeId,
        limits: Limits,
        stop: &dyn Fn(&Node) -> bool,
        target: &dyn Fn(&Node) -> bool,
        progress: &dyn Fn(usize),
    ) -> (Option<NodeId>, Stop) {
        let started = Instant::now();
        let mut work: std::collections::VecDeque<NodeId> = self
            .tree
            .subtree(from)
            .into_iter()
            .filter(|&n| self.tree.node(n).is_open() && (n == from || !stop(self.tree.node(n))))
            .collect();
        loop {
            let next = match limits.strategy {
                Strategy::Dfs => work.pop_back(),
                Strategy::Bfs => work.pop_front(),
            };
            let Some(id) = next else {
                // A step cancelled inside a Z3 check leaves its node open, not explored.
                if self.cancel.load(Ordering::Relaxed) {
                    return (None, Stop::Cancelled);
                }
                return (None, Stop::Done);
            };
            if self.cancel.load(Ordering::Relaxed) {
                return (None, Stop::Cancelled);
            }
            if limits.max_nodes.is_some_and(|m| self.tree.len() >= m) {
                return (None, Stop::NodeLimit);
            }
            if limits.time.is_some_and(|t| started.elapsed() >= t) {
                return (None, Stop::TimeLimit);
            }
            // (a directed search: no exception leaf under `id`, left open)
            self.directed_tick(from);
            if self.prune.is_some() && !self.may_fail(id) {
                continue;
            }
            let children = self.step_inner(id);
            self.live.set_solver_checks(self.solver.stats().checks);
            progress(self.tree.len());
            if let Some(&found) = children.iter().find(|c| target(self.tree.node(**c))) {
                return (Some(found), Stop::Done);
            }
            // Issue 31: a fold's fallback (made by this step) is explored too, after the
            // children, where it lies in the explored subtree.
            let fallbacks = self.take_fresh_fallbacks();
            let open = |n: &NodeId| {
                let node = self.tree.node(*n);
                node.is_open() && !stop(node)
            };
            let inside = |n: &NodeId| self.tree.path(*n).contains(&from);
            match limits.strategy {
                Strategy::Dfs => work.extend(fallbacks.iter().filter(|n| open(n) && inside(n))),
                Strategy::Bfs => {}
            }
            match limits.strategy {
                // DFS: a stack; push in reverse so the first child is explored first.
                Strategy::Dfs => work.extend(children.iter().rev().filter(|n| open(n))),
                // BFS: a queue.
                Strategy::Bfs => work.extend(children.iter().filter(|n| open(n))),
            }
            if limits.strategy == Strategy::Bfs {
                work.extend(fallbacks.iter().filter(|n| open(n) && inside(n)));
            }
        }
    }

    /// Explore the whole subtree under `from` within the limits.
    pub fn run(&mut self, from: NodeId, limits: Limits) -> Stop {
        self.run_until(from, limits, &|_| false)
    }

    /// The path condition at a node, oldest conjunct first.
    pub fn path_condition(&self, id: NodeId) -> Vec<Term> {
        self.tree.node(id).state.pc.to_vec()
    }

    /// The visible store at a node: the innermost frame's variables (module variables in
    /// module code), without IR temporaries. At a leaf that ended its path: the module's
    /// variables, wherever the path ended (DESIGN §3; a `halt` inside a function leaves its
    /// frame on the stack). A leaf that cut its path inside a call (`bound`, `unknown`) is
    /// still in that call, like an open node there: the call's locals.
    pub fn store(&self, id: NodeId) -> Vec<(String, Term)> {
        self.store_entries(id)
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    /// [`Engine::store`] without copies: names in order, values.
    pub fn store_entries(&self, id: NodeId) -> impl Iterator<Item = (&Rc<str>, &Term)> {
        let node = self.tree.node(id);
        let state = &node.state;
        let cut = matches!(node.kind, NodeKind::Leaf(Outcome::Bound | Outcome::Unknown));
        let env = match state.frames.last() {
            Some(f) if f.func.is_some() && (cut || !node.is_leaf()) => &f.locals,
            _ => &state.globals,
        };
        env.iter().filter(|(k, _)| !ir::is_temp(k))
    }

    /// What the path printed before node `id`, line by line (each line its items).
    pub fn output(&self, id: NodeId) -> Vec<Rc<[Term]>> {
        self.tree.node(id).state.output.lines()
    }

    /// The call stack at a node, outermost first: `<module>`, then function names.
    pub fn frames(&self, id: NodeId) -> Vec<String> {
        let state = self.frames_state(id);
        state
            .frames
            .iter()
            .map(|f| f.func.as_deref().unwrap_or("<module>").to_string())
            .collect()
    }

    /// Every frame with its visible locals (for the call-stack view).
    pub fn frame_locals(&self, id: NodeId) -> Vec<(String, Vec<(String, Term)>)> {
        let state = self.frames_state(id);
        // A recursion fold's frame stands for κ + 1 frames (`f ×κ1`, issue 27).
        let folded = fold::recursion::folded_frames(state);
        state
            .frames
            .iter()
            .zip(folded)
            .map(|(f, folded)| {
                let env = if f.func.is_some() {
                    &f.locals
                } else {
                    &state.globals
                };
                let vars = env
                    .iter()
                    .filter(|(k, _)| !ir::is_temp(k))
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect();
                let name = f.func.as_deref().unwrap_or("<module>");
                let name = match folded {
                    Some(k) => format!("{name} ×{k}"),
                    None => name.to_string(),
                };
                (name, vars)
            })
            .collect()
    }

    /// Concrete inputs that reach exactly this node (any node, not only leaves), with the
    /// store evaluated under them. `None` if the path is infeasible or undecided.
    pub fn model(&mut self, id: NodeId) -> Option<NodeModel> {
        self.try_model(id).ok()
    }

    /// Like [`Engine::model`], with the reason when there is none.
    pub fn try_model(&mut self, id: NodeId) -> Result<NodeModel, NoModel> {
        self.cancel.store(false, Ordering::Relaxed);
        let cancel = self.cancel.clone();
        crate::solver::interruptible(&cancel, || self.model_inner(id))
    }

    fn model_inner(&mut self, id: NodeId) -> Result<NodeModel, NoModel> {
        let store: Vec<(Rc<str>, Term)> = self
            .store_entries(id)
            .map(|(k, t)| (k.clone(), t.clone()))
            .collect();
        self.model_with_store(id, store)
    }

    /// A model of `id` with `store` (name, term; its symbols those of `id`'s path) evaluated.
    fn model_with_store(
        &mut self,
        id: NodeId,
        store: Vec<(Rc<str>, Term)>,
    ) -> Result<NodeModel, NoModel> {
        let rv = self.tree.node(id).return_value().cloned();
        let output = self.output(id);
        let printed = output.iter().flat_map(|l| l.iter());
        let model = self.node_model(
            id,
            store.iter().map(|(_, t)| t).chain(rv.iter()).chain(printed),
        )?;
        Ok(self.evaluate(&model, &store, rv.as_ref(), &output))
    }

    /// A model of node `id`'s path condition that values the inputs and every symbol of the
    /// path condition and of `terms`; `Err`: why there is none (infeasible, the solver's or the leaf's
    /// `unknown` reason). (The one model query behind [`Engine::try_model`], `:` and `=`.)
    pub(crate) fn node_model<'a>(
        &mut self,
        id: NodeId,
        terms: impl Iterator<Item = &'a Term>,
    ) -> Result<Model, NoModel> {
        let node = self.tree.node(id);
        match node.kind {
            NodeKind::Leaf(Outcome::Infeasible) => return Err(NoModel::Infeasible),
            NodeKind::Leaf(Outcome::Unknown) => {
                let reason = node.unknown_reason().unwrap_or("unknown");
                return Err(NoModel::Unknown(Unknown::from(reason)));
            }
            _ => {}
        }
        let pc = self.path_condition(id);
        let mut syms: BTreeSet<Sym> = self.inputs.iter().cloned().collect();
        pc.iter().for_each(|t| t.vars(&mut syms));
        terms.for_each(|t| t.vars(&mut syms));
        let syms: Vec<Sym> = syms.into_iter().collect();
        self.solver.try_model(&pc, &syms).map_err(|r| match r {
            SatResult::Unknown(reason) => NoModel::from(reason),
            SatResult::Unsat | SatResult::Sat => NoModel::Infeasible,
        })
    }

    /// The inputs' values in `model` (an input it leaves free: its type's default).
    pub(crate) fn input_values(&self, model: &Model) -> BTreeMap<String, Value> {
        self.inputs
            .iter()
            .map(|s| {
                let v = model
                    .values
                    .get(s)
                    .cloned()
                    .unwrap_or_else(|| Value::default_of(s.sort.to_type()));
                (s.name.to_string(), v)
            })
            .collect()
    }

    pub(crate) fn evaluate(
        &self,
        model: &Model,
        store: &[(Rc<str>, Term)],
        rv: Option<&Term>,
        output: &[Rc<[Term]>],
    ) -> NodeModel {
        let inputs = self.input_values(model);
        let store = store
            .iter()
            .filter_map(|(k, t)| model.eval(t).map(|v| (k.to_string(), v)))
            .collect();
        let havoc = model
            .values
            .iter()
            .filter(|(s, _)| !self.input_names.contains(&*s.name))
            .map(|(s, v)| (s.name.to_string(), v.clone()))
            .collect();
        NodeModel {
            inputs,
            havoc,
            store,
            return_value: rv.and_then(|t| model.eval(t)),
            stdout: stdout_under(model, output),
        }
    }

    /// Node and solver counters.
    pub fn stats(&self) -> Stats {
        let mut s = Stats {
            nodes: self.tree.len(),
            solver: self.solver.stats(),
            folds: self.fold_count(),
            ..Stats::default()
        };
        for n in self.tree.nodes() {
            match n.kind {
                NodeKind::Open => s.open += 1,
                NodeKind::Leaf(o) => {
                    s.leaves += 1;
                    match o {
                        Outcome::Exception(_) => s.exceptions += 1,
                        Outcome::Bound => s.bounds += 1,
                        _ => {}
                    }
                }
                NodeKind::Inner => {}
            }
        }
        s
    }

    /// The node whose call stack was active when `id`'s exception was raised: an exception
    /// leaf has left the frames it was raised in, its parent (whose step raised it) has not.
    /// Any other node, or an exception leaf a fold's exit raised (it keeps the state at
    /// the raise: [`Engine::frames_state`]): itself.
    pub fn raise_node(&self, id: NodeId) -> NodeId {
        let n = self.tree.node(id);
        if self.fold_exit(id).is_some_and(|e| e.raised.is_some()) {
            return id;
        }
        match (n.kind, n.parent) {
            (NodeKind::Leaf(Outcome::Exception(_)), Some(p)) => p,
            _ => id,
        }
    }

    /// The source span a node is about to run, or where its exception was raised.
    pub fn node_span(&self, id: NodeId) -> Option<Span> {
        let n = self.tree.node(id);
        n.at().or(n.exception_at())
    }
}
