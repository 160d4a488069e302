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

mod config;
/// Contracts at calls: the choice, abstract nodes, contract failures (issue 28).
mod contract;
/// The first exception leaf whatever the branch order (issue 30 item 1).
mod directed;
mod discriminate;
mod eval;
pub mod explain;
mod explore;
/// Compact symbolic execution: loops folded with a parameter κ (issue 15).
pub mod fold;
/// Which loop iterations count against `--unroll` (issue 23 item 16).
mod forks;
mod grow;
pub mod inspect;
pub mod label;
pub mod live;
mod models;
mod no_model;
pub mod origin;
mod read;
pub mod state;
mod step;
pub mod tag;
pub mod tree;
mod why;

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::diagnostics::Diagnostic;
use crate::lang::{self, TypeInfo};
use crate::solver::{Solver, SolverConfig, Unknown};
use crate::term::{Sym, Term};
use crate::transform::ir;
pub use config::{CallMode, Config, Limits, LoopMode, Stats, Stop, Strategy};
pub use models::{stdout_under, NodeModel};
pub use no_model::NoModel;
use state::{Cont, Frame, Kont, PathCondition, State};
use step::Settled;
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

/// A successor state, checked and settled, before it becomes a node.
struct Child {
    /// Which way the step went (under an opaque call: the call step's way).
    tag: Tag,
    state: State,
    settled: Settled,
    forced: Option<Outcome>,
    unknown_reason: Option<Unknown>,
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
}
