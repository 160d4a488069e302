//! Issue 23 item 10: the debugger habits of gdb and pudb — a breakpoint at a line number or
//! a function typed at a prompt (`+`), run to the code cursor (`H`), stopping where a
//! handler catches an exception (`!`, gdb's `catch throw`), frames up/down from any pane
//! (`U`, `D`) kept while the selection stays in the frame. Keys in, state and frame out,
//! through the synchronous harness.

use symdbg::session::NodeId;
use symdbg::session::NodeKind as Kind;
use symdbg::tui::app::{Mode, Pane};
use symdbg::tui::keys::ROWS;

use super::screen::assert_message;
use super::tui::open_source;

/// A function `g` whose first statement is line 5 (line 4 is blank), a caught
/// ZeroDivisionError in `h`, an uncaught AssertionError at the end.
const SRC: &str = "\
x: int
def g(b: int) -> int:
    # the comment and the blank line below hold no statement

    d = b + 1
    e = d * 2
    return e

def h(c: int) -> int:
    try:
        q = 10 // c
    except ZeroDivisionError:
        q = -1
    return q

y = g(x)
z = h(y)
assert z != 5
w = g(z)
";

fn line_of(h: &symdbg::tui::harness::Harness, id: NodeId) -> Option<usize> {
    h.app.tree.node(id).info.place()
}

#[test]
fn plus_sets_a_breakpoint_at_a_typed_line_or_function() {
    let mut h = open_source("t.py", SRC, None, 120, 40);
    h.keys("+");
    assert!(matches!(h.app.mode, Mode::Prompt(..)));
    assert!(
        h.screen()
            .contains("break at (a line number or a function's name):"),
        "{}",
        h.screen()
    );
    h.keys("16<Enter>");
    assert_eq!(h.app.enabled_breakpoints(), vec![16]);
    assert_message(&h, "line 16: y = g(x)");
    // A function: its first statement (comments and blank lines skipped).
    h.keys("+g<Enter>");
    assert_eq!(h.app.enabled_breakpoints(), vec![5, 16]);
    assert_message(&h, "function g (line 5): d = b + 1");
    // A line without a statement: the next one that has one, said so.
    h.keys("+3<Enter>");
    assert!(h.app.breakpoints.contains_key(&5));
    assert_message(&h, "line 3 has no statement");
    assert_message(&h, "already");
    // Mistakes are said, and set nothing.
    for (typed, says) in [
        ("nope", "no function `nope`; functions: g, h"),
        ("99", "no line 99: the file has 19 lines"),
        ("0", "no line 0"),
    ] {
        h.keys(&format!("+{typed}<Enter>"));
        assert!(h.app.message.contains(says), "{typed}: {}", h.app.message);
        assert_eq!(h.app.enabled_breakpoints(), vec![5, 16], "{typed}");
    }
    // The breakpoint stops `c` like one set with `b`: in g, at line 5.
    h.keys("c");
    assert_eq!(line_of(&h, h.app.selected), Some(5), "{}", h.app.message);
    assert_eq!(h.app.tree.node(h.app.selected).info.func(), Some("g"));
}

#[test]
fn h_runs_to_the_code_cursors_line_without_setting_a_breakpoint() {
    let mut h = open_source("t.py", SRC, None, 120, 40);
    // In the code pane, move the cursor from line 16 to line 13 (`q = -1`, the handler's
    // body).
    h.keys("1");
    assert_eq!(h.app.focus, Pane::Code);
    assert_eq!(h.app.code_cursor, 16);
    h.keys("kkk");
    assert_eq!(h.app.code_cursor, 13);
    h.keys("H");
    let at = h.app.selected;
    assert_eq!(line_of(&h, at), Some(13), "{}", h.app.message);
    assert_eq!(h.app.tree.node(at).info.kind(), Kind::Open, "not run yet");
    assert_message(&h, "ran to line 13");
    assert!(h.app.breakpoints.is_empty(), "no breakpoint is left behind");
    // A line no path reaches from here: the subtree is explored and it says so.
    h.app.code_cursor = 2;
    h.keys("H");
    assert_message(&h, "no path reaches the line");
}

