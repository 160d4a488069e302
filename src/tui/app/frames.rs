//! Frames: `j`/`k` in the call stack pane pick a frame (as gdb's `up`/`down`); the store
//! pane shows that frame's variables and the code pane marks the line it is at (a caller:
//! the line of its call). `U` and `D` do the same from any pane (gdb's `up`/`down`).
//! Selecting a node in the same activation of the frame's function keeps the picked frame
//! (`s` along a path); any other node goes back to the innermost frame.

use super::App;
use crate::session::NodeId;

/// A picked frame: its function's name, its variables, the line it is at.
pub type PickedFrame<'a> = (&'a str, &'a [(String, String)], Option<usize>);

impl App {
    /// Frames of the selected node's call stack (0 until its details arrive).
    pub fn frame_count(&self) -> usize {
        self.details
            .get(&self.selected)
            .map_or(0, |d| d.frames.len())
    }

    /// The frame picked in the call stack pane, counted from the innermost (0), if it is
    /// not the innermost.
    pub fn picked_frame(&self) -> Option<usize> {
        (self.frame_up > 0 && self.frame_up < self.frame_count()).then_some(self.frame_up)
    }

    /// The picked frame's name, locals and line (outermost-first index `len - 1 - up`).
    pub fn picked_frame_info(&self) -> Option<PickedFrame<'_>> {
        let up = self.picked_frame()?;
        let d = self.details.get(&self.selected)?;
        let k = d.frames.len() - 1 - up;
        let (name, vars) = d.frames.get(k)?;
        Some((name, vars, d.frame_lines.get(k).copied().flatten()))
    }

    /// The line the code pane marks with `▶`: the picked frame's, else the node's.
    pub fn marked_line(&self) -> Option<usize> {
        match self.picked_frame_info() {
            Some((_, _, line)) => line,
            None => self.tree.get(self.selected).and_then(|n| n.info.place()),
        }
    }

    /// The frame to keep picked when the selection moves to `id`: the same one while `id`
    /// runs in the same activation of the same function (no node on the tree path between
    /// the two has fewer frames), else the innermost.
    pub(super) fn kept_frame(&self, id: NodeId) -> usize {
        let (Some(a), Some(b)) = (self.tree.get(self.selected), self.tree.get(id)) else {
            return 0;
        };
        if self.frame_up == 0
            || a.info.frames() != b.info.frames()
            || a.info.func() != b.info.func()
        {
            return 0;
        }
        let depth = a.info.frames();
        // `a` and its ancestors, each with "no shallower node from `a` up to here".
        let mut up_from_a = std::collections::HashMap::new();
        let (mut cur, mut deep) = (Some(a), true);
        while let Some(n) = cur {
            deep &= n.info.frames() >= depth;
            up_from_a.insert(n.info.id(), deep);
            cur = n.info.parent().and_then(|p| self.tree.get(p));
        }
        let (mut cur, mut deep) = (Some(b), true);
        while let Some(n) = cur {
            deep &= n.info.frames() >= depth;
            if let Some(&from_a) = up_from_a.get(&n.info.id()) {
                return if deep && from_a { self.frame_up } else { 0 };
            }
            cur = n.info.parent().and_then(|p| self.tree.get(p));
        }
        0
    }

    /// `j`/`k` in the call stack pane: `by` frames outwards (negative: inwards).
    pub(super) fn move_frame(&mut self, by: isize) {
        let n = self.frame_count();
        if n == 0 {
            return;
        }
        let up = (self.frame_up as isize)
            .saturating_add(by)
            .clamp(0, n as isize - 1) as usize;
        self.frame_up = up;
        self.request_watches();
        let (name, line) = match self.picked_frame_info() {
            Some((name, _, line)) => (name.to_string(), line),
            None => {
                let d = &self.details[&self.selected];
                let name = d.frames.last().map_or("?".to_string(), |(f, _)| f.clone());
                (
                    name,
                    self.tree.get(self.selected).and_then(|n| n.info.place()),
                )
            }
        };
        if let Some(line) = line {
            self.code_cursor = line;
        }
        let at = line.map_or(String::new(), |l| format!(" at line {l}"));
        self.message = if up == 0 {
            format!("frame {name} (innermost){at}")
        } else {
            format!("frame {name} ({up} up){at}: the store shows its variables")
        };
    }
}
