//! Issue 26: `symdbg dap` driven through its stdin/stdout by a small DAP client
//! (`dap/client.rs`): launch, breakpoints with conditions and hit counts, forks into
//! threads, stepBack and reverseContinue, exceptionInfo whose model reproduces in python3,
//! scopes and variables, evaluate, restart, the tree requests, pause, disconnect; and bad
//! input (malformed frames, unknown commands, requests before launch, bad programs).

#[path = "dap/client.rs"]
pub(crate) mod client;

use client::Client;
use serde_json::{json, Value};

/// Two branches joining at line 7, a ZeroDivisionError on one path (line 9) and a tuple.
const SRC: &str = "\
x: int
y: int
if x > 0:
    z = 1
else:
    z = 2
w = z + y
if y == 3:
    q = 1 // (x - x)
t = (w, z, 4)
assert w != 100
";

fn program(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// initialize + launch + breakpoints + exception filters + configurationDone.
fn start(c: &mut Client, launch: Value, path: &str, bps: Value, filters: &[&str]) -> Value {
    let caps = c.ok(
        "initialize",
        json!({"adapterID": "symdbg", "linesStartAt1": true}),
    );
    assert_eq!(caps["supportsStepBack"], true);
    c.ok("launch", launch);
    c.event("initialized");
    let set = c.ok(
        "setBreakpoints",
        json!({"source": {"path": path}, "breakpoints": bps}),
    );
    c.ok("setExceptionBreakpoints", json!({ "filters": filters }));
    c.ok("configurationDone", json!({}));
    set
}

fn thread_names(c: &mut Client) -> Vec<(i64, String)> {
    c.ok("threads", json!({}))["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["id"].as_i64().unwrap(),
                t["name"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The variables of the scope named `scope` in the thread's innermost frame.
fn scope_vars(c: &mut Client, thread: i64, scope: &str) -> Vec<(String, String, i64)> {
    let frames = c.ok("stackTrace", json!({ "threadId": thread }));
    let frame = frames["stackFrames"][0]["id"].clone();
    let scopes = c.ok("scopes", json!({ "frameId": frame }));
    let r = scopes["scopes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == scope)
        .unwrap_or_else(|| panic!("no scope {scope}: {scopes}"))["variablesReference"]
        .clone();
    vars(c, r)
}

fn vars(c: &mut Client, r: Value) -> Vec<(String, String, i64)> {
    c.ok("variables", json!({ "variablesReference": r }))["variables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["name"].as_str().unwrap().to_string(),
                v["value"].as_str().unwrap().to_string(),
                v["variablesReference"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// `name = value` of each input in an exceptionInfo description (`ZeroDivisionError for
/// x = 1, y = 3 at line 9`).
fn inputs_of(description: &str) -> Vec<(String, String)> {
    let rest = description.split_once(" for ").unwrap().1;
    let rest = rest.split(" at line").next().unwrap();
    rest.split(", ")
        .map(|b| {
            let (k, v) = b.split_once(" = ").unwrap();
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// Run `src` in python3 with each input declaration `name: type` replaced by `name =
/// value`: (the exception's class, its line) from the traceback.
fn python_raises(src: &str, inputs: &[(String, String)]) -> (String, usize) {
    let text: String = src
        .lines()
        .map(|l| {
            let decl = inputs
                .iter()
                .find(|(k, _)| l.starts_with(&format!("{k}: ")) && !l.contains('='));
            match decl {
                Some((k, v)) => format!("{k} = {v}\n"),
                None => format!("{l}\n"),
            }
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("replay.py");
    std::fs::write(&p, text).unwrap();
    let out = std::process::Command::new("python3")
        .arg(&p)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let last = err.lines().last().unwrap_or_default();
    let class = last.split(':').next().unwrap_or_default().to_string();
    let line = err
        .lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix(&format!("File \"{}\", line ", p.display()))
        })
        .filter_map(|l| l.split(',').next()?.parse().ok())
        .next_back()
        .unwrap_or(0);
    (class, line)
}

#[test]
fn dap_session_breakpoints_threads_exception_scopes_evaluate_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = program(&dir, "p.py", SRC);
    let mut c = Client::spawn();
    let set = start(
        &mut c,
        json!({"program": path, "stopOnEntry": false}),
        &path,
        json!([{"line": 7}, {"line": 5}, {"line": 9, "condition": "x > 5"}]),
        &["uncaught"],
    );
    let bps = set["breakpoints"].as_array().unwrap();
    assert_eq!(bps[0]["verified"], true);
    assert_eq!(bps[1]["verified"], false, "line 5 is `else:`: {set}");
    assert!(bps[1]["message"].as_str().unwrap().contains("no statement"));
    assert_eq!(bps[2]["verified"], true);

    // Without stopOnEntry the program runs to the first hit: line 7 on the first branch;
    // the fork at line 3 made a second thread.
    let stopped = c.event("stopped");
    assert_eq!(stopped["body"]["reason"], "breakpoint");
    assert_eq!(stopped["body"]["hitBreakpointIds"], json!([bps[0]["id"]]));
    let t1 = stopped["body"]["threadId"].as_i64().unwrap();
    assert!(!c.events("thread").is_empty());
    let names = thread_names(&mut c);
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names
            .iter()
            .any(|(id, n)| *id == t1 && n.ends_with(": x > 0")),
        "{names:?}"
    );
    assert!(
        names.iter().any(|(_, n)| n.ends_with(": x <= 0")),
        "{names:?}"
    );
    let frames = c.ok("stackTrace", json!({ "threadId": t1 }));
    assert_eq!(frames["stackFrames"][0]["line"], 7);
    assert_eq!(frames["stackFrames"][0]["name"], "<module>");

    // Scopes: locals, the path condition with its origin line, a model.
    let locals = scope_vars(&mut c, t1, "Locals");
    assert!(
        locals.iter().any(|v| v.0 == "z" && v.1 == "1"),
        "{locals:?}"
    );
    let pc = scope_vars(&mut c, t1, "Path condition");
    assert_eq!(
        pc,
        vec![("#1 (line 3)".to_string(), "x > 0".to_string(), 0)]
    );
    let model = scope_vars(&mut c, t1, "Model");
    let x: i64 = model
        .iter()
        .find(|v| v.0 == "x")
        .unwrap()
        .1
        .parse()
        .unwrap();
    assert!(x > 0, "the model reaches the node: {model:?}");
    // evaluate: the symbolic value and the value under the model.
    let frame = c.ok("stackTrace", json!({ "threadId": t1 }))["stackFrames"][0]["id"].clone();
    let e = c.ok(
        "evaluate",
        json!({"expression": "z + y", "frameId": frame, "context": "repl"}),
    );
    let result = e["result"].as_str().unwrap();
    assert!(result.starts_with("z + y = y + 1"), "{result}");
    assert!(result.contains("; here "), "{result}");
    assert_eq!(e["type"], "int");
    let bad = c.request(
        "evaluate",
        json!({"expression": "nope +", "frameId": frame, "context": "watch"}),
    );
    assert_eq!(bad["success"], false);

    // The conditional breakpoint on line 9 (x > 5 can hold on this path), then the
    // ZeroDivisionError leaf below it (an exception stop).
    c.ok("continue", json!({ "threadId": t1 }));
    let s = c.event("stopped");
    assert_eq!(s["body"]["reason"], "breakpoint");
    assert_eq!(s["body"]["hitBreakpointIds"], json!([bps[2]["id"]]));
    let t = s["body"]["threadId"].as_i64().unwrap();
    c.ok("continue", json!({ "threadId": t }));
    let s = c.event("stopped");
    assert_eq!(s["body"]["reason"], "exception", "{s}");
    let t = s["body"]["threadId"].as_i64().unwrap();
    let info = c.ok("exceptionInfo", json!({ "threadId": t }));
    assert_eq!(info["exceptionId"], "ZeroDivisionError");
    let description = info["description"].as_str().unwrap();
    assert!(
        description.starts_with("ZeroDivisionError for "),
        "{description}"
    );
    let inputs = inputs_of(description);
    assert_eq!(
        inputs.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
        ["x", "y"]
    );
    // The model reproduces in python3: the same class on the same line.
    let (class, line) = python_raises(SRC, &inputs);
    assert_eq!(class, "ZeroDivisionError");
    assert_eq!(line, 9);
    assert!(
        description.ends_with(&format!("at line {line}")),
        "{description}"
    );
    // The frame of an exception leaf is where it was raised.
    let frames = c.ok("stackTrace", json!({ "threadId": t }));
    assert_eq!(frames["stackFrames"][0]["line"], 9);
    assert_eq!(frames["stackFrames"][0]["column"], 9);
    // Not at an exception: an error.
    let other = thread_names(&mut c)
        .into_iter()
        .find(|(id, _)| *id != t)
        .unwrap()
        .0;
    assert_eq!(
        c.request("exceptionInfo", json!({ "threadId": other }))["success"],
        false
    );

    // stepBack: the parent node (line 9's statement, open no more); reverseContinue: the
    // breakpoint on line 7 above it.
    c.ok("stepBack", json!({ "threadId": t }));
    c.event("stopped");
    let f = c.ok("stackTrace", json!({ "threadId": t }));
    assert_eq!(f["stackFrames"][0]["line"], 9);
    c.ok("reverseContinue", json!({ "threadId": t }));
    let s = c.event("stopped");
    assert_eq!(s["body"]["reason"], "breakpoint");
    let f = c.ok("stackTrace", json!({ "threadId": t }));
    assert_eq!(f["stackFrames"][0]["line"], 7);
    // Forward again through history: stepIn moves along the explored path.
    c.ok("stepIn", json!({ "threadId": t }));
    c.event("stopped");
    let f = c.ok("stackTrace", json!({ "threadId": t }));
    assert_eq!(f["stackFrames"][0]["line"], 8);

    // The tree: every node, threads at their nodes.
    let tree = c.ok("symdbg/tree", json!({}));
    let nodes = tree["nodes"].as_array().unwrap();
    assert!(nodes.len() >= 8);
    assert!(nodes[0]["parent"].is_null());
    assert!(nodes
        .iter()
        .any(|n| n["outcome"] == "exception" && n["exception"] == "ZeroDivisionError"));
    assert!(nodes.iter().any(|n| n["thread"] == t));
    assert!(!c.events("symdbg/treeChanged").is_empty());

    // Restart with a changed file, one line more at the top: the breakpoints carry and
    // are checked again (line 5 was `else:`, now it is `z = 1`).
    std::fs::write(&path, format!("# changed\n{SRC}")).unwrap();
    c.ok("restart", json!({}));
    let s = c.event("stopped");
    assert_eq!(s["body"]["reason"], "breakpoint");
    let t = s["body"]["threadId"].as_i64().unwrap();
    let f = c.ok("stackTrace", json!({ "threadId": t }));
    assert_eq!(
        f["stackFrames"][0]["line"], 5,
        "line 5 is `z = 1` now: its breakpoint holds"
    );
    let changed = c.events("breakpoint");
    assert!(
        changed
            .iter()
            .any(|e| e["body"]["breakpoint"]["id"] == bps[1]["id"]
                && e["body"]["breakpoint"]["verified"] == true),
        "{changed:?}"
    );
    let ids: Vec<i64> = thread_names(&mut c).iter().map(|t| t.0).collect();
    assert!(
        ids.iter().all(|&id| id > 3),
        "thread ids are not reused: {ids:?}"
    );

    c.ok("disconnect", json!({}));
    assert_eq!(c.close(), 0);
}

#[test]
fn dap_stop_on_entry_steps_fork_into_threads_and_paths_end() {
    let dir = tempfile::tempdir().unwrap();
    let src = "x: int\nif x > 0:\n    z = 1\nelse:\n    z = 2\nt = (x, z, 4)\nassert z != 5\n";
    let path = program(&dir, "p.py", src);
    let mut c = Client::spawn();
    start(
        &mut c,
        json!({"program": path, "stopOnEntry": true}),
        &path,
        json!([]),
        &[],
    );
    let s = c.event("stopped");
    assert_eq!(s["body"]["reason"], "entry");
    let t = s["body"]["threadId"].as_i64().unwrap();
    assert_eq!(thread_names(&mut c).len(), 1);
    // stepIn at `if x > 0:` forks: the thread follows the then-branch, a thread starts.
    c.ok("stepIn", json!({ "threadId": t }));
    let s = c.event("stopped");
    assert_eq!(s["body"]["threadId"], t);
    assert_eq!(s["body"]["reason"], "step");
    let started: Vec<i64> = c
        .events("thread")
        .iter()
        .filter(|e| e["body"]["reason"] == "started")
        .map(|e| e["body"]["threadId"].as_i64().unwrap())
        .collect();
    assert_eq!(started.len(), 2, "thread 1 and the else-branch's");
    let f = c.ok("stackTrace", json!({ "threadId": t }));
    assert_eq!(f["stackFrames"][0]["line"], 3);
    // A tuple variable expands into its elements.
    for want in [6, 7] {
        c.ok("next", json!({ "threadId": t }));
        c.event("stopped");
        let f = c.ok("stackTrace", json!({ "threadId": t }));
        assert_eq!(f["stackFrames"][0]["line"], want);
    }
    let locals = scope_vars(&mut c, t, "Locals");
    let tup = locals.iter().find(|v| v.0 == "t").expect("t is bound");
    assert!(tup.2 > 0, "a tuple has children: {tup:?}");
    let children = vars(&mut c, json!(tup.2));
    // The elements, then where the value came from (issue 29).
    let (els, origins): (Vec<_>, Vec<_>) = children
        .into_iter()
        .partition(|v| !v.0.starts_with("origin"));
    assert_eq!(els.len(), 3, "{els:?}");
    assert_eq!(els[0].0, "[0]");
    assert_eq!(els[2].1, "4");
    assert_eq!(origins[0].0, "origin", "{origins:?}");
    assert!(
        origins[0].1.starts_with("line 6 (node ") && origins[0].1.ends_with("): t = (x, z, 4)"),
        "{origins:?}"
    );
    // Stepping every thread to its end: each path's thread exits, then `terminated`.
    let mut guard = 0;
    loop {
        guard += 1;
        assert!(guard < 200, "the paths end");
        let threads = thread_names(&mut c);
        let Some((id, _)) = threads.first() else {
            break;
        };
        let seq = c.send("next", json!({ "threadId": id }));
        c.response_to(seq);
        let m = loop {
            let m = c.next();
            if m["event"] == "stopped" || m["event"] == "terminated" {
                break m;
            }
        };
        if m["event"] == "terminated" {
            break;
        }
    }
    let exited = c
        .events("thread")
        .iter()
        .filter(|e| e["body"]["reason"] == "exited")
        .count();
    assert!(exited >= 2, "every path's thread exited");
    assert_eq!(c.close(), 0);
}

#[test]
fn dap_hit_conditions_count_hits_and_invariant_filter() {
    let dir = tempfile::tempdir().unwrap();
    let src = "x: int\ni = 0\nwhile i < x:\n    i = i + 1\n";
    let path = program(&dir, "loop.py", src);
    let mut c = Client::spawn();
    start(
        &mut c,
        json!({"program": path, "unroll": 10}),
        &path,
        json!([{"line": 4, "hitCondition": "== 3"}]),
        &[],
    );
    let s = c.event("stopped");
    assert_eq!(s["body"]["reason"], "breakpoint");
    let t = s["body"]["threadId"].as_i64().unwrap();
    let locals = scope_vars(&mut c, t, "Locals");
    assert!(
        locals.iter().any(|v| v.0 == "i" && v.1 == "2"),
        "the third hit is the third iteration: {locals:?}"
    );
    let bad = c.ok(
        "setBreakpoints",
        json!({"source": {"path": path}, "breakpoints": [{"line": 4, "hitCondition": "often"}, {"line": 4, "condition": "i +"}]}),
    );
    assert_eq!(bad["breakpoints"][0]["verified"], false);
    assert_eq!(bad["breakpoints"][1]["verified"], false);
    c.ok("disconnect", json!({}));
    assert_eq!(c.close(), 0);

    // The invariant filter stops at a broken invariant, not at other exceptions.
    let src = "x: int\ni = 0\nassert x != 7\nwhile i < 3:\n    invariant i <= 2\n    i = i + 1\n";
    let path = program(&dir, "inv.py", src);
    let mut c = Client::spawn();
    start(
        &mut c,
        json!({"program": path}),
        &path,
        json!([]),
        &["invariant"],
    );
    let s = c.event("stopped");
    assert_eq!(s["body"]["reason"], "exception", "{s}");
    let t = s["body"]["threadId"].as_i64().unwrap();
    let info = c.ok("exceptionInfo", json!({ "threadId": t }));
    assert!(
        info["description"]
            .as_str()
            .unwrap()
            .contains("broken invariant"),
        "{info}"
    );
    assert_eq!(c.close(), 0);
}

#[test]
fn dap_pause_interrupts_a_run_and_focus_moves_a_thread() {
    let dir = tempfile::tempdir().unwrap();
    // Unbounded: only the pause ends the continue.
    let src = "x: int\ni = 0\nwhile i < x:\n    i = i + 1\n";
    let path = program(&dir, "loop.py", src);
    let mut c = Client::spawn();
    start(
        &mut c,
        json!({"program": path, "unroll": 1_000_000_000u32, "maxNodes": 1_000_000_000u64, "stopOnEntry": true}),
        &path,
        json!([]),
        &[],
    );
    let t = c.event("stopped")["body"]["threadId"].as_i64().unwrap();
    c.ok("continue", json!({ "threadId": t }));
    // (the pause is answered after the interrupted continue stopped)
    c.ok("pause", json!({ "threadId": t }));
    let s = c.events("stopped").pop().unwrap();
    assert_eq!(s["body"]["reason"], "pause", "{s}");
    // (how far the run got before the pause is not known) Focus moves a thread to the root.
    let tree = c.ok("symdbg/tree", json!({}));
    assert!(!tree["nodes"].as_array().unwrap().is_empty());
    let f = c.ok("symdbg/focus", json!({"node": 0}));
    let ft = f["threadId"].as_i64().unwrap();
    let s = c.event("stopped");
    assert_eq!(s["body"]["reason"], "goto");
    assert_eq!(s["body"]["threadId"], ft);
    let frames = c.ok("stackTrace", json!({ "threadId": ft }));
    assert_eq!(frames["stackFrames"][0]["line"], 2);
    let bad = c.request("symdbg/focus", json!({"node": 1_000_000_000}));
    assert_eq!(bad["success"], false);
    // `terminate` ends the program, not the adapter: the client's `disconnect` that follows
    // is answered (it got no answer when `terminate` closed the adapter).
    c.ok("terminate", json!({}));
    c.event("terminated");
    let after = c.request("stackTrace", json!({ "threadId": ft }));
    assert_eq!(after["success"], false, "{after}");
    c.ok("disconnect", json!({}));
    assert_eq!(c.close(), 0);

    // A disconnect while an endless continue runs interrupts it and ends the adapter; so
    // does the end of the input.
    for end in ["disconnect", "eof"] {
        let mut c = Client::spawn();
        start(
            &mut c,
            json!({"program": path, "unroll": 1_000_000_000u32, "maxNodes": 1_000_000_000u64, "stopOnEntry": true}),
            &path,
            json!([]),
            &[],
        );
        let t = c.event("stopped")["body"]["threadId"].as_i64().unwrap();
        c.ok("continue", json!({ "threadId": t }));
        if end == "disconnect" {
            c.ok("disconnect", json!({}));
        }
        assert_eq!(c.close(), 0, "{end}");
    }
}

#[test]
fn dap_bad_input_gets_errors_and_never_stops_the_adapter() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::spawn();
    // A request before launch, an unknown command.
    let r = c.request("threads", json!({}));
    assert_eq!(r["success"], false);
    assert!(r["message"].as_str().unwrap().contains("before `launch`"));
    let r = c.request("frobnicate", json!({}));
    assert_eq!(r["success"], false);
    assert!(r["message"].as_str().unwrap().contains("unknown command"));
    // Malformed frames: each an error event; the adapter reads on.
    c.raw(b"Content-Length: banana\r\n\r\n");
    c.raw(b"Content-Length: 99999999999999999999\r\n\r\n");
    // (huge: refused at once, neither allocated nor waited for)
    c.raw(b"Content-Length: 999999999999\r\n\r\n");
    c.raw(b"Content-Length: 5\r\n\r\n{oops");
    c.raw(b"Content-Length: 2\r\n\r\n[]");
    let no_request = br#"{"seq": 77, "type": "event"}"#;
    c.raw(format!("Content-Length: {}\r\n\r\n", no_request.len()).as_bytes());
    c.raw(no_request);
    let r = c.request("initialize", json!({"adapterID": "x"}));
    assert_eq!(r["success"], true);
    let errors: Vec<String> = c
        .events("output")
        .iter()
        .filter(|e| e["body"]["category"] == "stderr")
        .map(|e| e["body"]["output"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(errors.len(), 5, "{errors:?}");
    assert!(errors[0].contains("not a number"));
    assert!(errors[1].contains("not a number"));
    assert!(errors[2].contains("larger than"));
    assert!(errors[3].contains("not JSON"));
    assert!(errors[4].contains("no request"));
    assert!(c
        .log
        .iter()
        .any(|m| m["type"] == "response" && m["request_seq"] == 77 && m["success"] == false));
    // Launch errors: no program, a wrong type, a missing file, a program with errors.
    for (args, want) in [
        (json!({}), "program"),
        (
            json!({"program": "p.py", "unroll": "x"}),
            "bad launch argument `unroll`",
        ),
        (
            json!({"program": "p.py", "fold": "on"}),
            "bad launch argument `fold`",
        ),
        (
            json!({"program": dir.path().join("none.py")}),
            "cannot read",
        ),
        (json!({"program": "/dev/null"}), "not a regular file"),
        (json!({ "program": dir.path() }), "directory"),
    ] {
        let r = c.request("launch", args.clone());
        assert_eq!(r["success"], false, "{args}");
        assert!(r["message"].as_str().unwrap().contains(want), "{args}: {r}");
    }
    let bad = program(&dir, "bad.py", "x: int\ny = x +\n");
    let r = c.request("launch", json!({ "program": bad }));
    assert_eq!(r["success"], false);
    let message = r["message"].as_str().unwrap();
    assert!(
        message.contains("bad.py:2"),
        "the diagnostic, located: {message}"
    );
    // (the output event comes just before the response)
    let shown = c.events("output").pop().unwrap();
    assert_eq!(shown["body"]["category"], "stderr");
    assert!(shown["body"]["output"]
        .as_str()
        .unwrap()
        .contains("bad.py:2"));
    // The end of input: a clean exit.
    assert_eq!(c.close(), 0);
}

#[test]
fn dap_caught_exceptions_stop_at_the_handler() {
    let dir = tempfile::tempdir().unwrap();
    let src =
        "x: int\ntry:\n    q = 10 // x\nexcept ZeroDivisionError:\n    q = 0\nassert q != 5\n";
    let path = program(&dir, "caught.py", src);
    let mut c = Client::spawn();
    start(
        &mut c,
        json!({"program": path}),
        &path,
        json!([]),
        &["caught"],
    );
    let s = c.event("stopped");
    assert_eq!(s["body"]["reason"], "exception", "{s}");
    let t = s["body"]["threadId"].as_i64().unwrap();
    let f = c.ok("stackTrace", json!({ "threadId": t }));
    assert_eq!(
        f["stackFrames"][0]["line"], 4,
        "the except line, before the handler"
    );
    let info = c.ok("exceptionInfo", json!({ "threadId": t }));
    assert_eq!(info["exceptionId"], "ZeroDivisionError");
    assert_eq!(info["breakMode"], "always");
    assert!(
        info["description"].as_str().unwrap().contains("line 3"),
        "{info}"
    );
    assert_eq!(c.close(), 0);
}

/// The whole tree of [`SRC`] as `symdbg/tree` gives it once every path ran (no breakpoint,
/// no exception filter: the run explores everything, then `terminated`).
#[test]
fn dap_tree_of_a_finished_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = program(&dir, "p.py", SRC);
    let mut c = Client::spawn();
    start(&mut c, json!({"program": path}), &path, json!([]), &[]);
    c.event("terminated");
    assert!(c.events("stopped").is_empty());
    let tree = c.ok("symdbg/tree", json!({}));
    assert!(tree["threads"].as_array().unwrap().is_empty());
    let text: String = tree["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            format!(
                "{} <- {}  line {}  {}{}  {}{}\n",
                n["id"],
                n["parent"],
                n["line"],
                n["kind"].as_str().unwrap(),
                n["outcome"]
                    .as_str()
                    .map(|o| format!(" {o}"))
                    .unwrap_or_default(),
                n["label"].as_str().unwrap(),
                n["branch"]
                    .as_str()
                    .map(|b| format!("  [{b}]"))
                    .unwrap_or_default(),
            )
        })
        .collect();
    insta::assert_snapshot!("dap_tree_of_a_finished_run", text);
    assert_eq!(c.close(), 0);
}

/// What the program prints on the way to a stop comes as `stdout` output events: the printed
/// items as expressions over the inputs, one event per line, in print order.
#[test]
fn dap_prints_on_the_path_are_stdout_output_events() {
    let dir = tempfile::tempdir().unwrap();
    let src = "x: int\nprint(x + 1)\nif x > 0:\n    print(x, (x, 2))\ny = 1\n";
    let path = program(&dir, "p.py", src);
    let mut c = Client::spawn();
    start(
        &mut c,
        json!({ "program": path }),
        &path,
        json!([{ "line": 5 }]),
        &[],
    );
    let s = c.event("stopped");
    assert_eq!(s["body"]["reason"], "breakpoint");
    let t = s["body"]["threadId"].as_i64().unwrap();
    let f = c.ok("stackTrace", json!({ "threadId": t }));
    assert_eq!(f["stackFrames"][0]["line"], 5);
    let printed: Vec<String> = c
        .events("output")
        .iter()
        .filter(|e| e["body"]["category"] == "stdout")
        .map(|e| e["body"]["output"].as_str().unwrap().to_string())
        .collect();
    let pc = scope_vars(&mut c, t, "Path condition");
    let then_branch = pc.iter().any(|v| v.1.contains("x > 0"));
    let want: Vec<&str> = if then_branch {
        vec!["x + 1\n", "x, (x, 2)\n"]
    } else {
        vec!["x + 1\n"]
    };
    assert_eq!(printed, want, "path condition {pc:?}");
    c.ok("disconnect", json!({}));
    assert_eq!(c.close(), 0);
}
