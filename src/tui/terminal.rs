//! The real terminal: raw mode, alternate screen, mouse; always restored.
//!
//! [`Screen::enter`] sets the terminal up and returns a guard that restores it when
//! dropped (quit, error, or unwinding from a panic). A panic hook restores it before the
//! panic message is printed (so the message is readable), and every catchable fatal signal
//! ([`FATAL_SIGNALS`]: SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, …) is recorded for the
//! event loop, which quits through the same path and exits with 128 + the signal's number
//! (143 for SIGTERM), as a shell reports a process the signal killed. In raw mode Ctrl-C is
//! a key, which the app treats as quit.
//!
//! When the terminal goes away (a closed window, `tmux kill-session`), crossterm's input
//! reader may keep failing inside `event::poll` and never return. [`Input`] reads events on
//! a thread of its own, so the event loop never waits on the terminal (a poll also waits,
//! on a live terminal, for the end of an escape sequence cut short: that one ends with the
//! next key). [`Watchdog`] guards the reader from another thread: if a poll has not come
//! back long after its timeout while standard input is no longer a terminal, or a signal
//! has not ended the loop soon, it restores what it can and exits the process.

use std::io::{self, IsTerminal, Stdout};
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    Event,
};
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::crossterm::{cursor, execute};
use ratatui::Terminal;

/// The terminal in UI mode; dropping it restores the terminal.
pub struct Screen {
    /// Never dropped: ratatui's drop shows the cursor and `eprintln!`s a failure, which
    /// panics when the terminal has gone away. [`restore`] shows the cursor instead.
    pub terminal: ManuallyDrop<Terminal<CrosstermBackend<Stdout>>>,
}

impl Screen {
    pub fn enter() -> io::Result<Screen> {
        install_panic_hook();
        enable_raw_mode()?;
        let mut out = io::stdout();
        if let Err(e) = execute!(
            out,
            EnterAlternateScreen,
            EnableMouseCapture,
            EnableBracketedPaste,
            cursor::Hide
        ) {
            restore();
            return Err(e);
        }
        match Terminal::new(CrosstermBackend::new(out)) {
            Ok(terminal) => Ok(Screen {
                terminal: ManuallyDrop::new(terminal),
            }),
            Err(e) => {
                restore();
                Err(e)
            }
        }
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore();
    }
}

/// Leave raw mode and the alternate screen, show the cursor. Safe to call twice.
pub fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
}

/// Restore the terminal before any panic message (once per process).
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

/// Print a line on stderr if it is still there (`eprintln!` panics when the terminal has
/// gone away).
pub fn report(line: &str) {
    use std::io::Write;
    let _ = writeln!(io::stderr(), "{line}");
}

/// The signals whose default action ends the process and that a handler can catch and
/// return from: each is recorded, and the event loop restores the terminal and exits with
/// 128 + its number. Not here: SIGKILL and SIGSTOP (uncatchable), SIGSEGV, SIGBUS, SIGILL,
/// SIGFPE, SIGTRAP and SIGSYS (faults of the running code: a handler that returns runs the
/// fault again), SIGPIPE (Rust ignores it: a write fails instead), the stop signals.
/// SIGABRT is caught when sent by another process; `abort()` itself still ends the process
/// after the handler returns.
pub const FATAL_SIGNALS: &[i32] = {
    use signal_hook::consts::signal::*;
    &[
        SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
        SIGXCPU, SIGXFSZ, SIGIO,
    ]
};

/// The last of the [`FATAL_SIGNALS`] received, if any.
pub struct Signals(Arc<AtomicUsize>);

impl Signals {
    pub fn register() -> Signals {
        let last = Arc::new(AtomicUsize::new(0));
        for &sig in FATAL_SIGNALS {
            let _ = signal_hook::flag::register_usize(sig, Arc::clone(&last), sig as usize);
        }
        Signals(last)
    }

    /// The signal's number, once one has arrived.
    pub fn received(&self) -> Option<i32> {
        match self.0.load(Ordering::Relaxed) {
            0 => None,
            sig => Some(sig as i32),
        }
    }
}

/// How long past its own timeout a poll may take before the watchdog ends the process.
const STUCK: Duration = Duration::from_secs(3);

