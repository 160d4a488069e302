//! Breakpoint controls in the terminal UI (issue 16): `b` on the line the user sees, `c`
//! stopping at the first node on any path at a breakpoint line and going on to the next
//! hit, `r` stopping too, `C` running through, exception breakpoints (`x`, `X`), the list
//! (`B`). Keys in, state and frame out, through the synchronous harness.

use symdbg::base::ExcClass;
use symdbg::session::ExcStop;
use symdbg::session::NodeId;
use symdbg::session::NodeKind as Kind;
use symdbg::tui::app::{Mode, Pane};

use super::tui::{open, open_source};

/// Three paths reach line 9 (the join, `w = z + y`); line 6 is only on the `elif` branch;
/// a ZeroDivisionError and an AssertionError on different paths.
pub(crate) const SRC: &str = "\
x: int
y: int
if x > 0:
    z = 1
elif x < -5:
    z = 2
else:
    z = 3
w = z + y
if y == 7:
    q = 10 // (x - x)
assert w != 100
";

fn line_of(h: &symdbg::tui::harness::Harness, id: NodeId) -> Option<usize> {
    h.app.tree.node(id).info.place()
}

#[test]
fn b_sets_the_breakpoint_on_the_line_the_user_sees() {
    let mut h = open("inversion.py", None, 120, 32);
    // The reported bug: move the code cursor in the code pane, go back to the tree and
    // select a node; `b` used the stale (invisible) code cursor. Now it is the node's line.
    h.keys("<S-Tab>kk<Tab>");
    assert_eq!(h.app.focus, Pane::Tree);
    assert_eq!(h.app.code_cursor, 16);
    h.keys("b");
    assert_eq!(
        h.app.breakpoints.keys().copied().collect::<Vec<_>>(),
        vec![18],
        "the ▶ line of the selected node"
    );
    assert!(
        h.app.message.contains("line 18: if x > 1:"),
        "{}",
        h.app.message
    );
    assert!(h.screen().contains("●▶18 if x > 1:"), "{}", h.screen());
    // In the code pane, b takes the code cursor's line, which is drawn in every focus.
    h.keys("<S-Tab>jjjjjb");
    assert!(h.app.breakpoints.contains_key(&23));
    assert!(h.screen().contains("● 23 assert x >= 0"), "{}", h.screen());
    // Toggling removes.
    h.keys("b");
    assert!(!h.app.breakpoints.contains_key(&23));
}

#[test]
fn c_stops_on_every_path_at_a_breakpoint_and_goes_on_to_the_next_hit() {
    let mut h = open_source("t.py", SRC, None, 120, 40);
    h.keys("<S-Tab>");
    h.app.code_cursor = 9;
    h.keys("b<Tab>");
    assert_eq!(h.app.enabled_breakpoints(), vec![9]);
    let mut hits = Vec::new();
    for _ in 0..3 {
        h.keys("c");
        let at = h.app.selected;
        assert_eq!(line_of(&h, at), Some(9), "{}", h.app.message);
        assert_eq!(
            h.app.tree.node(at).info.kind(),
            Kind::Open,
            "stopped before line 9 runs"
        );
        assert!(
            h.app.message.starts_with("breakpoint on line 9"),
            "{}",
            h.app.message
        );
        hits.push(at);
    }
    hits.sort();
    hits.dedup();
    assert_eq!(hits.len(), 3, "three different paths reach line 9");
    // No fourth hit: the search explored the whole tree.
    h.keys("c");
    assert_eq!(
        h.app.message,
        "no more breakpoint hits: the subtree is explored"
    );
    assert_eq!(h.app.stats.open, 0);
}

#[test]
fn r_stops_at_breakpoints_and_capital_c_runs_through_them() {
    let mut h = open_source("t.py", SRC, None, 120, 40);
    h.app.code_cursor = 6;
    h.keys("<S-Tab>b<Tab>r");
    assert_eq!(line_of(&h, h.app.selected), Some(6));
    assert!(
        h.app.stats.open > 0,
        "r stopped before exploring everything"
    );
    // C runs the selected subtree through every breakpoint.
    h.keys("gC");
    assert_eq!(h.app.stats.open, 0);
    assert_eq!(h.app.message, "run: the subtree is explored");
    // Disabled breakpoints do not stop: r runs the whole tree.
    let mut h = open_source("t.py", SRC, None, 120, 40);
    h.app.code_cursor = 6;
    h.keys("<S-Tab>b<Tab>B ");
    assert_eq!(h.app.breakpoints.get(&6), Some(&false));
    assert!(h.screen().contains("○ line  6  z = 2"), "{}", h.screen());
    h.keys("<Esc>r");
    assert_eq!(h.app.stats.open, 0);
}

