//! The UI's mirror of the SET and its flattened list of visible rows.
//!
//! [`Mirror`] holds what the worker sent (the session's [`NodeRow`]s) with children lists and collapse
//! flags. [`Mirror::rows`] is the tree as the tree pane shows it, one entry per screen row,
//! rebuilt only when the tree or a collapse flag changes (O(nodes)); drawing reads just the
//! rows on screen, so a tree of 100k nodes scrolls as fast as a small one.
//!
//! The shape follows `symdbg run --tree`: a chain of single children stays at one level,
//! a branching node's children are indented under a label row with their branch condition
//! (`├ x > 1` / `└ not (x > 1)`). Indentation guides are shared persistent lists, so deep
//! trees do not store one long prefix string per row.
//!
//! Two folds: a *collapsed* node hides its whole subtree; a *frame-folded* call node (the
//! node where a call entered its frame, `→ f`) hides only the nodes inside that frame and
//! shows, as its children, where each path through the call ends up: the node after the
//! return (`←`), or a leaf or open node inside the frame. Each such way out is labelled
//! with the branch conditions taken inside the frame, so a folded call reads like a
//! summary of the function: one row per path through it.

use std::rc::Rc;

use super::protocol::Delta;
use crate::session::{NodeId, NodeRow};

/// One node as the UI knows it.
#[derive(Clone, Debug)]
pub struct UiNode {
    pub info: NodeRow,
    pub children: Vec<NodeId>,
    pub depth: u32,
    /// The whole subtree is hidden.
    pub collapsed: bool,
    /// A call node whose frame is folded: only the nodes inside the frame are hidden.
    pub frame_folded: bool,
}

/// One segment of indentation (`"│ "` or `"  "`), linked to the segments left of it.
#[derive(Debug)]
pub struct Guide {
    pub parent: Option<Rc<Guide>>,
    pub seg: &'static str,
    pub len: u32,
}

impl Drop for Guide {
    /// Unlink the chain iteratively: a tree can be 50k branches deep, too deep for the
    /// recursive drop of nested `Rc`s.
    fn drop(&mut self) {
        let mut next = self.parent.take();
        while let Some(rc) = next {
            match Rc::try_unwrap(rc) {
                Ok(mut g) => next = g.parent.take(),
                Err(_) => break,
            }
        }
    }
}

/// What a row shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// A node.
    Node(NodeId),
    /// The edge label above node `.0`: its branch condition. `head` is `"├ "`, `"└ "` or
    /// `""` for the single way on.
    Label { node: NodeId, head: &'static str },
    /// A ghost row (`p`): the `k`-th pruned branch of stepped node `node`, right under the
    /// node's row. Not a node: it can be selected and explained (`w`), not stepped.
    Ghost { node: NodeId, k: usize },
}

#[derive(Clone, Debug)]
pub struct Row {
    pub kind: RowKind,
    pub guide: Option<Rc<Guide>>,
    /// At a collapsed or frame-folded node: how many nodes are hidden under it.
    pub hidden: usize,
    /// A label row under a folded frame: the conditions taken inside the frame (replaces
    /// the node's own branch condition).
    pub cond: Option<Rc<str>>,
}

impl Row {
    /// The node this row belongs to (a label row belongs to the node below it).
    pub fn node(&self) -> NodeId {
        match self.kind {
            RowKind::Node(n) | RowKind::Label { node: n, .. } | RowKind::Ghost { node: n, .. } => n,
        }
    }

    /// The indentation text, at most `max` columns (deep prefixes keep their right end).
    pub fn prefix(&self, max: usize) -> String {
        let mut segs = Vec::new();
        let mut g = self.guide.as_deref();
        let total = g.map_or(0, |g| g.len as usize) * 2;
        let keep = if total > max {
            max.saturating_sub(1) / 2
        } else {
            usize::MAX
        };
        while let Some(x) = g {
            if segs.len() >= keep {
                break;
            }
            segs.push(x.seg);
            g = x.parent.as_deref();
        }
        let mut s = String::new();
        if total > max {
            s.push('…');
        }
        s.extend(segs.iter().rev().copied());
        s
    }
}

