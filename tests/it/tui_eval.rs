//! Evaluate at a node (`:`), watches (`W`) and conditional breakpoints (`B`, `c`) in the
//! terminal UI (issue 16): keys in, state and frame out, through the synchronous harness.

use symdbg::base::SourceMap;
use symdbg::engine::Config;
use symdbg::session::NodeId;
use symdbg::session::Truth;
use symdbg::tui::app::{Mode, Pane, PromptKind};
use symdbg::tui::harness::Harness;

use super::tui::open_source;

/// Three paths reach line 9 with z = 1, 2 and 3 (the program of `tui_breaks`).
use super::tui_breaks::SRC;

fn line_of(h: &Harness, id: NodeId) -> Option<usize> {
    h.app.tree.node(id).info.place()
}

/// Select the first node about to run `line` (running the tree first).
fn goto_line(h: &mut Harness, line: usize) {
    h.keys("C");
    let id = (0..h.app.stats.nodes as u32)
        .map(NodeId)
        .find(|&id| line_of(h, id) == Some(line) && h.app.tree.get(id).is_some())
        .unwrap_or_else(|| panic!("no node on line {line}"));
    h.app.select(id);
    h.pump();
    h.draw();
}

#[test]
fn colon_evaluates_at_the_selected_node_and_shows_it_under_the_store() {
    let mut h = open_source("t.py", SRC, None, 130, 40);
    goto_line(&mut h, 9);
    let node = h.app.selected;
    h.keys(":");
    assert_eq!(
        h.app.mode,
        Mode::Prompt(PromptKind::Evaluate, String::new())
    );
    assert!(h.screen().contains("evaluate: █"), "{}", h.screen());
    h.keys("z + y > 5<Enter>");
    assert_eq!(h.app.mode, Mode::Normal);
    let key = (node, 0, "z + y > 5".to_string());
    let e = h.app.watch.results[&key].clone().expect("evaluates");
    assert_eq!(e.truth, Some(Truth::Sometimes));
    assert!(
        h.app.message.contains("can be either on this path"),
        "{}",
        h.app.message
    );
    assert!(h.app.message.contains("here "), "{}", h.app.message);
    let screen = h.screen();
    assert!(screen.contains("─ : z + y > 5"), "{screen}");
    assert!(screen.contains("  can be either"), "{screen}");
    // z is one value on this path (the first path: x > 0, z = 1).
    h.keys(":z<Enter>");
    let e = h.app.watch.results[&(node, 0, "z".to_string())]
        .clone()
        .unwrap();
    assert!(e.verdict().starts_with("always "), "{e:?}");
    assert!(h.screen().contains("  = 1"), "{}", h.screen());
    // Selecting another node hides the evaluation (it belongs to its node).
    h.keys("g");
    assert!(!h.screen().contains("─ : "), "{}", h.screen());
}

#[test]
fn errors_go_to_the_status_line() {
    let mut h = open_source("t.py", SRC, None, 130, 40);
    goto_line(&mut h, 9);
    for (text, want) in [
        (
            "qq + 1",
            "cannot evaluate: cannot find value `qq` in this scope",
        ),
        // q is a module variable that line 11 assigns: not yet, so NameError.
        ("q + 1", "always raises NameError"),
        ("z +", "cannot evaluate: "),
        ("z / 2", "not supported in minipy"),
        ("(1, 2) + z", "cannot evaluate: "),
        ("len(z)", "cannot evaluate: "),
        ("))))", "cannot evaluate: "),
    ] {
        h.keys(&format!(":{text}<Enter>"));
        assert!(h.app.message.contains(want), "{text}: {}", h.app.message);
        if want.starts_with("cannot evaluate") {
            assert!(h.screen().contains("⚠"), "{text}: {}", h.screen());
        }
    }
    // Esc leaves the prompt without evaluating; Backspace edits.
    h.keys(":zz<BS><Esc>");
    assert_eq!(h.app.mode, Mode::Normal);
    assert!(!h
        .app
        .watch
        .results
        .keys()
        .any(|k| k.2 == "z" && k.0 != h.app.selected));
    // A paste goes into the prompt.
    h.keys(":");
    h.app.paste("y\u{7} == 7");
    h.keys("<Enter>");
    assert!(h.app.message.contains("y == 7"), "{}", h.app.message);
}

const CALLS: &str = "\
def f(a: int) -> int:
    b = a * 3
    if b > 9:
        return b
    return 0

x: int
r = f(x + 1)
";

