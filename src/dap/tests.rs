//! The message loop in-process: random sequences of requests (well-formed and not), random
//! bytes between them, cut frames; the adapter answers every request once, writes only
//! frames and ends at the end of its input.

use std::io::Write;
use std::sync::{Arc, Mutex};

use proptest::prelude::*;
use serde_json::{json, Value};

use super::{read_frame, serve, write_frame, Frame};

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Run the adapter on `input`: its exit code and every message it wrote (panics when the
/// output is not frames of JSON).
fn drive(input: Vec<u8>) -> (i32, Vec<Value>) {
    let out = Shared::default();
    let code = serve(Box::new(std::io::Cursor::new(input)), Box::new(out.clone()));
    let bytes = out.0.lock().unwrap().clone();
    let mut r = std::io::Cursor::new(bytes);
    let mut msgs = Vec::new();
    loop {
        match read_frame(&mut r).unwrap() {
            Frame::Body(b) => msgs.push(serde_json::from_slice(&b).expect("JSON bodies")),
            Frame::Eof => return (code, msgs),
            Frame::Bad(e) | Frame::Cut(e) => panic!("the adapter wrote no frame: {e:?}"),
        }
    }
}

fn frame(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    write_frame(&mut out, &serde_json::to_vec(v).unwrap()).unwrap();
    out
}

const SRC: &str = "x: int\ny: int\nif x > 0:\n    z = 1\nelse:\n    z = 2\nw = z + y\nif y == 3:\n    q = 1 // (x - x)\nt = (w, z)\nassert w != 100\n";

/// A request, with arguments drawn from plausible and implausible values.
fn request(program: String) -> impl Strategy<Value = (String, Value)> {
    let thread = 0i64..5;
    prop_oneof![
        any::<bool>().prop_map(move |e| (
            "launch".to_string(),
            json!({"program": program.clone(), "stopOnEntry": e})
        )),
        Just(("initialize".to_string(), json!({}))),
        Just(("configurationDone".to_string(), json!({}))),
        (
            0u64..14,
            prop::sample::select(vec!["", "x > 5", "y +", "z == 2"])
        )
            .prop_map(|(l, c)| (
                "setBreakpoints".to_string(),
                json!({"source": {"path": "p.py"}, "breakpoints": [{"line": l, "condition": c}]})
            )),
        prop::sample::select(vec!["uncaught", "caught", "invariant", "bogus"]).prop_map(|f| (
            "setExceptionBreakpoints".to_string(),
            json!({ "filters": [f] })
        )),
        (
            prop::sample::select(vec![
                "next",
                "stepIn",
                "stepOut",
                "continue",
                "stepBack",
                "reverseContinue",
                "stackTrace",
                "exceptionInfo",
                "pause",
            ]),
            thread
        )
            .prop_map(|(c, t)| (c.to_string(), json!({ "threadId": t }))),
        (0i64..6).prop_map(|f| ("scopes".to_string(), json!({ "frameId": f }))),
        (0i64..10).prop_map(|r| ("variables".to_string(), json!({ "variablesReference": r }))),
        prop::sample::select(vec!["z + y", "t[1]", "x // 0", "nope +", ""]).prop_map(|e| (
            "evaluate".to_string(),
            json!({"expression": e, "context": "repl"})
        )),
        (0u64..30).prop_map(|n| ("symdbg/focus".to_string(), json!({ "node": n }))),
        Just(("symdbg/tree".to_string(), json!(null))),
        Just(("threads".to_string(), json!({}))),
        Just(("restart".to_string(), json!({}))),
        Just(("bogus".to_string(), json!([1, 2]))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Well-formed requests: each gets exactly one response, in order; the adapter ends at
    /// the end of its input with exit code 0.
    #[test]
    fn every_request_is_answered_once(reqs in prop::collection::vec(request(String::new()), 0..25)) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.py");
        std::fs::write(&path, SRC).unwrap();
        let program = path.to_string_lossy().into_owned();
        let mut input = Vec::new();
        // (a launch first half the time, so the requests after it do something)
        let mut all = vec![("launch".to_string(), json!({"program": program, "stopOnEntry": true}))];
        all.extend(reqs.into_iter().map(|(c, mut a)| {
            if c == "launch" { a["program"] = json!(program); }
            if c == "setBreakpoints" { a["source"]["path"] = json!(program); }
            (c, a)
        }));
        for (i, (c, a)) in all.iter().enumerate() {
            input.extend(frame(&json!({"seq": i + 1, "type": "request", "command": c, "arguments": a})));
        }
        let (code, msgs) = drive(input);
        prop_assert_eq!(code, 0);
        let answered: Vec<i64> = msgs
            .iter()
            .filter(|m| m["type"] == "response")
            .map(|m| m["request_seq"].as_i64().unwrap())
            .collect();
        let want: Vec<i64> = (1..=all.len() as i64).collect();
        prop_assert_eq!(answered, want);
        let seqs: Vec<i64> = msgs.iter().map(|m| m["seq"].as_i64().unwrap()).collect();
        prop_assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1));
    }

    /// Random bytes mixed into the stream, and the input cut anywhere: no panic, no hang,
    /// only frames out, exit code 0.
    #[test]
    fn garbage_and_cut_frames_never_break_the_loop(
        reqs in prop::collection::vec(request("p.py".into()), 0..6),
        junk in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..40), 0..6),
        cut in 0usize..2000,
    ) {
        let mut input = Vec::new();
        for (i, (c, a)) in reqs.iter().enumerate() {
            input.extend(frame(&json!({"seq": i + 1, "type": "request", "command": c, "arguments": a})));
            if let Some(j) = junk.get(i) {
                input.extend_from_slice(j);
            }
        }
        input.truncate(cut.min(input.len()));
        let (code, _) = drive(input);
        prop_assert_eq!(code, 0);
    }
}

