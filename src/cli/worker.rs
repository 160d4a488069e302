//! The solver process (`solver/isolate.rs`): hard queries run in a child process, the
//! symdbg binary itself with the hidden first argument [`WORKER_ARG`], killed when it
//! outruns its time limit or the user cancels.
//!
//! - [`enable`] (called by [`super::main`]) registers the factory of [`Process`]es.
//! - [`serve`] is the child: requests on stdin, answers on stdout (`solver/isolate/wire.rs`),
//!   on a thread with the CLI's big stack. When stdin closes (the parent exited or was
//!   killed) it exits at once, even in the middle of a Z3 call that ignores interrupts: no
//!   solver process outlives its parent's pipe.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::session::solver_process::{
    isolate_hard_queries, serve_isolated, with_watchdog, Asked, Isolator, END,
};

/// The hidden first argument that makes symdbg a solver process.
pub const WORKER_ARG: &str = "__solver-worker";

/// How often a parent waiting for an answer looks at the cancel flag.
const TICK: Duration = Duration::from_millis(10);

static EXE: OnceLock<PathBuf> = OnceLock::new();

/// Run hard queries in solver processes from now on (this binary, if it can be found).
pub fn enable() {
    if let Ok(exe) = std::env::current_exe() {
        let _ = EXE.set(exe);
        isolate_hard_queries(|| {
            let exe = EXE.get()?.clone();
            Some(Box::new(Process { exe, child: None }))
        });
    }
}

/// A solver process, started on demand.
struct Process {
    exe: PathBuf,
    child: Option<Running>,
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    /// The lines of its stdout (a reader thread, which ends when the process does).
    lines: Receiver<String>,
}

impl Running {
    fn start(exe: &PathBuf) -> std::io::Result<Running> {
        let mut child = Command::new(exe)
            .arg(WORKER_ARG)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::other("no pipes"));
        };
        let (tx, lines) = mpsc::channel();
        let reader = std::thread::Builder::new()
            .name("symdbg-solver-reader".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        if let Err(e) = reader {
            let _ = child.kill();
            let _ = child.wait();
            return Err(e);
        }
        Ok(Running {
            child,
            stdin,
            lines,
        })
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        // Killed and reaped: no process outlives its use, no zombie.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Isolator for Process {
    fn ask(
        &mut self,
        request: &str,
        deadline: Option<Instant>,
        cancel: Option<&AtomicBool>,
    ) -> Asked {
        if self.child.is_none() {
            match Running::start(&self.exe) {
                Ok(r) => self.child = Some(r),
                Err(e) => return Asked::Failed(format!("cannot start: {e}")),
            }
        }
        let running = self.child.as_mut().expect("started above");
        if let Err(e) = running
            .stdin
            .write_all(request.as_bytes())
            .and_then(|()| running.stdin.flush())
        {
            self.child = None;
            return Asked::Failed(format!("cannot send the query: {e}"));
        }
        let mut answer = Vec::new();
        loop {
            if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                self.child = None;
                return Asked::Cancelled;
            }
            let now = Instant::now();
            if deadline.is_some_and(|d| now >= d) {
                self.child = None;
                return Asked::Late;
            }
            let wait = deadline.map_or(TICK, |d| (d - now).min(TICK));
            match running.lines.recv_timeout(wait) {
                Ok(line) if line == END => return Asked::Answer(answer),
                Ok(line) => answer.push(line),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    self.child = None;
                    return Asked::Failed("the solver process ended".into());
                }
            }
        }
    }
}

/// The solver process: answer requests from stdin until it closes. Returns the exit code.
pub fn serve() -> i32 {
    let (tx, requests) = mpsc::channel::<String>();
    // Reads requests; when stdin closes, ends the process, whatever Z3 is doing.
    let reader = std::thread::Builder::new()
        .name("symdbg-solver-requests".into())
        .spawn(move || {
            let mut request = String::new();
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if line == END {
                    if tx.send(std::mem::take(&mut request)).is_err() {
                        break;
                    }
                } else {
                    request.push_str(&line);
                    request.push('\n');
                }
            }
            std::process::exit(0);
        });
    if reader.is_err() {
        return 1;
    }
    let solving = std::thread::Builder::new()
        .name("symdbg-solver".into())
        .stack_size(super::STACK_SIZE)
        .spawn(move || {
            with_watchdog(|| {
                let mut solver = None;
                let mut out = std::io::stdout().lock();
                for request in requests {
                    let answer = serve_isolated(&request, &mut solver);
                    if out
                        .write_all(answer.as_bytes())
                        .and_then(|()| out.flush())
                        .is_err()
                    {
                        break;
                    }
                }
            })
        });
    match solving {
        Ok(handle) => i32::from(handle.join().is_err()),
        Err(_) => 1,
    }
}
