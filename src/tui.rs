//! The terminal UI: `symdbg FILE` opens an interactive walk of the symbolic execution tree.
//!
//! Threads: the engine lives on a worker thread ([`worker`], it owns Z3 and is `!Send`);
//! the UI thread ([`run`]) waits for terminal events (read on a thread of their own,
//! [`terminal::Input`]) and worker replies, updates the [`app`]
//! state (pure: keys and replies in, commands out) and draws it with [`view`]. The UI never
//! waits for the engine: long work shows a spinner with the node count, and Esc sets the
//! engine's cancel flag. [`terminal`] restores the terminal on every way out (quit, panic,
//! Ctrl-C, SIGTERM). [`harness`] drives the same app and worker synchronously for tests.
//!
//! Module map: [`protocol`] (the messages), [`worker`], [`tree`] (the UI's mirror of the SET
//! and its visible rows), [`app`] (+ `app/input.rs`, `app/nav.rs`), [`view`] (+ one file per
//! pane), [`keys`] (the keymap: one table drives input, help and hints), [`theme`] and [`highlight`] (palettes, syntax
//! colouring), [`color`] (terminals without 24-bit colour), [`terminal`], [`harness`].

pub mod app;
pub mod carry;
pub mod color;
pub mod harness;
pub mod keys;
pub use crate::files::{output, program as program_file};
pub mod protocol;
pub mod session_file;
pub mod terminal;
pub mod tree;
pub mod view;
pub mod worker;

pub mod highlight;
pub mod syntax;
pub mod theme;

use std::io::IsTerminal;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{RecvTimeoutError, TryRecvError};
use std::time::Duration;

use ratatui::crossterm::event::Event;

use crate::base::SourceMap;
use crate::diagnostics::render_all;
use crate::session::Config;
use app::App;

/// Exit code for a bad program, bad usage or no terminal.
const EXIT_USAGE: i32 = 2;

/// With this environment variable set, the UI panics after its first frame: the end-to-end
/// test uses it to check that the panic hook restores the terminal.
pub const TEST_PANIC: &str = "SYMDBG_TEST_PANIC";

/// Everything the UI needs to start.
#[derive(Clone, Debug)]
pub struct Setup {
    pub source: SourceMap,
    /// Analyse a call of this function after the module's top level ran (`import`).
    pub entry: Option<String>,
    pub config: Config,
    /// Node limit of one exploration (`r`, `n`, `f`, `c`).
    pub max_nodes: usize,
    /// Theme name (`--theme`).
    pub theme: Option<String>,
    /// The terminal's colour depth (`--colors`).
    pub colors: color::ColorDepth,
    /// `c` and `r` search breadth-first (`--bfs`).
    pub bfs: bool,
}

/// The files behind a UI: the program's (reload with `L`, the session file beside it) and
/// the session file (`--session`). All `None` for a program that is not a file (tests).
#[derive(Clone, Debug, Default)]
pub struct Files {
    pub program: Option<std::path::PathBuf>,
    /// The program file's stamp when it was read (a later one means it changed on disk).
    pub stamp: Option<program_file::Stamp>,
    /// `--session S`: restored at the start, written by `S`.
    pub session: Option<std::path::PathBuf>,
}