#[test]
fn the_frame_picked_in_the_call_stack_is_the_scope() {
    let mut h = open_source("t.py", CALLS, None, 130, 40);
    goto_line(&mut h, 3);
    h.keys(":b == 3 * a<Enter>");
    assert!(h.app.message.contains("always true"), "{}", h.app.message);
    // The caller's frame: a is not a name there, x is.
    h.keys("5j");
    assert_eq!(h.app.focus, Pane::Stack);
    assert_eq!(h.app.eval_frame(), 1);
    h.keys(":a > 0<Enter>");
    assert!(
        h.app.message.contains("cannot find value `a`"),
        "{}",
        h.app.message
    );
    h.keys(":x * 3 + 3 > 9<Enter>");
    assert!(h.app.message.contains("can be either"), "{}", h.app.message);
    assert!(h.screen().contains("· frame <module>"), "{}", h.screen());
    // Back to f's frame.
    h.keys("k:a == x + 1<Enter>");
    assert!(h.app.message.contains("always true"), "{}", h.app.message);
    assert!(h.screen().contains("· frame f"), "{}", h.screen());
}

#[test]
fn watches_follow_the_selection_and_are_cached() {
    let mut h = open_source("t.py", SRC, None, 130, 44);
    h.keys("Wz > 1<Enter>Ww - y<Enter>Wnope<Enter>");
    // (a name no scope of the program knows is refused, as `:` refuses it: issue 23 item 8)
    assert_eq!(
        h.app.message,
        "cannot watch: cannot find value `nope` in this scope (column 1)"
    );
    assert_eq!(h.app.watch.list, vec!["z > 1", "w - y"]);
    goto_line(&mut h, 10);
    let first = h.app.selected;
    let screen = h.screen();
    assert!(
        screen.contains("─ watches (W) · frame <module>"),
        "{screen}"
    );
    // Every node selected gets its watches, in its own scope.
    let mut seen = 0;
    for _ in 0..12 {
        h.keys("j");
        let id = h.app.selected;
        for w in ["z > 1", "w - y"] {
            let r = h.app.watch.results.get(&(id, 0, w.to_string()));
            assert!(r.is_some(), "node {}: {w} not evaluated", id.0);
        }
        let Some(Ok(e)) = h.app.watch.results.get(&(id, 0, "w - y".to_string())) else {
            panic!("w - y evaluates at node {}", id.0);
        };
        if e.raises.is_empty() {
            // w = z + y once line 9 ran: w - y is z, one value per path.
            assert_eq!(e.fixed, Some(Truth::Always), "node {}: {e:?}", id.0);
            seen += 1;
        } else {
            // Before line 9: w is not assigned yet.
            assert_eq!(e.raises[0].class, symdbg::base::ExcClass::NameError);
        }
    }
    assert!(seen > 0, "some node after line 9");
    // Going back costs nothing: the answers are kept, nothing is asked again.
    let n = h.app.watch.results.len();
    h.app.select(first);
    assert!(h
        .app
        .take_commands()
        .iter()
        .all(|c| !matches!(c, symdbg::tui::protocol::Cmd::Evaluate { .. })));
    h.pump();
    assert_eq!(h.app.watch.results.len(), n);
    // Typed again, a watch is removed; an empty W clears them all.
    h.keys("Wz > 1<Enter>");
    assert_eq!(h.app.message, "watch removed: z > 1");
    assert_eq!(h.app.watch.list, vec!["w - y"]);
    assert!(h.screen().contains("─ watches"), "{}", h.screen());
    h.keys("W<Enter>");
    assert!(h.app.watch.list.is_empty());
    assert!(!h.screen().contains("─ watches"), "{}", h.screen());
}

#[test]
fn snapshot_of_an_evaluation_and_watches() {
    let mut h = open_source("t.py", SRC, None, 140, 44);
    h.keys("Wz<Enter>W10 // y<Enter>Wy // (x - x) > 0<Enter>Wx > 0 and z == 1<Enter>");
    goto_line(&mut h, 9);
    h.keys(":z + y<Enter>");
    let screen = h.screen();
    assert!(screen.contains("─ : z + y"), "{screen}");
    assert!(screen.contains("may raise ZeroDivisionError"), "{screen}");
    assert!(screen.contains("always raises"), "{screen}");
    assert!(screen.contains("always true"), "{screen}");
    insta::assert_snapshot!("tui_eval_watches", screen);
}

fn open_with(src: &str, config: Config) -> Harness {
    let setup = super::tui::setup(SourceMap::new("t.py", src), None, config);
    Harness::open(setup, 130, 40).unwrap_or_else(|d| panic!("{d:?}"))
}

/// Set a breakpoint on `line` with `cond` through the keys a user presses.
fn conditional_break(h: &mut Harness, line: usize, cond: &str) {
    h.keys("1");
    h.app.code_cursor = line;
    h.keys("b2B");
    let row = h.app.breakpoints.keys().position(|&l| l == line).unwrap();
    h.app.breaks_cursor = row;
    h.keys("c");
    assert!(matches!(h.app.mode, Mode::Prompt(PromptKind::Condition(l), _) if l == line));
    h.keys(&format!("{cond}<Enter>"));
    assert_eq!(h.app.mode, Mode::Breakpoints, "back in the list");
    h.keys("<Esc>");
}

