//! The messages between the UI thread and the engine worker: plain owned data.
//!
//! The engine is `!Send` (it shares states through `Rc` and owns Z3 objects), so it lives
//! on the worker thread; the UI sends [`Cmd`]s and receives [`Reply`]s that hold only
//! plain data: the session's views ([`NodeRow`], [`Details`], [`TreeStats`], ...),
//! strings and numbers. Nodes are named by their typed [`NodeId`]s.

use super::carry::Carry;
use super::program_file::Stamp;
pub use crate::session::Outcome;
use crate::session::{
    Details, Evaluation, ExcStop, Instance, LoopMode, NoModel, NodeId, NodeKind, NodeRow,
    OriginLink, PrunedShown, TreeStats,
};

/// UI → worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// Step one open node (the default transition).
    Step(NodeId),
    /// Step a node at an annotated loop with the chosen transition.
    StepWith(NodeId, LoopMode),
    /// Step a node at a call of a contracted function: inline it or use the contract.
    StepCall(NodeId, crate::session::CallMode),
    /// `F`: step an open loop head folded (`--fold off`) or classically (`--fold auto`).
    Refold(NodeId),
    /// `=`: the node with its fold's κ := the number typed (answered with `Instance`,
    /// then `Done`).
    Instantiate(NodeId, String),
    /// Step, then run until the paths are back in the node's frame.
    StepOver(NodeId),
    /// Run until the paths have left the node's frame.
    Finish(NodeId),
    /// Explore the subtree to the first node on any path at one of `lines` or an exception
    /// leaf `exceptions` asks for, walking past the hits in `seen` (`Session::resume`).
    Resume {
        from: NodeId,
        lines: Vec<usize>,
        /// Conditions of some of `lines`: (line, minipy condition).
        conditions: Vec<(usize, String)>,
        exceptions: ExcStop,
        /// Exceptions that stop where a handler catches them (`!`, gdb's `catch throw`).
        caught: ExcStop,
        /// Run to cursor (`H`): this line stops the search too, without a breakpoint.
        until: Option<usize>,
        seen: Vec<NodeId>,
        bfs: bool,
    },
    /// Where a breakpoint typed at the `+` prompt goes (a line number or a function's
    /// name; `Session::locate`). Answered with `Located`.
    Locate(String),
    /// Run the whole subtree within the bounds.
    Run(NodeId),
    /// `e` when the explored tree has no exception leaf: grow the tree from the node to
    /// the first exception leaf in depth-first order, without the paths before it
    /// (`Policy::FirstException`; issue 30).
    FirstException(NodeId),
    /// Path condition, store and call stack of a node.
    Details(NodeId),
    /// A model (concrete inputs) that reaches the node.
    Model(NodeId),
    /// Run the concrete interpreter on the node's model and compare.
    Replay(NodeId),
    /// Write pytest tests for the leaf (or every explored leaf): answered with `Done`.
    Tests(NodeId),
    /// Explain an infeasible/unknown leaf (`pruned: None`) or the node's k-th pruned
    /// branch: answered with `Why`, then `Done`.
    Why { node: NodeId, pruned: Option<usize> },
    /// The pruned branches of these stepped nodes (no solver call): the tree's ghost rows
    /// (`p`). Answered with `Pruned`.
    Pruned(Vec<NodeId>),
    /// `O`: the origin chain of every variable of the node's store pane (no solver).
    /// Answered with `Origins`.
    Origins(NodeId),
    /// Start again from the root with these `--assume` preconditions (all of them, `#1`
    /// first; `a` adds one, `A` removes): answered with `Assumed`, then (when they are
    /// accepted) `Ready` with the new tree, and `Done`. `rerun`: explore the new tree's
    /// whole subtree at once (the old tree had been explored).
    Assume { texts: Vec<String>, rerun: bool },
    /// Evaluate minipy expressions at a node in the frame `up` frames out from the
    /// innermost (`:` and the watches; `Session::evaluate`). Answered with `Evaluated`.
    Evaluate {
        node: NodeId,
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
    Reload { selected: NodeId, carry: Carry },
    /// Write the session file (`S`): answered with `Done`.
    Save { selected: NodeId, carry: Carry },
    /// Read the session file given with `--session` and replay it: answered with `Carry`,
    /// the tree, `Done` (or just `Done` saying why not).
    Restore,
}

/// Tree growth since the last delta.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    /// New nodes, in id order (parents before children).
    pub nodes: Vec<NodeRow>,
    /// Nodes sent earlier whose kind changed (an open node that was stepped).
    pub changed: Vec<(NodeId, NodeKind)>,
    /// Nodes sent earlier whose row text changed when they were stepped (a loop head that
    /// became a fold node: its label and fold mark), whole.
    pub updated: Vec<NodeRow>,
    pub stats: TreeStats,
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
    /// What the path printed so far under the model (CPython's stdout), a line each.
    pub stdout: Vec<String>,
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
        select: Option<NodeId>,
        message: String,
    },
    Details(Details),
    /// `Err`: why there is no model (the path is infeasible, or the solver's reason such
    /// as `timeout`).
    Model(NodeId, Result<ModelInfo, NoModel>),
    Replay(NodeId, Result<ReplayInfo, String>),
    /// An explanation (see [`Cmd::Why`]).
    Why {
        node: NodeId,
        pruned: Option<usize>,
        info: WhyInfo,
    },
    /// Per node asked for (see [`Cmd::Pruned`]): its pruned branches.
    Pruned(Vec<(NodeId, Vec<PrunedShown>)>),
    /// See [`Cmd::Origins`]: per variable of the store, its origin chain.
    Origins(NodeId, Vec<(String, Vec<OriginLink>)>),
    /// The answer to [`Cmd::Assume`]: the preconditions now in force (the tree starts
    /// again at the root), or why they were refused (the old tree stays).
    Assumed(Result<Vec<String>, String>),
    /// Per expression asked for (see [`Cmd::Evaluate`]): its evaluation or the error.
    Evaluated {
        node: NodeId,
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
    /// Node `.0` with κ := n (see [`Cmd::Instantiate`]).
    Instance(NodeId, Instance),
}
