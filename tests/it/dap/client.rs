//! A small DAP client for the tests: spawns `symdbg dap`, writes requests, reads every
//! frame the adapter writes (anything on stdout that is not a frame fails the test).

use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use serde_json::{json, Value};
use symdbg::dap::{read_frame, Frame};

/// A hang guard, not a timing assumption: a message that takes this long is a hang.
const HANG: Duration = Duration::from_secs(120);

pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Result<Value, String>>,
    seq: i64,
    /// Every message received so far, in order.
    pub log: Vec<Value>,
}

impl Client {
    pub fn spawn() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_symdbg"))
            .arg("dap")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("symdbg dap starts");
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let msg = match read_frame(&mut r) {
                    Ok(Frame::Body(b)) => serde_json::from_slice(&b)
                        .map_err(|e| format!("the adapter wrote a body that is not JSON: {e}")),
                    Ok(Frame::Eof) => return,
                    Ok(Frame::Bad(e) | Frame::Cut(e)) => {
                        Err(format!("the adapter wrote no frame: {e:?}"))
                    }
                    Err(e) => Err(e.to_string()),
                };
                if tx.send(msg).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            rx,
            seq: 0,
            log: Vec::new(),
        }
    }

    /// Write raw bytes to the adapter.
    pub fn raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Send a request; returns its seq.
    pub fn send(&mut self, command: &str, args: Value) -> i64 {
        self.seq += 1;
        let body =
            json!({"seq": self.seq, "type": "request", "command": command, "arguments": args});
        let body = serde_json::to_vec(&body).unwrap();
        let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        frame.extend_from_slice(&body);
        self.raw(&frame);
        self.seq
    }

    /// The next message (panics on a hang, a closed output or a malformed frame).
    pub fn next(&mut self) -> Value {
        let msg = self
            .rx
            .recv_timeout(HANG)
            .expect("the adapter answers (or it hung / exited)")
            .unwrap_or_else(|e| panic!("{e}"));
        self.log.push(msg.clone());
        msg
    }

    /// Send a request and wait for its response (messages before it are kept in `log`).
    pub fn request(&mut self, command: &str, args: Value) -> Value {
        let seq = self.send(command, args);
        self.response_to(seq)
    }

    pub fn response_to(&mut self, seq: i64) -> Value {
        loop {
            let m = self.next();
            if m["type"] == "response" && m["request_seq"] == seq {
                return m;
            }
        }
    }

    /// A successful request's body.
    pub fn ok(&mut self, command: &str, args: Value) -> Value {
        let r = self.request(command, args);
        assert_eq!(r["success"], true, "{command}: {r}");
        r["body"].clone()
    }

    /// Wait for an event named `name`; returns it.
    pub fn event(&mut self, name: &str) -> Value {
        loop {
            let m = self.next();
            if m["type"] == "event" && m["event"] == name {
                return m;
            }
        }
    }

    /// The events named `name` received so far.
    pub fn events(&self, name: &str) -> Vec<Value> {
        self.log
            .iter()
            .filter(|m| m["type"] == "event" && m["event"] == name)
            .cloned()
            .collect()
    }

    /// Close the adapter's input; returns its exit code once it exited.
    pub fn close(mut self) -> i32 {
        drop(self.stdin.take());
        // (the rest of the output: every message must still be a frame)
        while let Ok(m) = self.rx.recv_timeout(HANG) {
            m.unwrap_or_else(|e| panic!("{e}"));
        }
        self.child.wait().unwrap().code().unwrap_or(-1)
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
