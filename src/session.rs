//! The session layer: one [`Session`] per program, between the engine and every client
//! (the `run`/`check` commands, the TUI's worker, tests), in the role of rust-analyzer's
//! `ide` crate.
//!
//! A session is built once from a file's text ([`Loaded::new`], then [`Session::new`], or
//! both at once with [`Session::open`]): the source and its [`SourceMap`], the AST, the
//! type information, the IR, the [`Engine`] with its entry choice and configuration. Clients
//! never thread `(ast, types, ir)` tuples around: they ask the session.
//!
//! The session owns what every client would otherwise re-derive:
//! - run policies ([`run`]): one step, continue along a path, step over, finish the frame,
//!   run to a line, the whole subtree, to the first exception leaf; with a progress
//!   callback, and results that keep "cancelled" apart from "no successors";
//! - one plain-data view of a node ([`view`]) that the tree text, DOT, JSON and the TUI
//!   print;
//! - "why" ([`why`]): provenance, pruned branches and explanations joined with lines,
//!   cached per node and target;
//! - one replay of a model in the concrete interpreter, checked against the node
//!   ([`replay`]), used by `check`, `run --counterexamples` and the TUI;
//! - a person's minipy expression evaluated at a node ([`eval`]): the debugger's `:`, its
//!   watches and conditional breakpoints.
//!
//! Architecture invariants: the session does no IO (no files, terminal or clock: progress
//! is reported as node counts, the caller decides when to show it) and never imports the
//! front-ends (`cli`, `tui`), which build their views only through it.

pub mod coverage;
pub mod cuts;
pub mod details;
pub mod diff;
pub mod eval;
mod fallback;
pub mod fold;
pub mod fold_params;
pub mod fold_text;
pub mod frame;
pub mod json_texts;
pub mod locate;
pub mod nodes;
pub mod oracle;
pub mod program;
pub mod readable;
/// Terms below a fold normalised for display (issue 27).
mod readable_fold;
pub mod replay;
pub mod resume;
pub mod row;
pub mod run;
pub mod saved;
pub mod solver_process;
pub mod tree_stats;
pub mod value_origins;
pub mod view;
pub mod vocab;
pub mod why;

use std::rc::Rc;

use crate::base::SourceMap;
use crate::diagnostics::Diagnostic;
use crate::engine::Engine;
use crate::lang::{Program, TypeInfo};
use crate::transform::ir;

pub use coverage::{BranchCoverage, Coverage, LineCoverage};
pub use diff::{Behaviour, DiffReport, Difference};
pub use eval::{parse_expression, CondHolds, Evaluation, Raise, Truth};
pub use fold::{Instance, Refolded};
pub use fold_params::FoldParam;
pub use fold_text::FoldJson;
pub use locate::Location;
pub use oracle::{Candidate, Hits, LeafValues};
pub use readable::Shown;
pub use readable_fold::shown as term_shown;
pub use replay::{kappa_limit, Replay, ReplayError, Verdict};
pub use resume::{ExcStop, Hit, Stops};
pub use run::{Ended, Policy, Ran, Stepped};
pub use saved::{FrontierStep, Replayed, StepKind};
pub use value_origins::{OriginLink, StoreOrigin};
pub use view::{call_mark, Form, NodeView};
pub use vocab::*;
pub use why::{ConjunctOrigin, CoreEntry, Explained, HardPart, PrunedBranch, Why, WhyTarget};
// What the TUI's worker sends its UI: rows, details, counters, the store pane's frame.
pub use details::{Details, PrunedShown};
pub use frame::PathFold;
pub use row::{FoldMark, NodeRow};
pub use tree_stats::TreeStats;

/// A program read, checked and lowered: everything of a session but the engine.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub source: SourceMap,
    pub program: Program,
    pub types: TypeInfo,
    pub ir: Rc<ir::Program>,
}

impl Loaded {
    /// Parse, type-check and lower the file's text (every diagnostic if it is malformed).
    pub fn new(source: SourceMap) -> Result<Loaded, Vec<Diagnostic>> {
        let (program, types, ir) = crate::transform::load(&source.text)?;
        Ok(Loaded {
            source,
            program,
            types,
            ir,
        })
    }

    /// Add the `--assume` preconditions `texts` for a run of `entry` (see
    /// [`crate::lang::assume`]); they replace any given before. On error (a malformed,
    /// ill-typed or out-of-scope expression) the program is unchanged, and the diagnostics
    /// render against `self.source`, which knows the texts.
    pub fn assume(&mut self, entry: Option<&str>, texts: &[String]) -> Result<(), Vec<Diagnostic>> {
        self.source.assumptions = texts.to_vec();
        let mut base = self.program.clone();
        base.preconditions.clear();
        let (program, types) = crate::lang::assume::apply(&base, entry, texts)?;
        let ir = crate::transform::lower(&program)?;
        self.program = program;
        self.types = types;
        self.ir = Rc::new(ir);
        Ok(())
    }

