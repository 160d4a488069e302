//! Moving around: rows, collapse/expand, search, exception leaves.

use super::{App, Pane};
use crate::session::NodeId;
use crate::tui::protocol::Cmd;
use crate::tui::tree::RowKind;

impl App {
    /// Move in the focused pane by `by` rows (tree: nodes; code: the cursor).
    pub(super) fn move_by(&mut self, by: isize) {
        match self.focus {
            Pane::Tree => {
                let Some(cur) = self.selected_row() else {
                    return self.select(NodeId(0));
                };
                let rows = self.tree.rows();
                let last = rows.len().saturating_sub(1) as isize;
                let mut r = (cur as isize).saturating_add(by).clamp(0, last) as usize;
                // Label rows are not selectable: go on to a node row in the same direction.
                while let RowKind::Label { .. } = rows[r].kind {
                    if by < 0 && r > 0 {
                        r -= 1;
                    } else {
                        r += 1;
                    }
                }
                self.select_row(r);
            }
            Pane::Code => {
                let last = self.line_count() as isize;
                self.code_cursor = (self.code_cursor as isize)
                    .saturating_add(by)
                    .clamp(1, last) as usize;
            }
            Pane::Stack if self.frame_count() > 1 => self.move_frame(by),
            pane => {
                let cur = self.scroll_of(pane) as isize;
                let to = cur.saturating_add(by).clamp(0, 1 << 30) as usize;
                self.scroll.insert(pane, to);
            }
        }
    }

    /// Select the node or ghost row at tree row `r`.
    pub(super) fn select_row(&mut self, r: usize) {
        let Some(row) = self.tree.rows().get(r).cloned() else {
            return;
        };
        match row.kind {
            RowKind::Ghost { node, k } => {
                self.select(node);
                self.ghost = Some(k);
            }
            _ => self.select(row.node()),
        }
    }

    /// `h`: on a ghost row, back to its node; at a call node (`→ f`), fold its frame first; then collapse the node's
    /// subtree; on a collapsed or childless node, go to the parent.
    pub(super) fn collapse_or_parent(&mut self) {
        if self.focus != Pane::Tree {
            return;
        }
        if self.ghost.take().is_some() {
            return;
        }
        let id = self.selected;
        let node = self.tree.node(id);
        if node.collapsed || node.children.is_empty() {
            if let Some(p) = self.parent_row_node(id) {
                self.select(p);
            }
        } else if self.tree.is_call(id) && !node.frame_folded {
            self.tree.set_frame_folded(id, true);
            self.message = "frame folded: one row per path through the call (l unfolds)".into();
        } else {
            self.tree.set_collapsed(id, true);
        }
    }

    /// The nearest ancestor that starts a row group: the parent, skipping the straight-line
    /// chain the node sits in (those are rows above it anyway).
    fn parent_row_node(&self, id: NodeId) -> Option<NodeId> {
        self.tree.node(id).info.parent()
    }

    /// `l`: expand a collapsed node, else go to its first child.
    pub(super) fn expand_or_child(&mut self) {
        if self.focus != Pane::Tree {
            return;
        }
        let id = self.selected;
        let node = self.tree.node(id);
        if node.collapsed {
            self.tree.set_collapsed(id, false);
        } else if node.frame_folded {
            self.tree.set_frame_folded(id, false);
        } else if let Some(&c) = node.children.first() {
            self.select(c);
        }
    }

    /// `z`: fold every call frame in the explored tree, or unfold them all if all are
    /// folded already.
    pub(super) fn toggle_all_frames(&mut self) {
        let calls: Vec<NodeId> = self.tree.calls().collect();
        if calls.is_empty() {
            self.message = "no call in the explored tree".to_string();
            return;
        }
        let fold = calls.iter().any(|&c| !self.tree.node(c).frame_folded);
        for &c in &calls {
            self.tree.set_frame_folded(c, fold);
        }
        // A selection inside a frame just folded moves up to the nearest visible ancestor.
        let mut sel = self.selected;
        while self.tree.row_of(sel).is_none() {
            match self.tree.node(sel).info.parent() {
                Some(p) => sel = p,
                None => break,
            }
        }
        if sel != self.selected {
            self.select(sel);
        }
        self.message = if fold {
            format!("folded {} call frame(s) (z unfolds them)", calls.len())
        } else {
            format!("unfolded {} call frame(s)", calls.len())
        };
    }

    /// Search node texts (statement line, branch condition, label, leaf summary),
    /// case-insensitively, in depth-first order from the selected node, wrapping around.
    /// An empty `text` repeats the last search.
    pub(super) fn search(&mut self, text: &str, forward: bool) {
        let text = if text.is_empty() {
            match &self.last_search {
                Some(s) => s.clone(),
                None => return,
            }
        } else {
            text.to_string()
        };
        self.last_search = Some(text.clone());
        let needle = text.to_lowercase();
        let order = self.tree.preorder();
        let matches: Vec<NodeId> = order
            .iter()
            .copied()
            .filter(|&id| self.node_text(id).to_lowercase().contains(&needle))
            .collect();
        match self.next_in(&order, &matches, forward) {
            Some((id, k)) => {
                self.select(id);
                self.message = format!("/{text}: match {} of {}", k + 1, matches.len());
            }
            None => self.message = format!("/{text}: no match in the explored tree"),
        }
    }

    /// `e`/`E`: the next/previous exception leaf in depth-first order.
    pub(super) fn next_exception(&mut self, forward: bool) {
        let order = self.tree.preorder();
        let leaves: Vec<NodeId> = order
            .iter()
            .copied()
            .filter(|&id| self.tree.node(id).info.is_exception())
            .collect();
        match self.next_in(&order, &leaves, forward) {
            Some((id, k)) => {
                self.select(id);
                self.message = format!("exception leaf {} of {}", k + 1, leaves.len());
            }
            // (issue 30: on a tree not explored to the end, the worker searches for one)
            None if self.stats.open > 0 => {
                self.send_work("exception", Cmd::FirstException(NodeId(0)));
            }
            None => self.message = "no exception leaf: the tree is explored".to_string(),
        }
    }

    /// The first of `hits` after (or before) the selection in `order`, wrapping around;
    /// with its index in `hits`.
    fn next_in(&self, order: &[NodeId], hits: &[NodeId], forward: bool) -> Option<(NodeId, usize)> {
        if hits.is_empty() {
            return None;
        }
        let mut pos = vec![0usize; self.tree.len()];
        for (k, &id) in order.iter().enumerate() {
            pos[id.index()] = k;
        }
        let cur = pos[self.selected.index()];
        let k = if forward {
            hits.iter().position(|&h| pos[h.index()] > cur).unwrap_or(0)
        } else {
            hits.iter()
                .rposition(|&h| pos[h.index()] < cur)
                .unwrap_or(hits.len() - 1)
        };
        Some((hits[k], k))
    }

    /// Everything a search looks at for one node.
    fn node_text(&self, id: NodeId) -> String {
        let info = &self.tree.node(id).info;
        let mut s = String::new();
        if !info.is_leaf() {
            if let Some(l) = info.place() {
                s.push_str(self.line_text(l));
            }
        }
        for t in [&info.branch, &info.label].into_iter().flatten() {
            s.push('\n');
            s.push_str(t);
        }
        s.push('\n');
        s.push_str(&info.summary);
        s
    }
}