#[test]
fn exception_breakpoints_any_class_and_a_bad_name() {
    let mut h = open_source("t.py", SRC, None, 120, 40);
    h.keys("x");
    assert_eq!(h.app.exc_break, ExcStop::Any);
    h.keys("c");
    let first = h.app.selected;
    assert!(h.app.tree.node(first).info.is_exception());
    h.keys("c");
    let second = h.app.selected;
    assert_ne!(first, second);
    assert!(h.app.tree.node(second).info.is_exception());
    // A class: only AssertionError leaves.
    let mut h = open_source("t.py", SRC, None, 120, 40);
    h.keys("XAssertionError<Enter>");
    assert_eq!(h.app.exc_break, ExcStop::Class(ExcClass::AssertionError));
    h.keys("c");
    let leaf = h.app.tree.node(h.app.selected).info.clone();
    assert_eq!(
        leaf.kind(),
        Kind::Leaf(symdbg::base::Outcome::Exception(ExcClass::AssertionError)),
        "{leaf:?}"
    );
    // ArithmeticError catches ZeroDivisionError (the hierarchy, as `except`).
    h.keys("XArithmeticError<Enter>gc");
    assert_eq!(
        h.app.tree.node(h.app.selected).info.kind(),
        Kind::Leaf(symdbg::base::Outcome::Exception(
            ExcClass::ZeroDivisionError
        ))
    );
    // An unknown class is refused with the list; the breakpoint stays.
    h.keys("XFooError<Enter>");
    assert!(h.app.message.starts_with("no exception class `FooError`"));
    assert_eq!(h.app.exc_break, ExcStop::Class(ExcClass::ArithmeticError));
    // x turns it off.
    h.keys("x");
    assert_eq!(h.app.exc_break, ExcStop::Off);
}

#[test]
fn the_breakpoint_list_enables_disables_and_deletes() {
    let mut h = open_source("t.py", SRC, None, 120, 40);
    for line in [4, 6, 9] {
        h.app.code_cursor = line;
        h.keys("<S-Tab>b<Tab>");
    }
    h.keys("B");
    assert_eq!(h.app.mode, Mode::Breakpoints);
    let screen = h.screen();
    assert!(screen.contains("breakpoints (3)"), "{screen}");
    insta::assert_snapshot!("tui_breakpoint_list", screen);
    // j to line 6, disable it, j to 9, delete it.
    h.keys("j j d");
    assert_eq!(
        h.app
            .breakpoints
            .iter()
            .map(|(l, on)| (*l, *on))
            .collect::<Vec<_>>(),
        vec![(4, true), (6, false)]
    );
    assert_eq!(h.app.enabled_breakpoints(), vec![4]);
    h.keys("x");
    assert!(h.screen().contains("exceptions: every exception leaf"));
    h.keys("q");
    assert_eq!(h.app.mode, Mode::Normal);
    assert!(!h.app.quit, "q closes the list, not the debugger");
    // The code gutter shows the disabled one as ○.
    assert!(h.screen().contains("○  6     z = 2"), "{}", h.screen());
}

#[test]
fn bfs_finds_the_shallow_hit_first() {
    // Line 4 is deep on the first branch (after a long straight run); line 7 is shallow on
    // the second: depth-first meets line 4 first, breadth-first line 7.
    let src = "\
x: int
if x > 0:
    a = 1
    a = 2
    a = 3
else:
    b = 1
";
    let mut dfs = open_source("t.py", src, None, 120, 32);
    let mut bfs = open_source("t.py", src, None, 120, 32);
    bfs.app.bfs = true;
    for h in [&mut dfs, &mut bfs] {
        for line in [5, 7] {
            h.app.code_cursor = line;
            h.keys("<S-Tab>b<Tab>");
        }
        h.keys("c");
    }
    assert_eq!(line_of(&dfs, dfs.app.selected), Some(5));
    assert_eq!(line_of(&bfs, bfs.app.selected), Some(7));
}