#[derive(Default)]
pub struct Mirror {
    pub nodes: Vec<UiNode>,
    rows: Vec<Row>,
    /// Node id → its row (`u32::MAX`: hidden under a collapsed node).
    row_of: Vec<u32>,
    /// Per node: how many pruned branches it has (known ones; see `set_ghosts`).
    ghosts: Vec<u32>,
    /// `p`: ghost rows are shown.
    show_ghosts: bool,
    dirty: bool,
}

const HIDDEN: u32 = u32::MAX;

/// The nodes shown right under a node: each with the label-row text that replaces its own
/// branch condition (under a folded frame).
type Next = Vec<(NodeId, Option<Rc<str>>)>;

impl Mirror {
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Every node's id, in id order.
    pub fn ids(&self) -> impl Iterator<Item = NodeId> {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    pub fn get(&self, id: NodeId) -> Option<&UiNode> {
        self.nodes.get(id.index())
    }

    pub fn node(&self, id: NodeId) -> &UiNode {
        &self.nodes[id.index()]
    }

    /// Add new nodes and apply changed kinds.
    pub fn apply(&mut self, delta: &Delta) {
        for (id, kind) in &delta.changed {
            if let Some(n) = self.nodes.get_mut(id.index()) {
                n.info.view.kind = *kind;
                // (the choice at an annotated loop is offered while the node is open)
                n.info.view.loop_choice &= n.info.is_open();
                n.info.view.call_choice &= n.info.is_open();
            }
        }
        for info in &delta.updated {
            if let Some(n) = self.nodes.get_mut(info.id().index()) {
                n.info = info.clone();
            }
        }
        for info in &delta.nodes {
            debug_assert_eq!(info.id().index(), self.nodes.len());
            let depth = match info.parent() {
                Some(p) => {
                    self.nodes[p.index()].children.push(info.id());
                    self.nodes[p.index()].depth + 1
                }
                None => 0,
            };
            self.nodes.push(UiNode {
                info: info.clone(),
                children: Vec::new(),
                depth,
                collapsed: false,
                frame_folded: false,
            });
        }
        if !delta.nodes.is_empty() || !delta.changed.is_empty() || !delta.updated.is_empty() {
            self.dirty = true;
        }
    }

    pub fn set_collapsed(&mut self, id: NodeId, collapsed: bool) {
        let n = &mut self.nodes[id.index()];
        if n.collapsed != collapsed {
            n.collapsed = collapsed;
            self.dirty = true;
        }
    }

    pub fn set_frame_folded(&mut self, id: NodeId, folded: bool) {
        let n = &mut self.nodes[id.index()];
        if n.frame_folded != folded {
            n.frame_folded = folded;
            self.dirty = true;
        }
    }

    /// Show or hide the ghost rows (pruned branches).
    pub fn set_show_ghosts(&mut self, show: bool) {
        if self.show_ghosts != show {
            self.show_ghosts = show;
            self.dirty = true;
        }
    }

    pub fn show_ghosts(&self) -> bool {
        self.show_ghosts
    }

    /// How many pruned branches node `id` has (0 while unknown).
    pub fn ghosts(&self, id: NodeId) -> usize {
        self.ghosts.get(id.index()).map_or(0, |&n| n as usize)
    }

    /// Record that node `id` has `n` pruned branches (its ghost rows under `p`).
    pub fn set_ghosts(&mut self, id: NodeId, n: usize) {
        if self.ghosts.len() <= id.index() {
            self.ghosts.resize(id.index() + 1, 0);
        }
        if self.ghosts[id.index()] != n as u32 {
            self.ghosts[id.index()] = n as u32;
            self.dirty |= self.show_ghosts;
        }
    }

    /// The row of ghost `k` under node `id`, if shown.
    pub fn ghost_row(&mut self, id: NodeId, k: usize) -> Option<usize> {
        self.refresh();
        self.built_ghost_row(id, k)
    }

    /// [`Mirror::ghost_row`] as the rows were last built (drawing reads the tree from `&App`,
    /// after the layout step built them).
    pub fn built_ghost_row(&self, id: NodeId, k: usize) -> Option<usize> {
        if !self.show_ghosts || k >= self.ghosts(id) || self.node(id).collapsed {
            return None;
        }
        self.built_row_of(id).map(|r| r + 1 + k)
    }

    /// Is `id` the node where a call entered a new frame (the `→ f` row)?
    pub fn is_call(&self, id: NodeId) -> bool {
        let n = &self.nodes[id.index()].info;
        n.parent()
            .is_some_and(|p| n.frames() > self.nodes[p.index()].info.frames())
    }

    /// The call nodes, in id order.
    pub fn calls(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.ids().filter(|&id| self.is_call(id))
    }

    /// Unfold every ancestor of `id` whose fold hides it, so that it has a row.
    pub fn reveal(&mut self, id: NodeId) {
        // Walking up from `id`: `escaped` says whether some node between the ancestor
        // (exclusive) and `id` (inclusive) is already outside the ancestor's frame.
        let childless = self.node(id).children.is_empty();
        let mut min_frames = self.node(id).info.frames();
        let mut cur = self.node(id).info.parent();
        while let Some(p) = cur {
            self.set_collapsed(p, false);
            let frames = self.node(p).info.frames();
            if self.node(p).frame_folded && min_frames >= frames && !childless {
                self.set_frame_folded(p, false);
            }
            min_frames = min_frames.min(frames);
            cur = self.node(p).info.parent();
        }
    }

    /// Where the paths through the frame entered at `call` come out (see the module doc),
    /// in depth-first order, each with the branch conditions taken inside the frame; and
    /// how many nodes the frame holds.
    fn frame_exits(&self, call: NodeId) -> (Next, usize) {
        let frames = self.node(call).info.frames();
        let mut exits = Vec::new();
        let mut inside = 0;
        let mut stack: Vec<(NodeId, Vec<NodeId>)> = self
            .node(call)
            .children
            .iter()
            .rev()
            .map(|&c| (c, Vec::new()))
            .collect();
        while let Some((id, mut conds)) = stack.pop() {
            let n = self.node(id);
            if n.info.branch.is_some() {
                conds.push(id);
            }
            if n.info.frames() < frames || n.children.is_empty() {
                // (a condition the ones before it imply adds nothing to the label)
                let text: Vec<&str> = conds
                    .iter()
                    .map(|&c| &self.node(c).info)
                    .filter(|i| !i.branch_implied)
                    .filter_map(|i| i.branch.as_deref())
                    .collect();
                let cond = (!text.is_empty()).then(|| Rc::from(text.join(" and ")));
                exits.push((id, cond));
                continue;
            }
            inside += 1;
            for &c in n.children.iter().rev() {
                stack.push((c, conds.clone()));
            }
        }
        (exits, inside)
    }

    /// The visible rows (rebuilt if the tree changed).
    pub fn rows(&mut self) -> &[Row] {
        self.refresh();
        &self.rows
    }

    /// The row of a node, if visible.
    pub fn row_of(&mut self, id: NodeId) -> Option<usize> {
        self.refresh();
        self.built_row_of(id)
    }

    /// The visible rows as last built ([`Mirror::rows`] rebuilds them if the tree changed).
    pub fn built_rows(&self) -> &[Row] {
        &self.rows
    }

    /// [`Mirror::row_of`] as the rows were last built.
    pub fn built_row_of(&self, id: NodeId) -> Option<usize> {
        match self.row_of.get(id.index()) {
            Some(&r) if r != HIDDEN => Some(r as usize),
            _ => None,
        }
    }

    /// Nodes in depth-first order (collapse ignored), for search.
    pub fn preorder(&self) -> Vec<NodeId> {
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut stack = if self.nodes.is_empty() {
            vec![]
        } else {
            vec![NodeId(0)]
        };
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(self.node(n).children.iter().rev());
        }
        out
    }

