//! A synchronous UI without a terminal, for tests and benchmarks.
//!
//! [`Harness`] runs the [`Worker`] inline: every command the app queues is handled at once
//! and its replies applied before the next key, so a key sequence always gives the same
//! state and the same frame (the solver time is hidden from the status line).

use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::Terminal;

use super::app::App;
use super::worker::Worker;
use super::{view, Files, Setup};
use crate::diagnostics::Diagnostic;

pub struct Harness {
    pub app: App,
    worker: Worker,
    terminal: Terminal<TestBackend>,
}

impl Harness {
    /// Load the program and open the UI on a `width`×`height` screen.
    pub fn open(setup: Setup, width: u16, height: u16) -> Result<Harness, Vec<Diagnostic>> {
        Harness::open_with(setup, Files::default(), width, height)
    }

    /// [`Harness::open`] on a program read from a file (reload with `L`, session files):
    /// with `files.session`, the session is restored as `symdbg FILE --session S` does.
    pub fn open_with(
        setup: Setup,
        files: Files,
        width: u16,
        height: u16,
    ) -> Result<Harness, Vec<Diagnostic>> {
        let mut worker = Worker::new(&setup)?;
        let watching = files.program.is_some();
        let (stamp, restore) = (files.stamp, files.session.is_some());
        worker.files = files;
        let mut app = App::new(setup.source.clone(), setup.theme.as_deref());
        app.show_timing = false;
        app.colors = setup.colors;
        app.bfs = setup.bfs;
        app.set_cancel(worker.cancel_handle());
        app.apply(worker.ready());
        app.message = worker.entry_warning().unwrap_or_default();
        app.watch_file(stamp, watching);
        if restore {
            app.restore_session();
        }
        let terminal = Terminal::new(TestBackend::new(width, height))
            .map_err(|e| vec![Diagnostic::global(e.to_string())])?;
        let mut h = Harness {
            app,
            worker,
            terminal,
        };
        h.pump();
        h.draw();
        Ok(h)
    }

    /// Send the app's queued commands to the worker and apply the replies, until quiet.
    pub fn pump(&mut self) {
        loop {
            let cmds = self.app.take_commands();
            if cmds.is_empty() {
                return;
            }
            for cmd in cmds {
                let mut replies = Vec::new();
                self.worker.handle(cmd, &mut |r| replies.push(r));
                for r in replies {
                    self.app.apply(r);
                }
            }
        }
    }

    /// Press keys written as text: plain characters, and `<Enter>`, `<Esc>`, `<Tab>`,
    /// `<S-Tab>`, `<Up>`, `<Down>`, `<Left>`, `<Right>`, `<PgUp>`, `<PgDn>`, `<BS>`,
    /// `<C-c>`. The screen is redrawn after each key (as the real loop does).
    pub fn keys(&mut self, keys: &str) {
        for key in parse_keys(keys) {
            self.app.key(key);
            self.pump();
            self.draw();
        }
    }

    /// Look at the program file's stamp, as the event loop does a few times a second.
    pub fn poll_disk(&mut self, path: &std::path::Path) {
        self.app
            .disk_stamp(crate::tui::program_file::Stamp::of(path));
        self.draw();
    }

    /// A left click at a screen cell.
    pub fn click(&mut self, column: u16, row: u16) {
        self.app.mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        });
        self.pump();
        self.draw();
    }

    /// One notch of the mouse wheel at a screen cell.
    pub fn wheel(&mut self, column: u16, row: u16, down: bool) {
        self.app.mouse(MouseEvent {
            kind: if down {
                MouseEventKind::ScrollDown
            } else {
                MouseEventKind::ScrollUp
            },
            column,
            row,
            modifiers: KeyModifiers::NONE,
        });
        self.pump();
        self.draw();
    }

    pub fn resize(&mut self, width: u16, height: u16) {
        self.terminal.backend_mut().resize(width, height);
        let _ = self
            .terminal
            .resize(ratatui::layout::Rect::new(0, 0, width, height));
        self.draw();
    }

    /// Draw the app on the test screen (keys and clicks do this themselves).
    pub fn draw(&mut self) {
        let app = &mut self.app;
        let _ = self.terminal.draw(|f| view::draw(f, app));
    }

    /// The screen as text, one line per row, trailing spaces removed.
    pub fn screen(&self) -> String {
        buffer_text(self.terminal.backend().buffer())
    }

    /// The buffer of the last frame (colours and styles included).
    pub fn buffer(&self) -> &Buffer {
        self.terminal.backend().buffer()
    }
}

