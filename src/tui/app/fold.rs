//! Folded loops in the TUI (issue 15): `F` folds or unfolds the open loop head at the
//! selected node (against `--fold`), `=` asks for n and shows the node with its fold's
//! κ := n (an overlay; any key closes it); at a two-parameter fold `n m` sets λ := m too
//! (issue 27).

use ratatui::crossterm::event::KeyEvent;

use super::{App, Mode, PromptKind};
use crate::session::{Instance, NodeId, NodeKind};
use crate::tui::keys::{lookup, Action, Context};
use crate::tui::protocol::Cmd;

/// The TUI's fold state.
#[derive(Clone, Debug, Default)]
pub struct FoldUi {
    /// The node `=` asked about (while its prompt is open).
    asking: Option<NodeId>,
    /// The instance shown in the overlay.
    pub shown: Option<(NodeId, Instance)>,
    /// First row of the overlay shown.
    pub scroll: usize,
}

impl App {
    /// `F`: fold (or unfold, under `--fold auto`) the selected open loop head.
    pub(super) fn refold_key(&mut self) {
        let id = self.selected;
        let node = self.tree.node(id);
        let mark = &node.info.fold;
        if node.info.kind() == NodeKind::Open && mark.loop_head {
            return self.work("fold", Cmd::Refold(id));
        }
        self.message = if mark.fold_node {
            "a fold node: it was stepped folded (nodes are stepped once); = shows it for κ = n"
                .to_string()
        } else if node.info.kind() == NodeKind::Open {
            "F folds a loop: select an open node at a `while` condition".to_string()
        } else {
            "F folds a loop head that is not stepped yet (select an open `while` node)".to_string()
        };
    }

    /// `=`: ask for n (at a fold node or below one).
    pub(super) fn instantiate_key(&mut self) {
        let id = self.selected;
        let mark = self.tree.node(id).info.fold.clone();
        match (mark.kappa, mark.lambda) {
            (Some(k), Some(l)) => {
                self.fold.asking = Some(id);
                self.mode = Mode::Prompt(PromptKind::Kappa, String::new());
                self.message = format!(
                    "{k} {l} = ? (iterations of path 1, then of path 2: `2 1`; with {k} alone {l} stays symbolic; Esc cancels)"
                );
            }
            (Some(k), None) => {
                self.fold.asking = Some(id);
                self.mode = Mode::Prompt(PromptKind::Kappa, String::new());
                self.message = format!("{k} = ? (iterations of the folded path; Esc cancels)");
            }
            (None, _) => {
                self.message =
                    "= instantiates κ: select a fold node or a node below one".to_string()
            }
        }
    }

    /// The prompt's Enter: ask the worker.
    pub(super) fn instantiate(&mut self, text: &str) {
        let Some(id) = self.fold.asking.take() else {
            return;
        };
        if text.trim().is_empty() {
            self.message.clear();
            return;
        }
        self.work(
            "instantiate κ",
            Cmd::Instantiate(id, text.trim().to_string()),
        );
    }

    /// The worker's answer: show it.
    pub(super) fn show_instance(&mut self, id: NodeId, info: Instance) {
        self.fold.shown = Some((id, info));
        self.fold.scroll = 0;
    }

    /// Keys while the instance overlay is open: j/k scroll, any other key closes it.
    /// `true` if the key was the overlay's.
    pub(super) fn instance_key(&mut self, key: KeyEvent) -> bool {
        if self.fold.shown.is_none() {
            return false;
        }
        match lookup(Context::Overlay, &key) {
            // (the layout step keeps it inside the view)
            Some(Action::ScrollDown) => self.fold.scroll += 1,
            Some(Action::ScrollUp) => self.fold.scroll = self.fold.scroll.saturating_sub(1),
            _ => {
                self.fold.shown = None;
                self.message.clear();
            }
        }
        true
    }
}