#[test]
fn bang_stops_where_a_handler_catches_an_exception() {
    // Without `!`, the exception breakpoint stops at uncaught exceptions only: the
    // AssertionError leaf, never at the caught ZeroDivisionError.
    let mut h = open_source("t.py", SRC, None, 120, 40);
    h.keys("xc");
    assert_eq!(
        h.app.tree.node(h.app.selected).info.kind(),
        Kind::Leaf(symdbg::tui::protocol::Outcome::Exception(
            symdbg::base::ExcClass::AssertionError
        )),
        "{}",
        h.app.message
    );
    // With `!`: c stops first at the `except` line, before the handler runs.
    let mut h = open_source("t.py", SRC, None, 120, 40);
    h.keys("!");
    assert!(h.app.catch_caught);
    assert!(h.app.message.starts_with("catch:"), "{}", h.app.message);
    // The breakpoint list says so.
    h.keys("B");
    assert!(
        h.screen()
            .contains("caught (!): every exception where a handler catches it"),
        "{}",
        h.screen()
    );
    h.keys("<Esc>");
    assert_eq!(h.app.mode, Mode::Normal);
    h.keys("c");
    let at = h.app.selected;
    assert_eq!(line_of(&h, at), Some(12), "{}", h.app.message);
    assert!(
        h.app
            .message
            .starts_with("caught: ZeroDivisionError raised on line 11"),
        "{}",
        h.app.message
    );
    // Its step runs the handler.
    h.keys("s");
    assert_eq!(line_of(&h, h.app.selected), Some(13));
    // A class filter (X) applies to caught exceptions too: IndexError never stops.
    let mut h = open_source("t.py", SRC, None, 120, 40);
    h.keys("XIndexError<Enter>!c");
    assert!(!h.app.message.starts_with("caught:"), "{}", h.app.message);
    assert_ne!(line_of(&h, h.app.selected), Some(12));
    // `!` again: off.
    h.keys("!");
    assert!(!h.app.catch_caught);
}

#[test]
fn u_and_d_move_the_frame_from_the_tree_and_stepping_keeps_it() {
    let mut h = open_source("t.py", SRC, None, 140, 40);
    // Step into g (line 5).
    while line_of(&h, h.app.selected) != Some(5) {
        h.keys("s");
    }
    assert_eq!(h.app.frame_count(), 2);
    h.keys("U");
    assert_eq!(h.app.focus, Pane::Tree, "no pane switch");
    assert_eq!(h.app.frame_up, 1);
    assert_eq!(h.app.marked_line(), Some(16), "the caller's line: y = g(x)");
    assert!(
        h.app.message.starts_with("frame <module> (1 up)"),
        "{}",
        h.app.message
    );
    // U at the outermost frame stays there; D goes back in.
    h.keys("U");
    assert_eq!(h.app.frame_up, 1);
    h.keys("D");
    assert_eq!(h.app.frame_up, 0);
    h.keys("U");
    // Stepping inside g keeps the caller's frame picked.
    h.keys("s");
    assert_eq!(line_of(&h, h.app.selected), Some(6));
    assert_eq!(h.app.frame_up, 1, "same frame, same pick");
    assert_eq!(h.app.marked_line(), Some(16));
    // Leaving g (another frame count) goes back to the innermost.
    while h.app.tree.node(h.app.selected).info.func().is_some() {
        h.keys("s");
    }
    assert_eq!(h.app.frame_up, 0);
    // Another activation of g (the call on line 19) at the same depth does not keep the
    // pick made in the first one.
    h.keys("r");
    let at6: Vec<NodeId> = h
        .app
        .tree
        .ids()
        .filter(|&id| line_of(&h, id) == Some(6))
        .collect();
    let first = at6[0];
    // (its path from the first passes through module code: fewer frames)
    let other = *at6
        .iter()
        .find(|&&id| id != first && h.app.tree.node(id).info.frames() == 2)
        .expect("a node of the second call of g");
    h.app.select(first);
    h.keys("U");
    assert_eq!(h.app.frame_up, 1);
    h.app.select(other);
    assert_eq!(h.app.frame_up, 0, "another activation");
}

#[test]
fn the_new_keys_are_in_the_key_table() {
    for key in ["U D", "+", "H", "!"] {
        assert!(
            ROWS.iter().any(|r| r.label() == key),
            "{key} missing from the key table"
        );
    }
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    for key in ["| `U` `D` |", "| `+` |", "| `H` |", "| `!` |"] {
        assert!(
            readme.contains(key),
            "{key} missing from README's key table"
        );
    }
}
