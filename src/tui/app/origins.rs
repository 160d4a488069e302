//! `O`: value origins (issue 29). The box over the panes lists, for every variable of the
//! store pane at the selected node, the assignment that gave it its value (line, node,
//! statement) and then what that assignment read, back to the inputs
//! (`Session::origin_chain`); `j`/`k` pick one, Enter selects its node in the tree.

use ratatui::crossterm::event::KeyEvent;

use super::{App, Mode};
use crate::session::{NodeId, OriginLink};
use crate::tui::keys::{lookup, Action, Context};
use crate::tui::protocol::Cmd;

/// The origins box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OriginsBox {
    /// The node whose store it explains.
    pub node: NodeId,
    /// Per variable of the store, its origin chain.
    pub chains: Vec<(String, Vec<OriginLink>)>,
    /// The picked link, counted over all chains.
    pub cursor: usize,
}

impl OriginsBox {
    /// Every link, in the order shown, with its variable.
    pub fn links(&self) -> impl Iterator<Item = &OriginLink> {
        self.chains.iter().flat_map(|(_, c)| c.iter())
    }

    /// The picked link.
    pub fn picked(&self) -> Option<&OriginLink> {
        self.links().nth(self.cursor)
    }
}

impl App {
    /// `O`: ask the worker for the origins of the selected node's store.
    pub(super) fn origins_key(&mut self) {
        self.outbox.push(Cmd::Origins(self.selected));
        self.message = format!("origins at node {}…", self.selected.0);
    }

    /// The worker's answer: open the box (if the node is still the selected one).
    pub(super) fn origins_answered(
        &mut self,
        node: NodeId,
        chains: Vec<(String, Vec<OriginLink>)>,
    ) {
        if node != self.selected || self.mode != Mode::Normal {
            return;
        }
        if chains.iter().all(|(_, c)| c.is_empty()) {
            self.message = format!("origins: no variables at node {}", node.0);
            return;
        }
        self.message.clear();
        self.origins = Some(OriginsBox {
            node,
            chains,
            cursor: 0,
        });
        self.mode = Mode::Origins;
    }

    /// Keys in the origins box (the table's `Context::Overlay` rows): move, Enter goes to
    /// the picked origin's node; any other key closes it.
    pub(super) fn origins_box_key(&mut self, key: KeyEvent) {
        let Some(b) = self.origins.as_mut() else {
            self.mode = Mode::Normal;
            return;
        };
        let n = b.links().count();
        match lookup(Context::Overlay, &key) {
            Some(Action::ScrollDown) => b.cursor = (b.cursor + 1).min(n.saturating_sub(1)),
            Some(Action::ScrollUp) => b.cursor = b.cursor.saturating_sub(1),
            Some(Action::OriginJump) => {
                let Some(link) = b.picked().cloned() else {
                    return;
                };
                self.mode = Mode::Normal;
                self.origins = None;
                self.select(link.origin.node);
                self.message = format!(
                    "{} got its value at line {} (node {}, {}): {}",
                    link.name,
                    link.origin.line,
                    link.origin.node.0,
                    link.origin.kind,
                    link.statement
                );
            }
            _ => {
                self.mode = Mode::Normal;
                self.origins = None;
            }
        }
    }
}