/// `c` until no new hit: the hit nodes.
fn hits(h: &mut Harness) -> Vec<NodeId> {
    let mut out = Vec::new();
    for _ in 0..10 {
        h.keys("c");
        if !h.app.message.starts_with("breakpoint on line") {
            break;
        }
        out.push(h.app.selected);
    }
    out
}

#[test]
fn conditional_breakpoints_stop_only_where_the_condition_can_hold() {
    // Unconditional: three hits. z == 2: one (x < -5). z > 1: two. z > 5: none.
    for (cond, want) in [
        ("", 3),
        ("z == 2", 1),
        ("z > 1", 2),
        ("z > 5", 0),
        ("y > 0 and z != 3", 2),
    ] {
        let mut h = open_source("t.py", SRC, None, 130, 40);
        conditional_break(&mut h, 9, cond);
        let got = hits(&mut h);
        assert_eq!(got.len(), want, "{cond:?}: {got:?} ({})", h.app.message);
        for id in &got {
            assert_eq!(line_of(&h, *id), Some(9));
        }
        if want > 0 && !cond.is_empty() {
            assert!(
                h.screen()
                    .contains(&format!("◆ line  9  w = z + y  if {cond}"))
                    || {
                        h.keys("B");
                        h.screen()
                            .contains(&format!("◆ line  9  w = z + y  if {cond}"))
                    }
            );
        }
        assert_eq!(
            h.app.message, "no more breakpoint hits: the subtree is explored",
            "{cond:?}"
        );
    }
}

#[test]
fn a_condition_in_a_function_reads_its_locals_and_the_gutter_shows_it() {
    let mut h = open_source("t.py", CALLS, None, 130, 40);
    conditional_break(&mut h, 3, "b > 9 and a < 100");
    assert!(h.app.conditions[&3].error.is_none());
    let screen = h.screen();
    assert!(screen.contains("◆ 3     if b > 9:"), "{screen}");
    h.keys("r");
    assert_eq!(line_of(&h, h.app.selected), Some(3));
    assert!(
        h.app.message.contains("where b > 9 and a < 100 can hold"),
        "{}",
        h.app.message
    );
    // The hit's path allows the condition: evaluate it there.
    h.keys(":b > 9 and a < 100<Enter>");
    assert!(
        h.app.message.contains("can be either") || h.app.message.contains("always true"),
        "{}",
        h.app.message
    );
    // Disabled: ◇, and r runs through.
    h.keys("B <Esc>");
    assert!(h.screen().contains("◇▶3"), "{}", h.screen());
}

#[test]
fn an_invalid_condition_is_reported_when_set() {
    let mut h = open_source("t.py", CALLS, None, 130, 40);
    conditional_break(&mut h, 3, "bb > 1");
    let c = &h.app.conditions[&3];
    assert!(
        c.error
            .as_deref()
            .unwrap()
            .contains("cannot find value `bb`"),
        "{c:?}"
    );
    assert!(
        h.app.message.contains("condition on line 3"),
        "{}",
        h.app.message
    );
    h.keys("B");
    assert!(
        h.screen().contains("if bb > 1  ⚠ cannot find value"),
        "{}",
        h.screen()
    );
    // Such a breakpoint stops (as gdb does) and says why.
    h.keys("<Esc>c");
    assert_eq!(line_of(&h, h.app.selected), Some(3));
    assert!(
        h.app
            .message
            .contains("the condition is not valid here: cannot find value `bb`"),
        "{}",
        h.app.message
    );
    h.keys("B");
    // An int is not a condition.
    h.keys("c<BS><BS><BS><BS><BS><BS>b + 1<Enter>");
    assert!(h.app.conditions[&3]
        .error
        .as_deref()
        .unwrap()
        .contains("bool"));
    // c then an empty prompt removes the condition (the breakpoint stays).
    assert_eq!(h.app.mode, Mode::Breakpoints);
    h.keys("c<BS><BS><BS><BS><BS><Enter>");
    assert!(h.app.conditions.is_empty());
    assert!(h.app.breakpoints.contains_key(&3));
    assert_eq!(h.app.mode, Mode::Breakpoints);
    // Backspace on an empty prompt leaves it.
    h.keys("c<BS>");
    assert_eq!(h.app.mode, Mode::Normal);
    // Deleting the breakpoint deletes its condition.
    h.keys("Bcb > 1<Enter>");
    assert_eq!(h.app.conditions[&3].text, "b > 1");
    h.keys("d<Esc>");
    assert!(h.app.breakpoints.is_empty() && h.app.conditions.is_empty());
}