    fn refresh(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        self.rows.clear();
        self.row_of.clear();
        self.row_of.resize(self.nodes.len(), HIDDEN);
        if self.nodes.is_empty() {
            return;
        }
        enum Item {
            Node(NodeId, Option<Rc<Guide>>),
            Label(NodeId, Option<Rc<Guide>>, &'static str, Option<Rc<str>>),
        }
        let mut stack = vec![Item::Node(NodeId(0), None)];
        while let Some(item) = stack.pop() {
            let (mut id, guide) = match item {
                Item::Label(node, guide, head, cond) => {
                    self.rows.push(Row {
                        kind: RowKind::Label { node, head },
                        guide,
                        hidden: 0,
                        cond,
                    });
                    continue;
                }
                Item::Node(id, guide) => (id, guide),
            };
            loop {
                let n = &self.nodes[id.index()];
                self.row_of[id.index()] = self.rows.len() as u32;
                let folded = n.frame_folded && !n.collapsed && self.is_call(id);
                let (next, hidden): (Next, usize) = if n.collapsed {
                    (Vec::new(), self.count_below(id))
                } else if folded {
                    self.frame_exits(id)
                } else {
                    (n.children.iter().map(|&c| (c, None)).collect(), 0)
                };
                self.rows.push(Row {
                    kind: RowKind::Node(id),
                    guide: guide.clone(),
                    hidden,
                    cond: None,
                });
                if self.show_ghosts && !n.collapsed {
                    for k in 0..self.ghosts(id) {
                        self.rows.push(Row {
                            kind: RowKind::Ghost { node: id, k },
                            guide: guide.clone(),
                            hidden: 0,
                            cond: None,
                        });
                    }
                }
                match next.as_slice() {
                    [] => break,
                    [(only, cond)] => {
                        if cond.is_some() || self.node(*only).info.branch.is_some() {
                            self.rows.push(Row {
                                kind: RowKind::Label {
                                    node: *only,
                                    head: "",
                                },
                                guide: guide.clone(),
                                hidden: 0,
                                cond: if folded { cond.clone() } else { None },
                            });
                        }
                        id = *only;
                    }
                    many => {
                        let len = guide.as_ref().map_or(0, |g| g.len) + 1;
                        for (k, (c, cond)) in many.iter().enumerate().rev() {
                            let last = k + 1 == many.len();
                            let (head, seg) = if last {
                                ("└ ", "  ")
                            } else {
                                ("├ ", "│ ")
                            };
                            let child_guide = Rc::new(Guide {
                                parent: guide.clone(),
                                seg,
                                len,
                            });
                            stack.push(Item::Node(*c, Some(child_guide)));
                            let cond = if folded {
                                Some(cond.clone().unwrap_or_else(|| Rc::from("(always)")))
                            } else {
                                None
                            };
                            stack.push(Item::Label(*c, guide.clone(), head, cond));
                        }
                        break;
                    }
                }
            }
        }
    }

    /// Number of nodes strictly below `id`.
    fn count_below(&self, id: NodeId) -> usize {
        let mut count = 0;
        let mut stack: Vec<NodeId> = self.node(id).children.clone();
        while let Some(n) = stack.pop() {
            count += 1;
            stack.extend(&self.node(n).children);
        }
        count
    }

    /// Is the node open (not stepped yet)?
    pub fn is_open(&self, id: NodeId) -> bool {
        self.node(id).info.is_open()
    }
}

#[cfg(test)]
mod tests;
