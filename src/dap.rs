//! `symdbg dap`: the debugger as a Debug Adapter Protocol server on stdin/stdout, a third
//! client of [`Session`](crate::session::Session) beside the command line and the TUI.
//! The protocol as symdbg speaks it (launch arguments, threads as paths, scopes, the tree
//! requests) is documented in `src/dap/SCHEMA.md`.
//!
//! Three threads:
//! - the reader ([`reader`]) parses frames from the input and hands requests to the owner
//!   in order; it answers nothing itself, except that a `pause` also sets the cancel flag
//!   at once (so a pause is seen while a step or a Z3 call runs, as the TUI's Esc), and so
//!   do `disconnect`, `terminate` and the end of the input;
//! - the owner (this thread: the session is `!Send` and the command line's thread has the
//!   big stack) answers each request ([`adapter`]);
//! - the writer ([`wire::Writer`]) is the only thing that writes to the output: it numbers
//!   the messages (`seq`) and frames them. Nothing else on this path prints; diagnostics
//!   go into `output` events (and error responses).

mod adapter;
mod breaks;
mod framing;
mod inspect;
mod launch;
mod moves;
mod threads;
mod tree;
mod values;
mod wire;

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};

use serde_json::Value;

pub use framing::{read_frame, write_frame, Frame, FrameError, MAX_BODY};

/// What the reader hands the owner.
#[derive(Debug)]
pub(crate) enum Incoming {
    /// A request (a JSON object with `seq`, `command`, maybe `arguments`).
    Request(Value),
    /// A frame or a body that is no request: the message (and the `seq` when the body
    /// had one, so the error can answer it).
    Bad { message: String, seq: Option<i64> },
    /// The input ended.
    Eof,
}

/// The flags a `pause` sets, shared by the reader and the owner.
#[derive(Clone, Default)]
pub(crate) struct PauseFlags {
    /// A pause was read and not yet answered: the owner's progress callback stops the run.
    pub pending: Arc<AtomicBool>,
    /// The session's cancel flag (it interrupts a Z3 call); replaced on each launch.
    pub cancel: Arc<Mutex<Option<Arc<AtomicBool>>>>,
}

impl PauseFlags {
    fn pause(&self) {
        self.pending.store(true, Ordering::SeqCst);
        if let Ok(slot) = self.cancel.lock() {
            if let Some(c) = slot.as_ref() {
                c.store(true, Ordering::SeqCst);
            }
        }
    }
}

/// Serve DAP on `input`/`output` until `disconnect` or the end of the input (`terminate`
/// ends the program, not the adapter).
/// Returns the process exit code (0; 2 when the output cannot be written).
pub fn serve(input: Box<dyn BufRead + Send>, output: Box<dyn Write + Send>) -> i32 {
    let (to_writer, writer) = wire::Writer::spawn(output);
    let (to_owner, from_reader) = channel::<Incoming>();
    let flags = PauseFlags::default();
    let reader_flags = flags.clone();
    // The reader is not joined: it may sit in a read of the input after the session ends
    // (the process exits then).
    let spawned = std::thread::Builder::new()
        .name("symdbg-dap-reader".into())
        .spawn(move || reader(input, to_owner, reader_flags));
    if spawned.is_err() {
        let _ = to_writer.send(wire::output_event(
            "stderr",
            "symdbg: cannot start the reader thread\n",
        ));
        drop(to_writer);
        return writer.join();
    }
    let mut a = adapter::Adapter::new(to_writer, flags);
    while let Ok(msg) = from_reader.recv() {
        if !a.handle(msg) {
            break;
        }
    }
    drop(a);
    writer.join()
}

/// Read frames and pass them on in order until the input ends or the owner is gone.
fn reader(mut input: Box<dyn BufRead + Send>, to_owner: Sender<Incoming>, flags: PauseFlags) {
    loop {
        let msg = match read_frame(&mut *input) {
            Err(e) => Incoming::Bad {
                message: format!("cannot read the input: {e}"),
                seq: None,
            },
            Ok(Frame::Eof) => Incoming::Eof,
            Ok(Frame::Cut(FrameError(m))) => Incoming::Bad {
                message: format!("malformed frame: {m}"),
                seq: None,
            },
            Ok(Frame::Bad(FrameError(m))) => Incoming::Bad {
                message: format!("malformed frame: {m}"),
                seq: None,
            },
            Ok(Frame::Body(bytes)) => parse(&bytes),
        };
        let last = matches!(msg, Incoming::Eof)
            || matches!(&msg, Incoming::Bad { seq: None, message }
                if message.starts_with("cannot read") || message.contains("the input ended"));
        // A pause interrupts the move that runs; so do the requests that end the session
        // and the end of the input (else an endless `continue` would keep it alive).
        let interrupts = match &msg {
            Incoming::Request(r) => matches!(
                r.get("command").and_then(Value::as_str),
                Some("pause" | "disconnect" | "terminate")
            ),
            Incoming::Eof => true,
            Incoming::Bad { .. } => false,
        };
        if interrupts {
            flags.pause();
        }
        if to_owner.send(msg).is_err() || last {
            if last {
                let _ = to_owner.send(Incoming::Eof);
            }
            return;
        }
    }
}

/// A body as a request, or why it is none.
fn parse(bytes: &[u8]) -> Incoming {
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => {
            return Incoming::Bad {
                message: format!("the body is not JSON: {e}"),
                seq: None,
            }
        }
    };
    let seq = value.get("seq").and_then(Value::as_i64);
    let is_request = value.get("type").and_then(Value::as_str) == Some("request");
    let has_command = value.get("command").and_then(Value::as_str).is_some();
    match (is_request, has_command, seq) {
        (true, true, Some(_)) => Incoming::Request(value),
        _ => Incoming::Bad {
            message: "a message that is no request (one needs \"type\": \"request\", an integer \"seq\" and a \"command\")".into(),
            seq,
        },
    }
}

#[cfg(test)]
mod tests;
