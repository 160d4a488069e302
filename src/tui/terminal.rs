//! The real terminal: raw mode, alternate screen, mouse; always restored.
//!
//! [`Session::enter`] sets the terminal up and returns a guard that restores it when
//! dropped (quit, error, or unwinding from a panic). A panic hook restores it before the
//! panic message is printed (so the message is readable), and SIGTERM, SIGINT and SIGHUP
//! record the signal for the event loop, which quits through the same path and exits with
//! 128 + the signal's number (143 for SIGTERM), as a shell reports a process the signal
//! killed. In raw mode Ctrl-C is a key, which the app treats as quit.

use std::io::{self, Stdout};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Once};

use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::crossterm::{cursor, execute};
use ratatui::Terminal;

/// The terminal in UI mode; dropping it restores the terminal.
pub struct Session {
    pub terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl Session {
    pub fn enter() -> io::Result<Session> {
        install_panic_hook();
        enable_raw_mode()?;
        let mut out = io::stdout();
        if let Err(e) = execute!(out, EnterAlternateScreen, EnableMouseCapture, cursor::Hide) {
            restore();
            return Err(e);
        }
        match Terminal::new(CrosstermBackend::new(out)) {
            Ok(terminal) => Ok(Session { terminal }),
            Err(e) => {
                restore();
                Err(e)
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        restore();
    }
}

/// Leave raw mode and the alternate screen, show the cursor. Safe to call twice.
pub fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
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

/// The last of SIGTERM, SIGINT or SIGHUP received, if any.
pub struct Signals(Arc<AtomicUsize>);

impl Signals {
    pub fn register() -> Signals {
        let last = Arc::new(AtomicUsize::new(0));
        for sig in [
            signal_hook::consts::SIGTERM,
            signal_hook::consts::SIGINT,
            signal_hook::consts::SIGHUP,
        ] {
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
