//! The messages between the UI thread and the engine worker: plain owned data.
//!
//! The engine is `!Send` (it shares states through `Rc` and owns Z3 objects), so it lives
//! on the worker thread; the UI sends [`Cmd`]s and receives [`Reply`]s that hold only
//! strings and numbers. Node ids are the engine's creation indices (`u32`).

use super::carry::Carry;
use super::program_file::Stamp;
pub use crate::base::Outcome;
use crate::engine::LoopMode;
use crate::session::{Evaluation, ExcStop};

/// UI → worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// Step one open node (the default transition).
    Step(u32),
    /// Step a node at an annotated loop with the chosen transition.
    StepWith(u32, LoopMode),
    /// `F`: step an open loop head folded (`--fold off`) or classically (`--fold auto`).
    Refold(u32),
    /// `=`: the node with its fold's κ := the number typed (answered with `Instance`,
    /// then `Done`).
    Instantiate(u32, String),
    /// Step, then run until the paths are back in the node's frame.
    StepOver(u32),
    /// Run until the paths have left the node's frame.
    Finish(u32),
    /// Explore the subtree to the first node on any path at one of `lines` or an exception
    /// leaf `exceptions` asks for, walking past the hits in `seen` (`Session::resume`).
    Resume {
        from: u32,
        lines: Vec<usize>,
        /// Conditions of some of `lines`: (line, minipy condition).
        conditions: Vec<(usize, String)>,
        exceptions: ExcStop,
        /// Exceptions that stop where a handler catches them (`!`, gdb's `catch throw`).
        caught: ExcStop,
        /// Run to cursor (`H`): this line stops the search too, without a breakpoint.
        until: Option<usize>,
        seen: Vec<u32>,
        bfs: bool,
    },
    /// Where a breakpoint typed at the `+` prompt goes (a line number or a function's
    /// name; `Session::locate`). Answered with `Located`.
    Locate(String),
    /// Run the whole subtree within the bounds.
    Run(u32),
    /// Path condition, store and call stack of a node.
    Details(u32),
    /// A model (concrete inputs) that reaches the node.
    Model(u32),
    /// Run the concrete interpreter on the node's model and compare.
    Replay(u32),
    /// Write pytest tests for the leaf (or every explored leaf): answered with `Done`.
    Tests(u32),
    /// Explain an infeasible/unknown leaf (`pruned: None`) or the node's k-th pruned
    /// branch: answered with `Why`, then `Done`.
    Why { node: u32, pruned: Option<usize> },
    /// The pruned branches of these stepped nodes (no solver call): the tree's ghost rows
    /// (`p`). Answered with `Pruned`.
    Pruned(Vec<u32>),
    /// Start again from the root with these `--assume` preconditions (all of them, `#1`
    /// first; `a` adds one, `A` removes): answered with `Assumed`, then (when they are
    /// accepted) `Ready` with the new tree, and `Done`. `rerun`: explore the new tree's
    /// whole subtree at once (the old tree had been explored).
    Assume { texts: Vec<String>, rerun: bool },
    /// Evaluate minipy expressions at a node in the frame `up` frames out from the
    /// innermost (`:` and the watches; `Session::evaluate`). Answered with `Evaluated`.
    Evaluate {
        node: u32,
        up: usize,
        exprs: Vec<String>,
    },
    /// Does a breakpoint condition type-check on its line? Answered with `Condition`.
    CheckCondition { line: usize, text: String },
    /// Does a watch type-check in some scope of the program (`W`)? Answered with
    /// `WatchChecked`.
    CheckWatch { text: String },
    /// Read the program file again and rebuild the session (`L`), keeping the settings
    /// and, where it still exists, the explored tree and the selection: answered with
    /// `Reloaded`, the tree, `Done`; or `LoadErrors` and `Done` (the old session stays).
    Reload { selected: u32, carry: Carry },
    /// Write the session file (`S`): answered with `Done`.
    Save { selected: u32, carry: Carry },
    /// Read the session file given with `--session` and replay it: answered with `Carry`,
    /// the tree, `Done` (or just `Done` saying why not).
    Restore,
}

/// How a node shows in the tree (a leaf's outcome colours it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Open,
    Inner,
    Leaf(Outcome),
}