#[test]
fn an_undecided_condition_counts_as_may_hold_and_says_so() {
    let src = "\
a: int
b: int
c: int
d = a + b + c
assert d != 7
";
    let mut config = Config::default();
    config.timeout_ms = Some(300);
    let mut h = open_with(src, config);
    conditional_break(&mut h, 5, "a * a * a + b * b * b + c * c * c == 33");
    h.keys("c");
    assert_eq!(line_of(&h, h.app.selected), Some(5), "{}", h.app.message);
    assert!(
        h.app.message.contains("could not decide the condition"),
        "{}",
        h.app.message
    );
    assert!(h.app.message.contains("it may hold"), "{}", h.app.message);
}

#[test]
fn pty_conditional_breakpoint_and_evaluate() {
    use super::tui_e2e::Tui;
    let dir = std::env::temp_dir().join(format!("symdbg-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("t.py"), SRC).expect("write program");
    let mut tui = Tui::spawn_in(&dir, &["t.py"], &[("COLORTERM", Some("truecolor"))]);
    tui.wait_for("the start screen", |s| s.contains("1 open"));
    // S-Tab focuses the code pane (cursor on line 3), six j to line 9, b, Tab back.
    tui.press("\x1b[Zjjjjjjb\t");
    tui.wait_for("the breakpoint", |s| s.contains("●  9 w = z + y"));
    tui.press("Bc");
    tui.wait_for("the condition prompt", |s| {
        s.contains("line 9 stops only if")
    });
    tui.press("z == 2\r");
    tui.wait_for("the condition in the list", |s| {
        s.contains("◆ line  9  w = z + y  if z == 2")
    });
    tui.press("\t");
    tui.wait_for("the list closed", |s| s.contains("◆  9 w = z + y"));
    tui.press("c");
    tui.wait_for("the one hit", |s| {
        s.contains("where z == 2 can hold (hit 1)")
    });
    tui.press(":z + y > 5\r");
    tui.wait_for("the evaluation", |s| {
        s.contains("─ : z + y > 5") && s.contains("can be either on this path")
    });
    tui.press("c");
    tui.wait_for("the end of the search", |s| {
        s.contains("no more breakpoint hits")
    });
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn snapshot_of_the_breakpoint_list_with_conditions() {
    let mut h = open_source("t.py", SRC, None, 120, 32);
    conditional_break(&mut h, 4, "");
    conditional_break(&mut h, 6, "x < -7 and y != 0");
    conditional_break(&mut h, 9, "w > 3");
    conditional_break(&mut h, 12, "y > 0");
    // Line 12's is disabled.
    h.keys("B");
    h.app.breaks_cursor = 3;
    h.keys(" ");
    let screen = h.screen();
    assert!(
        screen.contains("◆ line  6  z = 2  if x < -7 and y != 0"),
        "{screen}"
    );
    // w is assigned on line 9: not yet a name there? It is a module variable: the
    // condition is valid (it raises NameError at that node, so it never holds there).
    assert!(
        screen.contains("◆ line  9  w = z + y  if w > 3"),
        "{screen}"
    );
    assert!(
        screen.contains("◇ line 12  assert w != 100  if y > 0"),
        "{screen}"
    );
    assert!(screen.contains("c condition"), "{screen}");
    insta::assert_snapshot!("tui_breakpoint_list_conditions", screen);
    // w > 3 on line 9 never holds (w is not assigned before line 9 runs): c skips line 9,
    // stops at line 6 where x < -7 can hold, and at nothing else.
    h.keys("<Esc>");
    let got = hits(&mut h);
    let lines: Vec<_> = got.iter().map(|&id| line_of(&h, id)).collect();
    assert!(
        lines.iter().all(|l| *l == Some(4) || *l == Some(6)),
        "{lines:?}"
    );
    assert_eq!(
        lines.iter().filter(|l| **l == Some(6)).count(),
        1,
        "{lines:?}"
    );
}

/// One watch is "1 watch", not "1 watches" (in the message of `W` and of an empty `W`).
#[test]
fn one_watch_is_singular() {
    let mut h = open_source("t.py", SRC, None, 130, 44);
    h.keys("Wz % 7<Enter>");
    assert_eq!(
        h.app.message,
        "watching z % 7 (1 watch, under the store; W z % 7 again removes it)"
    );
    h.keys("Wz + 1<Enter>");
    assert!(h.app.message.contains("(2 watches,"), "{}", h.app.message);
    h.keys("Wz + 1<Enter>W<Enter>");
    assert_eq!(h.app.message, "1 watch removed");
}
