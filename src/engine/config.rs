//! Engine settings ([`Config`], with [`LoopMode`] and [`CallMode`]) and the vocabulary of
//! one exploration: its [`Limits`] and [`Strategy`], why it stopped ([`Stop`]), and the
//! counters of [`Stats`].

use std::time::Duration;

use super::fold;
use crate::solver::SolverStats;

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

/// Exploration order for [`Engine::run`](super::Engine::run).
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