/// An input that ends inside a body is said on the client's stderr channel, not dropped
/// silently (fuzz5), and the adapter still ends normally.
#[test]
fn an_input_cut_inside_a_body_is_reported() {
    let mut input = frame(
        &json!({"seq": 1, "type": "request", "command": "initialize", "arguments": {"adapterID": "x"}}),
    );
    input.extend_from_slice(b"Content-Length: 100\r\n\r\n{\"seq\": 2");
    let (code, msgs) = drive(input);
    assert_eq!(code, 0);
    let said: Vec<&str> = msgs
        .iter()
        .filter(|m| m["event"] == "output" && m["body"]["category"] == "stderr")
        .filter_map(|m| m["body"]["output"].as_str())
        .collect();
    assert!(
        said.iter()
            .any(|s| s.contains("the input ended inside a frame: 9 of the 100 bytes")),
        "{msgs:?}"
    );
}

#[test]
fn disconnect_ends_the_loop_before_the_input_does() {
    let mut input = frame(&json!({"seq": 1, "type": "request", "command": "disconnect"}));
    input.extend(frame(
        &json!({"seq": 2, "type": "request", "command": "initialize"}),
    ));
    let (code, msgs) = drive(input);
    assert_eq!(code, 0);
    assert_eq!(msgs.len(), 1, "{msgs:?}");
    assert_eq!(msgs[0]["command"], "disconnect");
}

#[test]
fn hit_conditions_read_as_counts() {
    use super::adapter::HitCondition;
    let stops = |t: &str| -> Vec<u64> {
        let h = HitCondition::parse(t).unwrap();
        (1..=7).filter(|&n| h.stops(n)).collect()
    };
    assert_eq!(stops("3"), [3]);
    assert_eq!(stops("== 3"), [3]);
    assert_eq!(stops(">= 5"), [5, 6, 7]);
    assert_eq!(stops("> 5"), [6, 7]);
    assert_eq!(stops("<2"), [1]);
    assert_eq!(stops("<= 2"), [1, 2]);
    assert_eq!(stops("% 3"), [3, 6]);
    for bad in ["often", "% 0", ">= -1", ""] {
        assert!(HitCondition::parse(bad).is_err(), "{bad}");
    }
}

/// Threads follow the tree: a fork starts a thread per other branch, the stepped thread
/// keeps the first; stepping back keeps every tip; a path that ends loses its thread.
#[test]
fn threads_settle_after_forks_back_steps_and_ends() {
    use super::threads::Threads;
    use crate::base::SourceMap;
    use crate::session::{Config, Session, Stepped};

    let mut s = Session::open(SourceMap::new("p.py", SRC), None, Config::default()).unwrap();
    let root = s.tree().root();
    let (mut threads, t1) = Threads::start(&s, 1);
    let Stepped::Children(c) = s.step(root, None) else {
        panic!("the root forks")
    };
    assert_eq!(c.len(), 2);
    let settled = threads.settle(&s, Some(t1), Some(c[0]));
    assert_eq!(settled.stopped, Some(t1));
    assert_eq!(settled.started.len(), 1, "the else-branch's thread");
    let t2 = settled.started[0];
    assert_eq!(threads.get(t1).unwrap().pos, c[0]);
    assert_eq!(threads.get(t2).unwrap().tip, c[1]);
    // Back to the root: the thread keeps its tip, nothing starts or exits.
    let settled = threads.settle(&s, Some(t1), Some(root));
    assert_eq!(settled.started, Vec::<i64>::new());
    assert_eq!(settled.exited, Vec::<i64>::new());
    assert_eq!(threads.get(t1).unwrap().pos, root);
    assert_eq!(threads.get(t1).unwrap().tip, c[0]);
    assert_eq!(threads.get(t2).unwrap().tip, c[1]);
    // The else-branch explored to its leaves: its thread follows an open node while
    // there is one, and exits once none is left under its tip.
    let ran = s.run(
        c[1],
        crate::session::Policy::Subtree,
        crate::session::Limits::default(),
        &|_| {},
    );
    assert_eq!(ran.ended, crate::session::Ended::Done);
    let settled = threads.settle(&s, None, None);
    assert_eq!(settled.exited, vec![t2]);
    assert!(threads.get(t2).is_none());
    assert_eq!(threads.list.len(), 1);
}