    /// The `--assume` expressions in force, `#1` first.
    pub fn assumptions(&self) -> &[String] {
        &self.source.assumptions
    }

    /// With `--entry f`: the warning when the module's top level reads a declared input
    /// (an import leaves it unbound, so the run ends in `NameError` there).
    pub fn entry_warning(&self, entry: Option<&str>) -> Option<String> {
        crate::lang::entry::import_warning(&self.program, entry?, &self.source)
    }

    /// Without `--entry`, on a module that only defines functions: the note that no code
    /// runs and which `--entry` names to try ([`crate::lang::entry::no_module_code`]).
    pub fn entry_hint(&self, entry: Option<&str>) -> Option<String> {
        match entry {
            Some(_) => None,
            None => crate::lang::entry::no_module_code(&self.program),
        }
    }
}

/// One program under analysis: source, AST, types, IR and the engine growing its tree.
pub struct Session {
    loaded: Loaded,
    engine: Engine,
    /// Explanations computed so far ([`why`]).
    why_cache: why::WhyCache,
    /// Evaluations and breakpoint conditions answered so far ([`eval`]).
    eval_cache: eval::EvalCache,
    /// The transition a person picked at annotated loops ([`saved`]).
    choices: saved::Choices,
    /// Replays of `--recursion` cuts so far ([`cuts`]).
    cut_replays: cuts::Replays,
    /// Value origins found so far ([`value_origins`]).
    origin_memo: std::cell::RefCell<crate::engine::origin::OriginMemo>,
    /// Coverage's answers about folded paths so far ([`coverage`]).
    fold_memo: coverage::FoldMemo,
}

impl Session {
    /// Build the engine for a loaded program (a diagnostic if the entry function does not
    /// exist or may not be analysed alone).
    pub fn new(
        loaded: Loaded,
        entry: Option<&str>,
        config: Config,
    ) -> Result<Session, Vec<Diagnostic>> {
        let engine = Engine::new(
            &loaded.program,
            loaded.types.clone(),
            Rc::clone(&loaded.ir),
            entry,
            config,
        )
        .map_err(|d| vec![d])?;
        Ok(Session {
            loaded,
            engine,
            why_cache: why::WhyCache::default(),
            eval_cache: eval::EvalCache::default(),
            choices: saved::Choices::default(),
            cut_replays: cuts::Replays::default(),
            origin_memo: Default::default(),
            fold_memo: Default::default(),
        })
    }

    /// [`Loaded::new`] and [`Session::new`] in one go.
    pub fn open(
        source: SourceMap,
        entry: Option<&str>,
        config: Config,
    ) -> Result<Session, Vec<Diagnostic>> {
        Session::new(Loaded::new(source)?, entry, config)
    }

    pub fn source(&self) -> &SourceMap {
        &self.loaded.source
    }

    pub fn program(&self) -> &Program {
        &self.loaded.program
    }

    pub fn types(&self) -> &TypeInfo {
        &self.loaded.types
    }

    pub fn ir(&self) -> &ir::Program {
        &self.loaded.ir
    }

    pub fn tree(&self) -> &Tree {
        self.engine.tree()
    }

    /// End the session without freeing it, for a command-line run that exits right after
    /// its output is written: the operating system takes the memory back at once, where
    /// freeing a tree of a million nodes one allocation at a time took a quarter of the run
    /// (issue 30). The solver process of hard queries, if any, is still ended and reaped.
    /// Not for the terminal UI or the DAP server (they go on after a session).
    pub fn leak_at_exit(self) {
        let Session {
            loaded,
            engine,
            why_cache,
            eval_cache,
            choices,
            cut_replays,
            origin_memo,
            fold_memo,
        } = self;
        engine.leak_at_exit();
        std::mem::forget((
            loaded,
            why_cache,
            eval_cache,
            choices,
            cut_replays,
            origin_memo,
            fold_memo,
        ));
    }

    pub fn config(&self) -> &Config {
        self.engine.config()
    }

    /// Minimise models within `budget` (at most the time limit of one solver call) instead
    /// of the 250 ms default, so that a printed model does not depend on the load.
    pub fn set_minimize_budget(&mut self, budget: std::time::Duration) {
        self.engine.set_minimize_budget(budget);
    }

    /// The function analysed alone (`--entry`), if any.
    pub fn entry(&self) -> Option<&str> {
        self.engine.entry()
    }

    /// See [`Loaded::entry_warning`].
    pub fn entry_warning(&self) -> Option<String> {
        self.loaded.entry_warning(self.entry())
    }

    /// The 1-based line of the statement a node is about to run (`None` at leaves).
    pub fn statement_line(&self, id: NodeId) -> Option<usize> {
        self.tree()
            .node(id)
            .at()
            .map(|s| self.source().line(s.start))
    }

    /// The 1-based line of a node's statement, or of where its exception was raised.
    pub fn node_line(&self, id: NodeId) -> Option<usize> {
        self.engine
            .node_span(id)
            .map(|s| self.source().line(s.start))
    }
}

#[cfg(test)]
mod tests;
