//! Paths as DAP threads.
//!
//! A thread has a *tip*, a childless node of the tree (an open node, or the leaf its path
//! ended in), and a *position* on the path from the root to its tip (where it is stopped:
//! the tip after stepping forward, an inner node after `stepBack`). Every open node of the
//! tree is some thread's tip. After every command [`Threads::settle`] restores that:
//! - a thread whose tip was stepped follows its first branch (the first open node below
//!   its old tip, or the stop node when the command stopped below it);
//! - every open node no thread has becomes a new thread (`started`);
//! - a thread whose path ended, and which is not stopped at its leaf, goes (`exited`).

use std::collections::HashSet;

use crate::session::{NodeId, Session};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thread {
    pub id: i64,
    pub pos: NodeId,
    pub tip: NodeId,
}

/// A request's `threadId`: the id if it is an integer, and the text that names it in a
/// message, as the client sent it (`3`, `"x"`, `1.5`, `null` when it is missing).
pub fn thread_arg(args: &serde_json::Value) -> (Option<i64>, String) {
    let sent = &args["threadId"];
    (sent.as_i64(), sent.to_string())
}

#[derive(Debug, Default)]
pub struct Threads {
    pub list: Vec<Thread>,
    next_id: i64,
}

/// What [`Threads::settle`] changed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Settled {
    pub started: Vec<i64>,
    pub exited: Vec<i64>,
    /// The thread stopped at the command's stop node.
    pub stopped: Option<i64>,
}

impl Threads {
    /// One thread at the root, numbered `first` (ids are not reused after a restart).
    pub fn start(session: &Session, first: i64) -> (Threads, i64) {
        let root = session.tree().root();
        let mut t = Threads {
            list: Vec::new(),
            next_id: first,
        };
        let id = t.add(root, root);
        (t, id)
    }

    fn add(&mut self, pos: NodeId, tip: NodeId) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.list.push(Thread { id, pos, tip });
        id
    }

    /// The id the next thread gets.
    pub fn next_id(&self) -> i64 {
        self.next_id
    }

    pub fn get(&self, id: i64) -> Option<Thread> {
        self.list.iter().find(|t| t.id == id).copied()
    }

    /// Remove a thread (its path ended and it was moved on).
    pub fn remove(&mut self, id: i64) -> bool {
        let n = self.list.len();
        self.list.retain(|t| t.id != id);
        self.list.len() != n
    }

    /// Bring the threads up to date with the tree after a command of thread `actor` that
    /// stopped at `stop` (if any).
    pub fn settle(&mut self, s: &Session, actor: Option<i64>, stop: Option<NodeId>) -> Settled {
        let mut out = Settled::default();
        let mut claimed: HashSet<NodeId> = HashSet::new();
        // The stop's owner: the actor if the stop is on or below its path, else a thread
        // whose path runs through the stop, else the actor (or a new thread).
        let mut owner = None;
        if let Some(stop) = stop {
            let on = |t: &Thread| is_ancestor(s, stop, t.tip) || is_ancestor(s, t.tip, stop);
            let actor_t = actor.and_then(|a| self.get(a));
            owner = match actor_t.filter(on) {
                Some(t) => Some(t.id),
                None => self.list.iter().find(|t| on(t)).map(|t| t.id).or(actor),
            };
        }
        let mut keep = Vec::new();
        let list = std::mem::take(&mut self.list);
        // The owner settles first, so it gets the stop's tip.
        let (first, rest): (Vec<Thread>, Vec<Thread>) =
            list.into_iter().partition(|t| Some(t.id) == owner);
        for mut t in first.into_iter().chain(rest) {
            if Some(t.id) == owner {
                let stop = stop.unwrap_or(t.pos);
                t.pos = stop;
                t.tip = first_tip(s, stop, &claimed, false).unwrap_or(stop);
                claimed.insert(t.tip);
                out.stopped = Some(t.id);
                keep.push(t);
                continue;
            }
            let node = s.tree().node(t.tip);
            if node.children.is_empty() && !claimed.contains(&t.tip) {
                claimed.insert(t.tip);
                keep.push(t);
                continue;
            }
            match first_tip(s, t.tip, &claimed, true) {
                Some(tip) => {
                    t.tip = tip;
                    claimed.insert(tip);
                    keep.push(t);
                }
                None => out.exited.push(t.id),
            }
        }
        self.list = keep;
        if let (Some(stop), None) = (stop, out.stopped) {
            let tip = first_tip(s, stop, &claimed, false).unwrap_or(stop);
            claimed.insert(tip);
            let id = self.add(stop, tip);
            out.started.push(id);
            out.stopped = Some(id);
        }
        // Every open node is a thread's tip.
        let tree = s.tree();
        for n in tree.subtree(tree.root()) {
            if tree.node(n).is_open() && !claimed.contains(&n) {
                claimed.insert(n);
                out.started.push(self.add(n, n));
            }
        }
        out
    }
}

/// Is `a` an ancestor of `b` (or `b` itself)?
pub fn is_ancestor(s: &Session, a: NodeId, b: NodeId) -> bool {
    let tree = s.tree();
    let mut cur = Some(b);
    while let Some(n) = cur {
        if n == a {
            return true;
        }
        cur = tree.node(n).parent;
    }
    false
}

/// The nodes from the root to `id`, the root first.
pub fn path(s: &Session, id: NodeId) -> Vec<NodeId> {
    let tree = s.tree();
    let mut out = vec![id];
    while let Some(p) = tree.node(*out.last().unwrap_or(&id)).parent {
        out.push(p);
    }
    out.reverse();
    out
}

/// The first childless node under `from` (depth-first, `from` included) no thread has;
/// `open`: only open ones.
fn first_tip(s: &Session, from: NodeId, claimed: &HashSet<NodeId>, open: bool) -> Option<NodeId> {
    let tree = s.tree();
    tree.subtree(from).into_iter().find(|&n| {
        let node = tree.node(n);
        node.children.is_empty() && !claimed.contains(&n) && (!open || node.is_open())
    })
}
