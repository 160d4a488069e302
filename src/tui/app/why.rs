//! `p` (pruned branches in the path pane) and `w` (why): the UI's side.

use super::{App, Pane};
use crate::tui::protocol::{Cmd, Kind, Outcome};

impl App {
    /// `p`: show or hide the pruned branches of the selected node in the path pane.
    pub(super) fn toggle_pruned(&mut self) {
        self.show_pruned = !self.show_pruned;
        self.message = if self.show_pruned {
            "pruned branches shown (✗ in the path pane); w explains them".to_string()
        } else {
            "pruned branches hidden".to_string()
        };
        self.show_detail(Pane::Path);
    }

    /// `w`: explain the selected infeasible or unknown leaf, or the next pruned branch of
    /// the selected node (each `w` moves on to the next one). Runs on the worker; Esc
    /// cancels it.
    pub(super) fn why(&mut self) {
        let id = self.selected;
        let leaf = matches!(
            self.tree.node(id).info.kind,
            Kind::Leaf(Outcome::Infeasible | Outcome::Unknown)
        );
        let target = if leaf {
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
            self.show_pruned = true;
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
