//! `p` (pruned branches as ghost rows in the tree and in the path pane) and `w` (why):
//! the UI's side.

use super::{App, Pane};
use crate::session::{NodeId, NodeKind, Outcome};
use crate::tui::protocol::Cmd;

impl App {
    /// `p`: show or hide the pruned branches: greyed ghost rows under every stepped node
    /// in the tree pane, and the selected node's in the path pane.
    pub(super) fn toggle_pruned(&mut self) {
        self.show_pruned = !self.show_pruned;
        self.tree.set_show_ghosts(self.show_pruned);
        self.message = if self.show_pruned {
            self.fetch_pruned();
            "pruned branches shown (✗ rows in the tree); w on one explains it".to_string()
        } else {
            self.ghost = None;
            "pruned branches hidden".to_string()
        };
        self.show_detail(Pane::Path);
    }

    /// Ask the worker for the pruned branches of every stepped node not known yet (no
    /// solver call: cheap), so that their ghost rows show.
    pub(super) fn fetch_pruned(&mut self) {
        let ids: Vec<NodeId> = self
            .tree
            .nodes
            .iter()
            .filter(|n| n.info.kind() == NodeKind::Inner)
            .map(|n| n.info.id())
            .filter(|id| !self.pruned.contains_key(id) && !self.pending.contains(&('g', *id)))
            .collect();
        if ids.is_empty() {
            return;
        }
        self.pending.extend(ids.iter().map(|&id| ('g', id)));
        self.outbox.push(Cmd::Pruned(ids));
    }

    /// The selected ghost row (a pruned branch of the selected node), if it is shown.
    pub fn selected_ghost(&self) -> Option<usize> {
        let k = self.ghost?;
        (self.show_pruned && k < self.tree.ghosts(self.selected)).then_some(k)
    }

    /// The selected row of the tree pane (a node's or a ghost's).
    pub fn selected_row(&mut self) -> Option<usize> {
        match self.selected_ghost() {
            Some(k) => self.tree.ghost_row(self.selected, k),
            None => self.tree.row_of(self.selected),
        }
    }

    /// [`App::selected_row`] in the tree's rows as last built (drawing, after the layout
    /// step built them).
    pub fn built_selected_row(&self) -> Option<usize> {
        match self.selected_ghost() {
            Some(k) => self.tree.built_ghost_row(self.selected, k),
            None => self.tree.built_row_of(self.selected),
        }
    }

    /// `w`: explain the selected ghost row's pruned branch, the selected infeasible or
    /// unknown leaf, or the next pruned branch of the selected node (each `w` moves on to
    /// the next one; this shows the ghost rows as `p` does). Runs on the worker; Esc
    /// cancels it.
    pub(super) fn why(&mut self) {
        let id = self.selected;
        let leaf = matches!(
            self.tree.node(id).info.kind(),
            NodeKind::Leaf(Outcome::Infeasible | Outcome::Unknown)
        );
        let target = if let Some(k) = self.selected_ghost() {
            // A ghost row: explain that pruned branch.
            Some(k)
        } else if leaf {
            None
        } else {
            let Some(d) = self.details.get(&id) else {
                self.message = "w: details not loaded yet".to_string();
                return;
            };
            if d.pruned.is_empty() {
                self.message = "w explains an infeasible or unknown leaf, or a node's pruned branches (none here)".to_string();
                return;
            }
            let next = match self.why_shown {
                Some((n, Some(k))) if n == id => (k + 1) % d.pruned.len(),
                _ => 0,
            };
            if !self.show_pruned {
                self.show_pruned = true;
                self.tree.set_show_ghosts(true);
                self.fetch_pruned();
            }
            Some(next)
        };
        self.show_detail(Pane::Path);
        if let Some(info) = self.whys.get(&(id, target)) {
            self.message = info.summary.clone();
            self.why_shown = Some((id, target));
            return;
        }
        self.why_shown = None;
        self.send_work(
            "why",
            Cmd::Why {
                node: id,
                pruned: target,
            },
        );
    }
}