impl Kind {
    /// The outcome of a leaf.
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            Kind::Leaf(o) => Some(*o),
            _ => None,
        }
    }

    /// Is this an exception leaf (of any class)?
    pub fn is_exception(&self) -> bool {
        matches!(self, Kind::Leaf(Outcome::Exception(_)))
    }
}

/// One node of the tree as the UI mirrors it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeInfo {
    pub id: u32,
    pub parent: Option<u32>,
    pub kind: Kind,
    /// The condition the edge from the parent added (minipy syntax), if any.
    pub branch: Option<String>,
    /// The conditions before it imply `branch` (a frame's exit label leaves it out).
    pub branch_implied: bool,
    /// The engine's label of the edge (e.g. "body preserves invariant"), if any.
    pub label: Option<String>,
    /// 1-based line of the statement about to run, or where the exception was raised.
    pub line: Option<usize>,
    /// Number of frames on the call stack (1: module code).
    pub frames: usize,
    /// The innermost frame's function (`None`: module code).
    pub func: Option<String>,
    /// What a leaf says: `normal  x = -x`, `AssertionError at line 9`, `bound`, ...
    pub summary: String,
    /// The node sits at an annotated loop (open: both transitions are offered).
    pub loop_choice: bool,
    /// Folded loops at the node (issue 15): `F` and `=`.
    pub fold: FoldMark,
}

/// What `F` and `=` can do at a node (issue 15).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FoldMark {
    /// An open node at a `while`'s condition: `F` folds or unfolds it.
    pub loop_head: bool,
    /// The node is a fold node.
    pub fold_node: bool,
    /// The κ that `=` instantiates here (`κ1`): the node's fold's or the nearest above.
    pub kappa: Option<String>,
}

/// A node with κ := n (`=`), as text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InstanceInfo {
    pub node: u32,
    /// `κ1`.
    pub kappa: String,
    pub value: String,
    /// The folded loop's line, and its fold node.
    pub loop_line: usize,
    pub fold: u32,
    /// Path condition with κ := n, oldest conjunct first.
    pub pc: Vec<String>,
    pub store: Vec<(String, String)>,
    /// A `return` leaf's value.
    pub return_value: Option<String>,
    /// `Some(false)`: n is outside the feasible range; `None`: undecided.
    pub feasible: Option<bool>,
    pub verdict: String,
}

/// Counters for the status line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StatsInfo {
    pub nodes: usize,
    pub open: usize,
    pub leaves: usize,
    pub exceptions: usize,
    pub bounds: usize,
    /// `bound` leaves cut by `--unroll` and by `--recursion` (they add up to `bounds`).
    pub cut_unroll: usize,
    pub cut_recursion: usize,
    /// Of those, how many replay concretely to a `RecursionError` (`session::cuts`).
    pub cut_recursion_error: usize,
    pub solver_checks: u64,
    pub solver_ms: u64,
}

/// Tree growth since the last delta.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    /// New nodes, in id order (parents before children).
    pub nodes: Vec<NodeInfo>,
    /// Nodes sent earlier whose kind changed (an open node that was stepped).
    pub changed: Vec<(u32, Kind)>,
    /// Nodes sent earlier whose row text changed when they were stepped (a loop head that
    /// became a fold node: its label and fold mark), whole.
    pub updated: Vec<NodeInfo>,
    pub stats: StatsInfo,
}

/// What a pane shows about one node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Details {
    pub id: u32,
    /// Path condition, oldest conjunct first, as people read it (`session::readable`:
    /// parts other parts imply dropped, bounds pairs as chains).
    pub pc: Vec<String>,
    /// Parallel to `pc`: the conjunct adds nothing to the ones before it (shown dimmed).
    pub pc_implied: Vec<bool>,
    /// The innermost frame's visible variables: name, symbolic value.
    pub store: Vec<(String, String)>,
    /// Frames outermost first, each with its locals.
    pub frames: Vec<(String, Vec<(String, String)>)>,
    /// Per frame (same order): the line it is at (a caller: its call's line).
    pub frame_lines: Vec<Option<usize>>,
    /// A line about the node (unknown reason, exception class and place, return value).
    pub note: Option<String>,
    /// Parallel to `pc`: the line of the statement that added each conjunct.
    pub origins: Vec<usize>,
    /// The infeasible alternatives of the node's step (a stepped node).
    pub pruned: Vec<PrunedInfo>,
}