/// Terminal events, read on a thread of their own ([`Input::start`]) so that the event loop
/// never waits on the terminal: crossterm's reader can hold a poll until the next key (an
/// escape sequence cut short, a paste not yet ended), and meanwhile the screen keeps
/// drawing the engine's replies and a signal still ends the loop at once.
pub struct Input {
    pub events: Receiver<io::Result<Event>>,
}

/// At most this many events wait for the event loop; then the reader waits (the rest stays
/// in the terminal's buffer).
const INPUT_QUEUE: usize = 8192;

impl Input {
    /// Start the reading thread; its polls run under `watchdog`.
    pub fn start(watchdog: &Watchdog) -> io::Result<Input> {
        let (tx, events) = sync_channel(INPUT_QUEUE);
        let watchdog = watchdog.clone();
        std::thread::Builder::new()
            .name("symdbg-input".into())
            .spawn(move || loop {
                let next = watchdog.poll(|| -> io::Result<Option<Event>> {
                    if event::poll(Duration::from_millis(250))? {
                        event::read().map(Some)
                    } else {
                        Ok(None)
                    }
                });
                match next {
                    Ok(None) => {}
                    Ok(Some(e)) => {
                        if tx.send(Ok(e)).is_err() {
                            return;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            })?;
        Ok(Input { events })
    }
}

/// Watches the terminal's reader from another thread (see the module doc).
#[derive(Clone)]
pub struct Watchdog {
    start: Instant,
    /// Milliseconds since `start` at which the current poll began; 0 outside polls.
    polling_since: Arc<AtomicUsize>,
}

impl Watchdog {
    /// Start the watching thread; `signals` are the ones the event loop also reads.
    pub fn start(signals: &Signals) -> Watchdog {
        let start = Instant::now();
        let polling_since = Arc::new(AtomicUsize::new(0));
        let since = Arc::clone(&polling_since);
        let signal = Arc::clone(&signals.0);
        let spawned = std::thread::Builder::new()
            .name("symdbg-watchdog".into())
            .spawn(move || {
                let mut signalled_at: Option<Instant> = None;
                // A process stopped and continued (SIGSTOP/SIGCONT, a loaded machine) sees a
                // long gap everywhere: after one, give the event loop STUCK again.
                let mut awake = Instant::now();
                let mut resumed = Instant::now();
                loop {
                    std::thread::sleep(Duration::from_millis(200));
                    if awake.elapsed() > Duration::from_secs(1) {
                        resumed = Instant::now();
                    }
                    awake = Instant::now();
                    let sig = signal.load(Ordering::Relaxed);
                    if sig != 0 && signalled_at.is_none() {
                        signalled_at = Some(Instant::now());
                    }
                    let polling = since.load(Ordering::Relaxed);
                    let stuck = polling != 0
                        && resumed.elapsed() > STUCK
                        && start.elapsed().as_millis() as usize
                            > polling + STUCK.as_millis() as usize;
                    // A live terminal can hold a poll too: crossterm's reader waits for the
                    // end of an escape sequence cut short (Alt+[ sends `ESC [`) until the
                    // next key. A terminal that went away is no longer a terminal.
                    let stuck = stuck && !io::stdin().is_terminal();
                    let ignored = signalled_at.is_some_and(|t| t.elapsed() > STUCK);
                    if stuck || ignored {
                        restore();
                        if sig != 0 {
                            std::process::exit(128 + sig as i32);
                        }
                        report("error: the terminal went away (its input was closed)");
                        std::process::exit(1);
                    }
                }
            });
        if let Err(e) = spawned {
            eprintln!("warning: no watchdog thread ({e}); a closed terminal may hang symdbg");
        }
        Watchdog {
            start,
            polling_since,
        }
    }

    /// Run `poll` (which should return within its own timeout) under watch.
    pub fn poll<T>(&self, poll: impl FnOnce() -> T) -> T {
        let now = (self.start.elapsed().as_millis() as usize).max(1);
        self.polling_since.store(now, Ordering::Relaxed);
        let out = poll();
        self.polling_since.store(0, Ordering::Relaxed);
        out
    }
}
