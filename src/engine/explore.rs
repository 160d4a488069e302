//! The exploration loop behind [`Engine::run`], [`Engine::run_until`],
//! [`Engine::run_with`] and [`Engine::run_to`]: open nodes stepped depth or breadth first
//! under [`Limits`], until a stopping rule, a target node, a limit or the cancel flag.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::{Engine, Limits, Node, NodeId, Stop, Strategy};

impl Engine {
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
}
