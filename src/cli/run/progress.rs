//! `run`'s progress line on standard error, for trees that take seconds:
//! `exploring: 12,345 nodes, 3,210 leaves, 4,567 solver checks, 3.2 s`, redrawn in place
//! at most every [`EVERY`] and erased before any result is printed. Only when standard
//! error is a terminal, never with `--quiet`, and not when `--json` goes to a pipe (a
//! program reads it; its caller's terminal is not ours to draw on).

use std::cell::Cell;
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::diagnostics::{agree, thousands};
use crate::session::Live;

/// How often the line is redrawn, and how long a run goes before the first line (a quick
/// run draws nothing).
const EVERY: Duration = Duration::from_millis(200);

/// Set to a number of milliseconds, the delay before the first line and between lines
/// (tests set 0, so that a tiny tree draws the line).
pub const DELAY_VAR: &str = "SYMDBG_PROGRESS_MS";

pub(super) struct Progress {
    live: Arc<Live>,
    started: Instant,
    every: Duration,
    /// When the line was last drawn (`None`: not yet, nothing to erase).
    drawn: Cell<Option<Instant>>,
}

impl Progress {
    /// A progress line, if one should be drawn (see the module docs).
    pub(super) fn new(live: Arc<Live>, quiet: bool, json: bool) -> Option<Progress> {
        let stderr_tty = std::io::stderr().is_terminal();
        let json_to_pipe = json && !std::io::stdout().is_terminal();
        if quiet || !stderr_tty || json_to_pipe {
            return None;
        }
        let every = std::env::var(DELAY_VAR)
            .ok()
            .and_then(|v| v.parse().ok())
            .map_or(EVERY, Duration::from_millis);
        Some(Progress {
            live,
            started: Instant::now(),
            every,
            drawn: Cell::new(None),
        })
    }

    /// After a step: redraw the line if it is due (`nodes`: the tree's size).
    pub(super) fn tick(&self, nodes: usize) {
        let now = Instant::now();
        let due = match self.drawn.get() {
            None => now.duration_since(self.started) >= self.every,
            Some(last) => now.duration_since(last) >= self.every,
        };
        if !due {
            return;
        }
        self.drawn.set(Some(now));
        let (leaves, checks) = (self.live.leaves(), self.live.solver_checks());
        let line = format!(
            "exploring: {} {}, {} {}, {} {}, {:.1} s",
            thousands(nodes as u64),
            agree(nodes, "node"),
            thousands(leaves as u64),
            agree(leaves, "leaf"),
            thousands(checks),
            agree(
                usize::try_from(checks).unwrap_or(usize::MAX),
                "solver check"
            ),
            now.duration_since(self.started).as_secs_f64()
        );
        // `\r` and "erase line": the line is redrawn in place, never scrolls.
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K{line}");
        let _ = err.flush();
    }

    /// Erase the line (if one was drawn), so that what follows starts on a clean line.
    pub(super) fn clear(&self) {
        if self.drawn.take().is_some() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}