/// Run the UI; returns the exit code. The program is checked (and the engine built) before
/// the screen opens: a malformed program prints its diagnostics and exits with 2.
pub fn run(setup: Setup, files: Files) -> i32 {
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    // A theme file that does not parse is named before the screen opens (and again in the
    // status line, see `App::new`).
    let themes = theme::Themes::load();
    for w in themes.warnings() {
        eprintln!("warning: {w}");
    }
    if let Some(name) = &setup.theme {
        if themes.get(name).is_none() {
            eprintln!(
                "error: there is no theme `{}`; the themes are: {}",
                crate::base::escape::escape(name),
                crate::base::escape::escape(&themes.names().join(", "))
            );
            return EXIT_USAGE;
        }
    }
    let source = setup.source.clone();
    let theme = setup.theme.clone();
    let colors = setup.colors;
    let bfs = setup.bfs;
    let watch = files.program.clone();
    let stamp = files.stamp;
    let restore = files.session.is_some();
    let handle = match worker::spawn(setup, files) {
        Ok(h) => h,
        Err(diags) => {
            eprint!("{}", render_all(&diags, &source, color));
            return EXIT_USAGE;
        }
    };
    if !std::io::stdout().is_terminal() {
        eprintln!(
            "error: symdbg's debugger needs a terminal, and standard output is not one\n\
             note: `symdbg run FILE` prints the tree as text"
        );
        return EXIT_USAGE;
    }
    let mut app = App::new(source, theme.as_deref());
    app.colors = colors;
    app.bfs = bfs;
    if let Some(w) = handle.entry_warning.clone() {
        // The entry warning first; a theme warning already there follows it.
        app.message = if app.message.is_empty() {
            w
        } else {
            format!("{w}; {}", app.message)
        };
    }
    app.set_cancel(handle.cancel.clone());
    app.watch_file(stamp, watch.is_some());
    if restore {
        app.restore_session();
    }
    let signals = terminal::Signals::register();
    let watchdog = terminal::Watchdog::start(&signals);
    let result = event_loop(&mut app, &handle, &signals, &watchdog, watch.as_deref());
    // Stop long work so the engine thread ends soon; the process exits without waiting.
    handle.cancel.store(true, Ordering::Relaxed);
    match (result, signals.received()) {
        // A terminal that went away (SIGHUP) also fails the last write: report the signal.
        (Err(_), Some(sig)) => 128 + sig,
        (Ok(code), _) => code,
        (Err(e), None) => {
            terminal::report(&format!("error: terminal: {e}"));
            1
        }
    }
}

/// At most this many input events are handled between two frames.
const BURST: usize = 4096;

/// One terminal event to the app. A paste arrives whole (bracketed paste is on).
fn handle_event(app: &mut App, event: Event) {
    match event {
        Event::Key(k) => app.key(k),
        Event::Mouse(m) => app.mouse(m),
        Event::Paste(text) => app.paste(&text),
        Event::Resize(..) | Event::FocusGained | Event::FocusLost => {}
    }
}

/// Poll events and replies, draw when something changed; returns the exit code.
fn event_loop(
    app: &mut App,
    handle: &worker::Handle,
    signals: &terminal::Signals,
    watchdog: &terminal::Watchdog,
    watch: Option<&std::path::Path>,
) -> std::io::Result<i32> {
    let mut screen = terminal::Screen::enter()?;
    let input = terminal::Input::start(watchdog)?;
    let mut dirty = true;
    let mut code = 0;
    let mut checked = std::time::Instant::now();
    loop {
        // Has the program file changed on disk? One `stat` at most every 200 ms.
        if let Some(path) = watch {
            if checked.elapsed() >= Duration::from_millis(200) {
                checked = std::time::Instant::now();
                dirty |= app.disk_stamp(program_file::Stamp::of(path));
            }
        }
        if dirty {
            screen.terminal.draw(|f| view::draw(f, app))?;
            dirty = false;
            if std::env::var_os(TEST_PANIC).is_some() {
                panic!("{TEST_PANIC} is set: a deliberate panic to test the terminal's restore");
            }
        }
        loop {
            match handle.replies.try_recv() {
                Ok(r) => {
                    app.apply(r);
                    dirty = true;
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    drop(screen);
                    terminal::report("error: the engine thread stopped unexpectedly");
                    return Ok(101);
                }
            }
        }
        if let Some(sig) = signals.received() {
            code = 128 + sig;
            break;
        }
        let timeout = if app.waiting() { 80 } else { 250 };
        // One event (waiting up to `timeout`), then everything already read (a burst of
        // keys, a paste) before the next frame: one frame per burst, not one per key.
        let mut handled = 0;
        match input.events.recv_timeout(Duration::from_millis(timeout)) {
            Ok(event) => {
                handle_event(app, event?);
                handled += 1;
                while handled < BURST && !app.quit {
                    match input.events.try_recv() {
                        Ok(event) => handle_event(app, event?),
                        Err(_) => break,
                    }
                    handled += 1;
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                return Err(std::io::Error::other("the terminal reader stopped"));
            }
        }
        if handled > 0 {
            dirty = true;
        } else if app.waiting() {
            app.tick += 1;
            dirty = true;
        }
        for cmd in app.take_commands() {
            if handle.commands.send(cmd).is_err() {
                break;
            }
        }
        if app.quit {
            break;
        }
    }
    drop(screen);
    Ok(code)
}
