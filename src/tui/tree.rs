//! The UI's mirror of the SET and its flattened list of visible rows.
//!
//! [`Mirror`] holds what the worker sent ([`NodeInfo`]s) with children lists and collapse
//! flags. [`Mirror::rows`] is the tree as the tree pane shows it, one entry per screen row,
//! rebuilt only when the tree or a collapse flag changes (O(nodes)); drawing reads just the
//! rows on screen, so a tree of 100k nodes scrolls as fast as a small one.
//!
//! The shape follows `symdbg run --tree`: a chain of single children stays at one level,
//! a branching node's children are indented under a label row with their branch condition
//! (`├ x > 1` / `└ not (x > 1)`). Indentation guides are shared persistent lists, so deep
//! trees do not store one long prefix string per row.

use std::rc::Rc;

use super::protocol::{Delta, Kind, NodeInfo};

/// One node as the UI knows it.
#[derive(Clone, Debug)]
pub struct UiNode {
    pub info: NodeInfo,
    pub children: Vec<u32>,
    pub depth: u32,
    pub collapsed: bool,
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
    Node(u32),
    /// The edge label above node `.0`: its branch condition. `head` is `"├ "`, `"└ "` or
    /// `""` for the single way on.
    Label { node: u32, head: &'static str },
}

#[derive(Clone, Debug)]
pub struct Row {
    pub kind: RowKind,
    pub guide: Option<Rc<Guide>>,
    /// At a collapsed node: how many nodes are hidden under it.
    pub hidden: usize,
}

impl Row {
    /// The node this row belongs to (a label row belongs to the node below it).
    pub fn node(&self) -> u32 {
        match self.kind {
            RowKind::Node(n) | RowKind::Label { node: n, .. } => n,
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
    dirty: bool,
}

const HIDDEN: u32 = u32::MAX;

impl Mirror {
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn get(&self, id: u32) -> Option<&UiNode> {
        self.nodes.get(id as usize)
    }

    pub fn node(&self, id: u32) -> &UiNode {
        &self.nodes[id as usize]
    }

    /// Add new nodes and apply changed kinds.
    pub fn apply(&mut self, delta: &Delta) {
        for (id, kind) in &delta.changed {
            if let Some(n) = self.nodes.get_mut(*id as usize) {
                n.info.kind = kind.clone();
            }
        }
        for info in &delta.nodes {
            debug_assert_eq!(info.id as usize, self.nodes.len());
            let depth = match info.parent {
                Some(p) => {
                    self.nodes[p as usize].children.push(info.id);
                    self.nodes[p as usize].depth + 1
                }
                None => 0,
            };
            self.nodes.push(UiNode {
                info: info.clone(),
                children: Vec::new(),
                depth,
                collapsed: false,
            });
        }
        if !delta.nodes.is_empty() || !delta.changed.is_empty() {
            self.dirty = true;
        }
    }

    pub fn set_collapsed(&mut self, id: u32, collapsed: bool) {
        let n = &mut self.nodes[id as usize];
        if n.collapsed != collapsed {
            n.collapsed = collapsed;
            self.dirty = true;
        }
    }

    /// Expand every collapsed ancestor of `id` so that it has a row.
    pub fn reveal(&mut self, id: u32) {
        let mut cur = self.nodes[id as usize].info.parent;
        while let Some(p) = cur {
            self.set_collapsed(p, false);
            cur = self.nodes[p as usize].info.parent;
        }
    }

    /// The visible rows (rebuilt if the tree changed).
    pub fn rows(&mut self) -> &[Row] {
        self.refresh();
        &self.rows
    }

    /// The row of a node, if visible.
    pub fn row_of(&mut self, id: u32) -> Option<usize> {
        self.refresh();
        match self.row_of.get(id as usize) {
            Some(&r) if r != HIDDEN => Some(r as usize),
            _ => None,
        }
    }

    /// Nodes in depth-first order (collapse ignored), for search.
    pub fn preorder(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut stack = if self.nodes.is_empty() {
            vec![]
        } else {
            vec![0]
        };
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(self.nodes[n as usize].children.iter().rev());
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
            Node(u32, Option<Rc<Guide>>),
            Label(u32, Option<Rc<Guide>>, &'static str),
        }
        let mut stack = vec![Item::Node(0, None)];
        while let Some(item) = stack.pop() {
            let (mut id, guide) = match item {
                Item::Label(node, guide, head) => {
                    self.rows.push(Row {
                        kind: RowKind::Label { node, head },
                        guide,
                        hidden: 0,
                    });
                    continue;
                }
                Item::Node(id, guide) => (id, guide),
            };
            loop {
                let n = &self.nodes[id as usize];
                self.row_of[id as usize] = self.rows.len() as u32;
                let hidden = if n.collapsed { self.count_below(id) } else { 0 };
                self.rows.push(Row {
                    kind: RowKind::Node(id),
                    guide: guide.clone(),
                    hidden,
                });
                if n.collapsed {
                    break;
                }
                match n.children.as_slice() {
                    [] => break,
                    [only] => {
                        let c = &self.nodes[*only as usize].info;
                        if c.branch.is_some() {
                            self.rows.push(Row {
                                kind: RowKind::Label {
                                    node: *only,
                                    head: "",
                                },
                                guide: guide.clone(),
                                hidden: 0,
                            });
                        }
                        id = *only;
                    }
                    many => {
                        let len = guide.as_ref().map_or(0, |g| g.len) + 1;
                        for (k, &c) in many.iter().enumerate().rev() {
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
                            stack.push(Item::Node(c, Some(child_guide)));
                            stack.push(Item::Label(c, guide.clone(), head));
                        }
                        break;
                    }
                }
            }
        }
    }

    /// Number of nodes strictly below `id`.
    fn count_below(&self, id: u32) -> usize {
        let mut count = 0;
        let mut stack: Vec<u32> = self.nodes[id as usize].children.clone();
        while let Some(n) = stack.pop() {
            count += 1;
            stack.extend(&self.nodes[n as usize].children);
        }
        count
    }

    /// Is the node open (not stepped yet)?
    pub fn is_open(&self, id: u32) -> bool {
        self.node(id).info.kind == Kind::Open
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::protocol::{LeafKind, NodeInfo};

    fn info(id: u32, parent: Option<u32>, kind: Kind, branch: Option<&str>) -> NodeInfo {
        NodeInfo {
            id,
            parent,
            kind,
            branch: branch.map(str::to_string),
            label: None,
            line: Some(1),
            frames: 1,
            func: None,
            summary: String::new(),
            loop_choice: false,
        }
    }

    fn sample() -> Mirror {
        let mut m = Mirror::default();
        m.apply(&Delta {
            nodes: vec![
                info(0, None, Kind::Inner, None),
                info(1, Some(0), Kind::Inner, None),
                info(2, Some(1), Kind::Leaf(LeafKind::Normal), Some("x > 1")),
                info(3, Some(1), Kind::Open, Some("not (x > 1)")),
            ],
            ..Delta::default()
        });
        m
    }

    #[test]
    fn chains_stay_flat_and_branches_get_label_rows() {
        let mut m = sample();
        let rows: Vec<(RowKind, String)> =
            m.rows().iter().map(|r| (r.kind, r.prefix(80))).collect();
        assert_eq!(
            rows,
            vec![
                (RowKind::Node(0), String::new()),
                (RowKind::Node(1), String::new()),
                (
                    RowKind::Label {
                        node: 2,
                        head: "├ "
                    },
                    String::new()
                ),
                (RowKind::Node(2), "│ ".to_string()),
                (
                    RowKind::Label {
                        node: 3,
                        head: "└ "
                    },
                    String::new()
                ),
                (RowKind::Node(3), "  ".to_string()),
            ]
        );
        assert_eq!(m.row_of(3), Some(5));
    }

    #[test]
    fn collapsing_hides_the_subtree_and_reveal_undoes_it() {
        let mut m = sample();
        m.set_collapsed(1, true);
        assert_eq!(m.rows().len(), 2);
        assert_eq!(m.rows()[1].hidden, 2);
        assert_eq!(m.row_of(3), None);
        m.reveal(3);
        assert_eq!(m.row_of(3), Some(5));
    }

    #[test]
    fn deep_prefixes_are_cut_on_the_left() {
        let g = (0..50).fold(None, |parent, k| {
            Some(Rc::new(Guide {
                parent,
                seg: "│ ",
                len: k + 1,
            }))
        });
        let row = Row {
            kind: RowKind::Node(0),
            guide: g,
            hidden: 0,
        };
        let p = row.prefix(11);
        assert!(p.starts_with('…'));
        assert!(p.chars().count() <= 11, "{p:?}");
    }
}
