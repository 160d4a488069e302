//! Item 12: internal names, plurals, `exec --entry` output, JSON frames.

use super::*;
use serde_json::Value;

#[test]
fn texts_use_no_internal_names_and_agree_in_number() {
    let path = temp_file("x: int\ny = x + 1\n");
    let file = path.to_str().unwrap();
    let (_, out, _) = symdbg(&["run", file]);
    assert!(
        out.contains("2 nodes, 1 leaf (0 exceptions, 0 bound), 0 open; 0 solver checks"),
        "{out}"
    );
    let loops = temp_file("x: int\nwhile x > 0:\n    x = x - 1\n");
    let file = loops.to_str().unwrap();
    let (code, out, err) = symdbg(&["run", file, "--max-nodes", "3"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("stopped: the tree reached --max-nodes; open nodes are left"),
        "{out}"
    );
    assert!(
        !out.contains("NodeLimit") && !err.contains("NodeLimit"),
        "{out}{err}"
    );
    for unroll in ["0", "1", "2"] {
        let (_, out, _) = symdbg(&["run", file, "--unroll", unroll]);
        let words: Vec<&str> = out.split_whitespace().collect();
        for pair in words.windows(2) {
            let plural = ["leaves", "nodes", "checks", "exceptions"];
            assert!(
                !(pair[0] == "1" && plural.iter().any(|p| pair[1].starts_with(p))),
                "{out}"
            );
        }
    }
    // exec: a run past the step budget says so in words.
    let (_, out, _) = symdbg(&["exec", file, "--input", "x=100000000000"]);
    assert!(
        out.starts_with("outcome: stopped: the run used up its step budget"),
        "{out}"
    );
    assert!(!out.contains("step_limit"), "{out}");
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&loops);
}

#[test]
fn exec_entry_with_an_exception_prints_no_return_value() {
    let src = "def f(a: int) -> int:\n    return 10 // a\n";
    let out = exec_agrees_with_python(src, Some("f"), &[("a", "0")]);
    assert!(
        out.contains("outcome: exception ZeroDivisionError"),
        "{out}"
    );
    assert!(!out.contains("return value"), "{out}");
    let out = exec_agrees_with_python(src, Some("f"), &[("a", "3")]);
    assert!(out.contains("return value: 3"), "{out}");
}

/// JSON `frames` at an exception leaf: the call stack at the raise (like a traceback and
/// the TUI's call stack pane), not the empty stack after the exception left every call.
#[test]
fn json_frames_at_an_exception_leaf_are_those_at_the_raise() {
    let src = "\
def inner(a: int) -> int:
    return 10 // a

def outer(a: int) -> int:
    return inner(a - 1) + 1

x: int
r = outer(x)
y = 5 // x
";
    let path = temp_file(src);
    let (_, out, _) = symdbg(&["run", path.to_str().unwrap(), "--json"]);
    let doc: Value = serde_json::from_str(&out).unwrap();
    let frames: Vec<(u64, Value)> = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["outcome"] == "exception")
        .map(|n| (n["exception_line"].as_u64().unwrap(), n["frames"].clone()))
        .collect();
    assert_eq!(
        frames,
        [
            (2, serde_json::json!(["<module>", "outer", "inner"])),
            (9, serde_json::json!(["<module>"])),
        ]
    );
    let _ = std::fs::remove_file(&path);
}

/// The TUI's exception note shows the raising expression whole, parentheses included, at
/// the column `run` and `exec` give.
#[test]
fn tui_exception_note_keeps_the_parentheses() {
    let src = "x: int\ny = 10 // (x - 1)\n";
    let mut h = crate::tui::open_source("div.py", src, None, 160, 40);
    h.keys("re");
    h.pump();
    let leaf = h.app.selected;
    let note = h.app.details[&leaf].note.clone().unwrap_or_default();
    assert!(
        note.contains("ZeroDivisionError raised at line 2, column 5: 10 // (x - 1)\n")
            || note.ends_with("ZeroDivisionError raised at line 2, column 5: 10 // (x - 1)"),
        "{note}"
    );
}