/// The real binary in a pty: a breakpoint set from the code pane, `c` visiting its three
/// hits on three paths, then the end of the search; `--bfs` is accepted.
#[test]
fn pty_breakpoint_flow() {
    use super::tui_e2e::Tui;
    let dir = std::env::temp_dir().join(format!("symdbg-breaks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("t.py"), SRC).expect("write program");
    for extra in [None, Some("--bfs")] {
        let mut args = vec!["t.py"];
        args.extend(extra);
        let mut tui = Tui::spawn_in(&dir, &args, &[("COLORTERM", Some("truecolor"))]);
        tui.wait_for("the start screen", |s| s.contains("1 open"));
        // S-Tab focuses the code pane (cursor on line 3), six j to line 9, b, Tab back.
        tui.press("\x1b[Zjjjjjjb\t");
        tui.wait_for("the breakpoint", |s| {
            s.contains("breakpoint on line 9: w = z + y") && s.contains("●  9 w = z + y")
        });
        for hit in 1..=3 {
            tui.press("c");
            let want = format!("breakpoint on line 9 (hit {hit})");
            tui.wait_for(&want, |s| s.contains(&want) && s.contains("▶ 9 w = z + y"));
        }
        tui.press("c");
        tui.wait_for("the end of the search", |s| {
            s.contains("no more breakpoint hits") && s.contains(" 0 open")
        });
        tui.press("q");
        assert_eq!(tui.wait_exit(), 0);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_status_line_names_the_bounds_that_cut_paths() {
    let mut h = open("power.py", None, 160, 32);
    h.keys("r");
    assert_eq!(h.app.stats.cut_recursion, 1, "{:?}", h.app.stats);
    assert_eq!(h.app.stats.cut_unroll, 0);
    assert!(
        h.app
            .message
            .ends_with("the subtree is explored; 1 path cut by --recursion 5 raises RecursionError when run (base = 0, exp = -1)"),
        "{}",
        h.app.message
    );
    // (Esc clears the message: the counts show whole; power(0, -1) never ends)
    h.keys("<Esc>");
    let screen = h.screen();
    assert!(
        screen.contains("1 bound: 1 --recursion (1 RecursionError)"),
        "{screen}"
    );
}

#[test]
fn frames_up_and_down_in_the_call_stack_pane_move_store_and_code() {
    // A call two deep: g calls h; stop inside h.
    let src = "\
def h(c: int) -> int:
    return c * 2

def g(b: int) -> int:
    d = b + 1
    return h(d)

a: int
r = g(a)
";
    let mut h = open_source("t.py", src, None, 140, 40);
    // Step until the innermost frame is h.
    for _ in 0..10 {
        if h.app.tree.node(h.app.selected).info.func() == Some("h") {
            break;
        }
        h.keys("s");
    }
    assert_eq!(h.app.tree.node(h.app.selected).info.place(), Some(2));
    assert_eq!(h.app.frame_count(), 3);
    h.keys("<Tab><Tab><Tab>");
    assert_eq!(h.app.focus, Pane::Stack);
    // j: one frame up, into g, at its call `return h(d)` (line 6).
    h.keys("j");
    assert_eq!(h.app.frame_up, 1);
    assert_eq!(h.app.marked_line(), Some(6));
    assert_eq!(h.app.code_cursor, 6);
    let screen = h.screen();
    assert!(screen.contains("▸ g"), "{screen}");
    assert!(screen.contains("frame g (call stack: j/k)"), "{screen}");
    assert!(screen.contains("d = a + 1"), "{screen}");
    assert!(screen.contains("▶6     return h(d)"), "{screen}");
    // j again: the module, at `r = g(a)` (line 9); further j stays there.
    h.keys("jj");
    assert_eq!(h.app.frame_up, 2);
    assert_eq!(h.app.marked_line(), Some(9));
    assert!(h.app.message.starts_with("frame <module> (2 up) at line 9"));
    // k back to the innermost: h's line and store.
    h.keys("kk");
    assert_eq!(h.app.frame_up, 0);
    assert_eq!(h.app.marked_line(), Some(2));
    assert!(h.screen().contains("▸ h"));
    // b here sets the breakpoint on the frame's line the cursor followed.
    h.keys("j");
    h.app.focus = Pane::Code;
    h.keys("b");
    assert!(h.app.breakpoints.contains_key(&6));
    // Selecting a node goes back to the innermost frame.
    h.app.focus = Pane::Tree;
    h.keys("k");
    assert_eq!(h.app.frame_up, 0);
}

#[test]
fn number_keys_focus_panes_and_the_store_is_in_natural_order() {
    let src = "a10: int\na2: int\nb: int\na1 = a10 + a2\nx = 0\n";
    let mut h = open_source("t.py", src, None, 140, 40);
    for (key, pane) in [
        ("1", Pane::Code),
        ("5", Pane::Stack),
        ("4", Pane::Store),
        ("3", Pane::Path),
        ("6", Pane::Model),
        ("2", Pane::Tree),
    ] {
        h.keys(key);
        assert_eq!(h.app.focus, pane, "key {key}");
    }
    h.keys("ss");
    let d = &h.app.details[&h.app.selected];
    let names: Vec<&str> = d.store.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, vec!["a1", "a2", "a10", "b", "x"]);
}

#[test]
fn at_80x24_the_hint_line_shows_the_bug_finding_keys() {
    let h = open("inversion.py", None, 80, 24);
    let screen = h.screen();
    let hints = screen.lines().nth(23).unwrap_or_default();
    for key in ["r run", "e exception", "m model", "R replay"] {
        assert!(hints.contains(key), "{key} missing from {hints:?}");
    }
}

#[test]
fn c_without_breakpoints_runs_the_subtree_and_c_after_the_last_hit_says_so_again() {
    let mut h = open_source("t.py", SRC, None, 120, 40);
    h.keys("c");
    assert_eq!(h.app.message, "no breakpoints set: the subtree is explored");
    assert_eq!(h.app.stats.open, 0);
    // One hit only (line 6 is on one path); c after it: no more hits, and again.
    let mut h = open_source("t.py", SRC, None, 120, 40);
    h.app.code_cursor = 6;
    h.keys("<S-Tab>b<Tab>c");
    let hit = h.app.selected;
    assert_eq!(line_of(&h, hit), Some(6));
    for _ in 0..2 {
        h.keys("c");
        assert!(
            h.app.message.starts_with("no more breakpoint hits"),
            "{}",
            h.app.message
        );
        assert_eq!(h.app.selected, hit, "the selection stays on the last hit");
    }
}