/// An alternative of a step that was infeasible.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrunedInfo {
    pub branch: String,
    pub line: usize,
    /// Which way it would have gone ("then", "IndexError at 4:9").
    pub transition: String,
}

/// An explanation, for the path pane and the status line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WhyInfo {
    /// "infeasible: 2 conditions clash — line 2 (assume), line 3 (then)".
    pub summary: String,
    /// Indices into the node's path condition of the core's members.
    pub core: Vec<usize>,
    /// The pruned branch's own condition is in the core.
    pub goal_in_core: bool,
    /// What made an undecided path hard: "L7 nonlinear: x * x".
    pub features: Vec<String>,
}

/// A model at a node, values as Python literals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModelInfo {
    pub inputs: Vec<(String, String)>,
    /// Values of the symbols `havoc` made on the path (a loop's arbitrary iteration).
    pub havoc: Vec<(String, String)>,
    /// The folds on the path: (`κ1`, value, the folded loop's line); κ is the number of
    /// times the fold's path ran.
    pub kappas: Vec<(String, String, usize)>,
    /// The visible store evaluated under the model.
    pub store: Vec<(String, String)>,
    pub return_value: Option<String>,
}

/// A concrete run on the model's inputs, compared with the node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplayInfo {
    pub inputs: Vec<(String, String)>,
    /// Per variable of the node's store: name, symbolic value, value under the model at
    /// this node, value at the end of the concrete run (`None`: not in its final store).
    pub vars: Vec<ReplayVar>,
    /// How the concrete run ended, e.g. `exception AssertionError at line 9`.
    pub concrete_outcome: String,
    /// Does the concrete run follow this node's path? (with the reason)
    pub follows: bool,
    pub verdict: String,
    /// The folds on the path: `loop at line 4: κ1 = 100`, each κ the number of times the
    /// fold's path ran (with the concrete run's count if it differs).
    pub kappas: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplayVar {
    pub name: String,
    pub symbolic: String,
    pub here: Option<String>,
    pub end: Option<String>,
}

/// Worker → UI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The answer to `Locate`: the line and how the text was read, or why it is no place.
    Located(Result<crate::session::Location, String>),
    /// The engine is ready: the root and everything known.
    Ready(Delta),
    /// The tree grew.
    Delta(Delta),
    /// Long work is going on: nodes so far.
    Progress {
        nodes: usize,
    },
    /// A tree command finished: the node to select and a message for the status line.
    Done {
        select: Option<u32>,
        message: String,
    },
    Details(Details),
    /// `Err`: why there is no model (the path is infeasible, or the solver's reason such
    /// as `timeout`).
    Model(u32, Result<ModelInfo, String>),
    Replay(u32, Result<ReplayInfo, String>),
    /// An explanation (see [`Cmd::Why`]).
    Why {
        node: u32,
        pruned: Option<usize>,
        info: WhyInfo,
    },
    /// Per node asked for (see [`Cmd::Pruned`]): its pruned branches.
    Pruned(Vec<(u32, Vec<PrunedInfo>)>),
    /// The answer to [`Cmd::Assume`]: the preconditions now in force (the tree starts
    /// again at the root), or why they were refused (the old tree stays).
    Assumed(Result<Vec<String>, String>),
    /// Per expression asked for (see [`Cmd::Evaluate`]): its evaluation or the error.
    Evaluated {
        node: u32,
        up: usize,
        results: Vec<(String, Result<Evaluation, String>)>,
    },
    /// See [`Cmd::CheckCondition`]: `error` is `None` when the condition is valid.
    Condition {
        line: usize,
        text: String,
        error: Option<String>,
    },
    /// See [`Cmd::CheckWatch`]: `error` is `None` when the watch makes sense somewhere.
    WatchChecked {
        text: String,
        error: Option<String>,
    },
    /// A new session on the program's new text: the UI starts a new tree with `delta`
    /// (the root) and takes the settings (breakpoints moved with their lines).
    Reloaded {
        text: String,
        stamp: Option<Stamp>,
        carry: Carry,
        delta: Delta,
    },
    /// The settings a session file restored.
    Carry(Carry),
    /// The program on disk does not load: its diagnostics, rendered.
    LoadErrors(String),
    /// A node with κ := n (see [`Cmd::Instantiate`]).
    Instance(InstanceInfo),
}
