//! The outgoing side: message builders (responses, events) and the writer thread, the
//! only thing that writes to the adapter's output. Messages are built without `seq`; the
//! writer numbers them in the order it sends them.

use std::io::Write;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;

use serde_json::{json, Value};

use super::framing::write_frame;

/// The writer thread's handle.
pub struct Writer {
    thread: Option<JoinHandle<bool>>,
}

impl Writer {
    /// Start the writer on `output`: it writes every message sent to the returned sender,
    /// until every sender is dropped.
    pub fn spawn(output: Box<dyn Write + Send>) -> (Sender<Value>, Writer) {
        let (tx, rx) = channel::<Value>();
        let thread = std::thread::Builder::new()
            .name("symdbg-dap-writer".into())
            .spawn(move || write_all(output, rx))
            .ok();
        (tx, Writer { thread })
    }

    /// Wait until every message is written: exit code 0, or 2 when the output failed
    /// (or the writer never started).
    pub fn join(self) -> i32 {
        match self.thread.map(|t| t.join()) {
            Some(Ok(true)) => 0,
            _ => 2,
        }
    }
}

/// Write messages until the channel closes; `false` when the output could not be written
/// (the rest are then read and dropped, so senders never block or fail).
fn write_all(mut output: Box<dyn Write + Send>, rx: Receiver<Value>) -> bool {
    let mut seq: i64 = 0;
    let mut ok = true;
    for mut msg in rx {
        if !ok {
            continue;
        }
        seq += 1;
        if let Some(obj) = msg.as_object_mut() {
            obj.insert("seq".into(), json!(seq));
        }
        let body = serde_json::to_vec(&msg).unwrap_or_default();
        if write_frame(&mut *output, &body).is_err() {
            ok = false;
        }
    }
    ok
}

/// A successful response to `request` (its `seq` and `command`) with `body`.
pub fn response(request_seq: i64, command: &str, body: Value) -> Value {
    let mut r = json!({
        "type": "response",
        "request_seq": request_seq,
        "success": true,
        "command": command,
    });
    if !body.is_null() {
        r["body"] = body;
    }
    r
}

/// A failed response: `message` is shown to the user (also as the body's `error.format`,
/// which clients display).
pub fn error_response(request_seq: i64, command: &str, message: &str) -> Value {
    json!({
        "type": "response",
        "request_seq": request_seq,
        "success": false,
        "command": command,
        "message": message,
        "body": {"error": {"id": 1, "format": message.replace('{', "(").replace('}', ")"), "showUser": true}},
    })
}

pub fn event(name: &str, body: Value) -> Value {
    let mut e = json!({"type": "event", "event": name});
    if !body.is_null() {
        e["body"] = body;
    }
    e
}

/// An `output` event: `category` `console` (symdbg's messages), `stderr` (diagnostics) or
/// `stdout` (the program's output).
pub fn output_event(category: &str, text: &str) -> Value {
    event("output", json!({"category": category, "output": text}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_writer_numbers_messages_in_order() {
        let buf = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let (tx, w) = Writer::spawn(Box::new(Shared(buf.clone())));
        tx.send(event("a", Value::Null)).unwrap();
        tx.send(response(7, "threads", json!({"threads": []})))
            .unwrap();
        drop(tx);
        assert_eq!(w.join(), 0);
        let text = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
        let bodies: Vec<Value> = text
            .split("Content-Length: ")
            .skip(1)
            .map(|f| serde_json::from_str(f.split_once("\r\n\r\n").unwrap().1).unwrap())
            .collect();
        assert_eq!(bodies.len(), 2);
        assert_eq!(bodies[0]["seq"], 1);
        assert_eq!(bodies[1]["seq"], 2);
        assert_eq!(bodies[1]["request_seq"], 7);
    }
}