/// A buffer as text, one line per row, trailing spaces removed.
pub fn buffer_text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in area.top()..area.bottom() {
        let mut line = String::new();
        for x in area.left()..area.right() {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Parse the key notation of [`Harness::keys`].
pub fn parse_keys(keys: &str) -> Vec<KeyEvent> {
    let mut out = Vec::new();
    let mut rest = keys;
    while let Some(c) = rest.chars().next() {
        if c == '<' {
            if let Some(end) = rest.find('>') {
                let name = &rest[1..end];
                let (code, mods) = match name {
                    "Enter" => (KeyCode::Enter, KeyModifiers::NONE),
                    "Esc" => (KeyCode::Esc, KeyModifiers::NONE),
                    "Tab" => (KeyCode::Tab, KeyModifiers::NONE),
                    "S-Tab" => (KeyCode::BackTab, KeyModifiers::SHIFT),
                    "Up" => (KeyCode::Up, KeyModifiers::NONE),
                    "Down" => (KeyCode::Down, KeyModifiers::NONE),
                    "Left" => (KeyCode::Left, KeyModifiers::NONE),
                    "Right" => (KeyCode::Right, KeyModifiers::NONE),
                    "S-Left" => (KeyCode::Left, KeyModifiers::SHIFT),
                    "S-Right" => (KeyCode::Right, KeyModifiers::SHIFT),
                    "PgUp" => (KeyCode::PageUp, KeyModifiers::NONE),
                    "PgDn" => (KeyCode::PageDown, KeyModifiers::NONE),
                    "BS" => (KeyCode::Backspace, KeyModifiers::NONE),
                    "C-c" => (KeyCode::Char('c'), KeyModifiers::CONTROL),
                    _ => (KeyCode::Char('<'), KeyModifiers::NONE),
                };
                if code != KeyCode::Char('<') {
                    out.push(KeyEvent::new(code, mods));
                    rest = &rest[end + 1..];
                    continue;
                }
            }
        }
        out.push(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The program of the session fuzz target: eight branches and a division.
const FUZZ_PROGRAM: &str = "x0: int\nx1: int\nx2: int\nx3: int\nx4: int\nx5: int\nx6: int\nx7: int\nif x0 > 0:\n    y = 0\nif x1 > 0:\n    y = 1\nif x2 > 0:\n    y = 2\nif x3 > 0:\n    y = 3\nif x4 > 0:\n    y = 4\nif x5 > 0:\n    y = 5\nif x6 > 0:\n    y = 6\nif x7 > 0:\n    y = 7\nz = 1 // x0\n";

/// The session fuzz target's body (`fuzz/fuzz_targets/session_replay.rs`; tests run it on
/// chosen inputs): any bytes read as a session file for [`FUZZ_PROGRAM`], its frontier
/// replayed with a node limit of 64, its selection followed. Nothing may panic, and the
/// replay stops at the limit (asserted). The tree's size, or `None` where the bytes are
/// not a session file.
pub fn fuzz_session_replay(data: &[u8]) -> Option<usize> {
    let text = std::str::from_utf8(data).ok()?;
    let source = crate::base::SourceMap::new("p.py", FUZZ_PROGRAM);
    let config = crate::session::Config {
        timeout_ms: Some(100),
        ..Default::default()
    };
    let restore = super::session_file::parse(text, &source, &config, None).ok()?;
    let mut session = crate::session::Session::open(source, None, config).ok()?;
    let r = session.replay_frontier(&restore.frontier, 64, &|_| {});
    // One step past the limit at most, and a step makes a few children.
    assert!(session.tree().len() < 64 + 16, "{r:?}");
    let _ = session.follow(&restore.selected);
    Some(session.tree().len())
}
