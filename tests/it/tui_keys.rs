//! Key scenarios on the terminal UI's state: keys in (through the synchronous harness, no
//! terminal), then the app state and the frame are checked.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use symdbg::session::NodeId;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use symdbg::session::{NodeKind as Kind, Outcome};
use symdbg::tui::app::{Mode, Pane};

use super::tui::{open, open_source};

fn kind(h: &symdbg::tui::harness::Harness, id: NodeId) -> Kind {
    h.app.tree.node(id).info.kind()
}

#[test]
fn step_moves_to_the_first_child_and_j_k_move_between_nodes() {
    let mut h = open("inversion.py", None, 120, 32);
    assert_eq!(h.app.selected, NodeId(0));
    assert_eq!(kind(&h, NodeId(0)), Kind::Open);
    h.keys("s");
    assert_eq!(kind(&h, NodeId(0)), Kind::Inner);
    assert_eq!(h.app.tree.len(), 3, "the if has two feasible branches");
    assert_eq!(h.app.selected, NodeId(1));
    // j skips the label row `└ x <= 1` and lands on node 2.
    h.keys("j");
    assert_eq!(h.app.selected, NodeId(2));
    assert_eq!(
        h.app.code_cursor, 21,
        "the code cursor follows the node's statement"
    );
    h.keys("k<Up>");
    assert_eq!(h.app.selected, NodeId(0));
    // Enter steps too; `s` on a stepped node moves along instead of asking the engine.
    h.keys("j<Enter>");
    assert_eq!(h.app.selected, NodeId(3));
    h.keys("gs");
    assert_eq!(h.app.selected, NodeId(1));
}

#[test]
fn run_then_exception_leaves_then_model_and_replay() {
    let mut h = open("inversion.py", None, 120, 32);
    h.keys("r");
    assert_eq!(h.app.stats.open, 0);
    assert_eq!(h.app.stats.exceptions, 1);
    h.keys("e");
    let leaf = h.app.selected;
    assert!(kind(&h, leaf).is_exception(), "{:?}", kind(&h, leaf));
    assert_eq!(h.app.message, "exception leaf 1 of 1");
    // E from the leaf wraps to the same single leaf.
    h.keys("gE");
    assert_eq!(h.app.selected, leaf);
    h.keys("m");
    let model = h.app.models[&leaf].clone().expect("a model");
    assert_eq!(model.inputs, vec![("x".to_string(), "1".to_string())]);
    h.keys("R");
    let replay = h.app.replays[&leaf].clone().expect("a replay");
    assert!(replay.follows, "{replay:?}");
    assert_eq!(
        replay.concrete_outcome,
        "exception AssertionError at line 23"
    );
    let x = &replay.vars[0];
    assert_eq!(
        (
            x.name.as_str(),
            x.symbolic.as_str(),
            x.here.as_deref(),
            x.end.as_deref()
        ),
        ("x", "-x", Some("-1"), Some("-1"))
    );
}

#[test]
fn replay_at_an_interior_node_checks_the_path_condition() {
    let mut h = open("inversion.py", None, 120, 32);
    // Node 2 (`x = -x` on the else branch): its path condition is `x <= 1`.
    h.keys("sjR");
    assert_eq!(h.app.selected, NodeId(2));
    let replay = h.app.replays[&NodeId(2)].clone().expect("a replay");
    assert!(replay.follows);
    assert!(
        replay.verdict.contains("its 1 checked conjunct holds"),
        "{}",
        replay.verdict
    );
    let x: i64 = replay.inputs[0].1.parse().unwrap();
    assert!(x <= 1, "the model satisfies x <= 1: {x}");
}

#[test]
fn search_finds_statements_and_conditions_and_repeats() {
    let mut h = open("inversion.py", None, 120, 32);
    h.keys("r");
    // The statement of node 2 and the store of leaf 6 (`normal  x = -x`).
    h.keys("/x = -x<Enter>");
    assert_eq!(h.app.selected, NodeId(2));
    assert_eq!(h.app.message, "/x = -x: match 1 of 2");
    h.keys("/<Enter>");
    assert_eq!(h.app.selected, NodeId(6));
    // Branch conditions are searched too; `/` Enter repeats, N goes back.
    h.keys("g/-x >=<Enter>");
    assert_eq!(h.app.selected, NodeId(6));
    h.keys("/<Enter>");
    assert_eq!(
        h.app.selected,
        NodeId(6),
        "one match: repeating wraps to it"
    );
    h.keys("g/assert<Enter>");
    assert_eq!(h.app.selected, NodeId(3));
    h.keys("/<Enter>");
    assert_eq!(h.app.selected, NodeId(5));
    h.keys("N");
    assert_eq!(h.app.selected, NodeId(3));
    h.keys("/nothing like this<Enter>");
    assert!(h.app.message.contains("no match"), "{}", h.app.message);
    // Esc leaves the prompt without searching.
    h.keys("/abc<Esc>");
    assert_eq!(h.app.mode, Mode::Normal);
}

#[test]
fn h_collapses_a_subtree_and_l_expands_it() {
    let mut h = open("inversion.py", None, 120, 32);
    h.keys("r");
    let all = h.app.tree.rows().len();
    h.keys("gh");
    assert!(h.app.tree.node(NodeId(0)).collapsed);
    assert_eq!(h.app.tree.rows().len(), 1);
    assert!(h.screen().contains("(+7 hidden)"), "{}", h.screen());
    h.keys("l");
    assert_eq!(h.app.tree.rows().len(), all);
    // l on an expanded node goes to the first child, h on a leaf to its parent.
    h.keys("l");
    assert_eq!(h.app.selected, NodeId(1));
    h.keys("e");
    let leaf = h.app.selected;
    h.keys("h");
    assert_eq!(Some(h.app.selected), h.app.tree.node(leaf).info.parent());
    // Jumping to a hidden node reveals it.
    h.keys("gh");
    h.keys("e");
    assert!(kind(&h, h.app.selected).is_exception());
    assert!(!h.app.tree.node(NodeId(0)).collapsed);
}

#[test]
fn step_over_and_finish_frame() {
    let mut h = open("power.py", None, 120, 32);
    // Step over the call at node 0: every path comes back to the module (or ends).
    h.keys("n");
    let sel = h.app.selected;
    let n = h.app.tree.node(sel);
    assert_eq!(n.info.frames(), 1, "back in the module frame: {:?}", n.info);
    assert!(h.app.tree.len() > 5);
    // In a fresh session: step into power, then finish its frame.
    let mut h = open("power.py", None, 120, 32);
    h.keys("s");
    assert_eq!(h.app.tree.node(h.app.selected).info.frames(), 2);
    h.keys("f");
    let n = h.app.tree.node(h.app.selected);
    assert!(
        n.info.frames() < 2 || matches!(n.info.kind(), Kind::Leaf(_)),
        "{:?}",
        n.info
    );
}

#[test]
fn keys_typed_while_busy_are_not_queued_for_the_worker() {
    let mut h = open("inversion.py", None, 120, 32);
    // Without pumping, the first `s` leaves the app busy; the others are dropped (issue 23
    // item 5: type-ahead replayed saves and test writes later).
    for _ in 0..3 {
        h.app
            .key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::NONE));
    }
    assert!(h.app.busy.is_some());
    assert_eq!(h.app.message, "busy — Esc cancels");
    h.pump();
    assert!(h.app.busy.is_none());
    // One step: node 0 → node 1.
    assert_eq!(h.app.selected, NodeId(1));
}

#[test]
fn esc_sets_the_cancel_flag_while_busy() {
    let mut h = open("inversion.py", None, 120, 32);
    let flag = Arc::new(AtomicBool::new(false));
    h.app.set_cancel(flag.clone());
    h.app
        .key(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::NONE));
    assert!(h.app.busy.is_some());
    h.app.key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
    assert!(flag.load(Ordering::Relaxed));
    assert_eq!(h.app.message, "interrupting…");
    h.draw();
    assert!(h.screen().contains("run: interrupting… "), "{}", h.screen());
}

#[test]
fn quit_keys_and_help() {
    let mut h = open("inversion.py", None, 120, 32);
    h.keys("?");
    assert_eq!(h.app.mode, Mode::Help);
    h.keys("q");
    assert!(!h.app.quit, "q closes the help first");
    assert_eq!(h.app.mode, Mode::Normal);
    h.keys("q");
    assert!(h.app.quit);
    let mut h = open("inversion.py", None, 120, 32);
    h.keys("<C-c>");
    assert!(h.app.quit, "Ctrl-C quits (it is a key in raw mode)");
}

#[test]
fn mouse_selects_tree_rows_and_code_lines() {
    let mut h = open("inversion.py", None, 120, 32);
    h.keys("r");
    let tree = h.app.area(Pane::Tree).unwrap();
    let screen = h.screen();
    // Find the row of node 7 on screen and click it.
    let y = screen
        .lines()
        .position(|l| l.contains("[7] AssertionError"))
        .expect("node 7 on screen") as u16;
    h.click(tree.x + 5, y);
    assert_eq!(h.app.selected, NodeId(7));
    assert_eq!(h.app.focus, Pane::Tree);
    // A click on a code line moves the code cursor; in the gutter it toggles a breakpoint.
    let code = h.app.area(Pane::Code).unwrap();
    let y = h
        .screen()
        .lines()
        .position(|l| l.contains("19     pass"))
        .unwrap() as u16;
    h.click(code.x + 20, y);
    assert_eq!((h.app.focus, h.app.code_cursor), (Pane::Code, 19));
    assert!(h.app.breakpoints.is_empty());
    h.click(code.x + 1, y);
    assert!(h.app.breakpoints.contains_key(&19));
    // The wheel over the tree moves the selection by three rows: from node 7 (the last
    // row) up to the label row `├ -x >= 0`, and on up to node 5 above it.
    assert_eq!(h.app.selected, NodeId(7));
    h.wheel(tree.x + 5, tree.y + 3, false);
    assert_eq!(h.app.selected, NodeId(5));
    assert_eq!(h.app.focus, Pane::Code, "the wheel does not move the focus");
}

#[test]
fn tab_cycles_panes_and_t_switches_theme() {
    let mut h = open("inversion.py", None, 70, 30);
    assert_eq!(h.app.focus, Pane::Tree);
    h.keys("<Tab>");
    assert_eq!(h.app.focus, Pane::Path);
    h.keys("<Tab><Tab>");
    assert_eq!(h.app.focus, Pane::Stack);
    assert!(
        h.screen().contains("call stack [0]"),
        "narrow layout shows the focused detail"
    );
    let before = h.app.palette;
    h.keys("t");
    assert_ne!(h.app.palette, before);
    assert!(h.app.message.starts_with("theme: "));
}

#[test]
fn entry_runs_and_bound_leaves() {
    let src = "def f(n: int) -> int:\n    while n > 0:\n        n = n - 1\n    return n\n";
    let mut h = open_source("loop.py", src, Some("f"), 120, 32);
    h.keys("r");
    assert!(h.app.stats.bounds > 0, "{:?}", h.app.stats);
    assert!(h.screen().contains("● [10] bound"), "{}", h.screen());
    let returns: Vec<String> = h
        .app
        .tree
        .nodes
        .iter()
        .filter(|n| n.info.kind() == Kind::Leaf(Outcome::Return))
        .map(|n| n.info.summary.clone())
        .collect();
    assert_eq!(
        returns,
        ["return n - 3", "return n - 2", "return n - 1", "return n"]
    );
}

#[test]
fn a_bound_leaf_inside_calls_shows_the_innermost_frame_in_the_store() {
    let mut h = open("power.py", None, 140, 40);
    h.keys("r");
    let bound = h
        .app
        .tree
        .ids()
        .find(|&id| kind(&h, id) == Kind::Leaf(Outcome::Bound))
        .expect("a bound leaf (--recursion)");
    h.app.select(bound);
    h.pump();
    let d = &h.app.details[&bound];
    let (func, locals) = d.frames.last().expect("frames");
    assert_eq!(func, "power");
    assert_eq!(&d.store, locals, "store pane = the innermost frame");
    assert!(
        d.store
            .iter()
            .any(|(k, v)| k == "exp" && v.starts_with("exp - ")),
        "{d:?}"
    );
}

#[test]
fn the_user_picks_the_transition_at_an_annotated_loop() {
    let mut h = open("find_invariant.py", None, 140, 40);
    // Step along the (straight) path to the loop.
    for _ in 0..20 {
        if h.app.tree.node(h.app.selected).info.at_annotated_loop {
            break;
        }
        h.keys("s");
    }
    let at = h.app.selected;
    assert!(h.app.tree.node(at).info.at_annotated_loop);
    let screen = h.screen();
    assert!(screen.contains("s invariant  u unroll  r run"), "{screen}");
    assert!(screen.contains("— loop with invariant"), "{screen}");
    // The path condition pane shows the whole label (the tree row may cut it).
    assert!(
        screen.contains("│loop with invariant: apply it, or unroll once"),
        "{screen}"
    );
    // s applies the invariant: the loop-scope form starts by checking it initially.
    h.keys("s");
    let child = h.app.selected;
    assert_eq!(
        h.app.tree.node(child).info.label.as_deref(),
        Some("invariant initially valid?")
    );
    // In a fresh session, u unrolls: the loop is entered like any loop, its invariants
    // are checked before the test (as `exec` does), and its guard splits the path.
    let mut h = open("find_invariant.py", None, 140, 40);
    while h.app.selected != at {
        h.keys("s");
    }
    h.keys("u");
    let kids = h.app.tree.node(at).children.clone();
    assert_eq!(kids.len(), 1);
    let entered = h.app.tree.node(kids[0]).info.clone();
    assert_eq!(
        (entered.label.as_deref(), entered.place()),
        (Some(symdbg::engine::label::CHECK), Some(30))
    );
    h.keys("s");
    let checked = h.app.tree.node(kids[0]).children.clone();
    assert_eq!(checked.len(), 1, "the invariant holds at i = 0");
    h.keys("s");
    assert_eq!(
        h.app.tree.node(checked[0]).children.len(),
        2,
        "guard true / false"
    );
    // After that one iteration the loop head offers the choice again.
    h.keys("r");
    let heads = h
        .app
        .tree
        .nodes
        .iter()
        .filter(|n| n.info.label.as_deref() == Some(symdbg::engine::label::LOOP_CHOICE))
        .count();
    assert!(heads >= 2, "{}", h.screen());
    // u elsewhere says what it is for.
    h.keys("u");
    assert!(
        h.app.message.contains("annotated loop"),
        "{}",
        h.app.message
    );
}

#[test]
fn replay_skips_conjuncts_over_havocked_values() {
    let mut h = open("find_invariant.py", None, 140, 40);
    h.keys("r/result = i<Enter>R");
    let leaf = h.app.selected;
    assert_eq!(kind(&h, leaf), Kind::Leaf(Outcome::Normal));
    let replay = h.app.replays[&leaf].clone().expect("a replay");
    assert!(
        replay.verdict.contains("havoc'd values"),
        "{}",
        replay.verdict
    );
}

#[test]
fn h_folds_a_call_frame_and_z_folds_them_all() {
    let mut h = open("clamp.py", None, 120, 90);
    h.keys("r");
    assert_eq!(h.app.stats.open, 0);
    let all = h.app.tree.rows().len();
    let calls: Vec<NodeId> = h.app.tree.calls().collect();
    assert_eq!(
        calls.len(),
        4,
        "clamp(x) once, clamp(y) on each of its 3 ways back"
    );
    // h at the first call's row folds its frame: its 3 ways out (the returns) stay, each
    // labelled with the conditions taken inside clamp; what follows them stays visible.
    h.keys("j");
    assert_eq!(h.app.selected, calls[0]);
    h.keys("h");
    assert!(h.app.tree.node(calls[0]).frame_folded);
    assert!(!h.app.tree.node(calls[0]).collapsed);
    let screen = h.screen();
    assert!(screen.contains("→ clamp  (frame folded: +"), "{screen}");
    assert!(screen.contains("├ x < 0 "), "{screen}");
    assert!(screen.contains("├ x >= 0 and x > 10 "), "{screen}");
    assert!(
        screen.contains("→ clamp\n") || screen.contains("→ clamp "),
        "{screen}"
    );
    let exits: Vec<String> = h
        .app
        .tree
        .rows()
        .iter()
        .filter_map(|r| r.cond.as_deref().map(str::to_string))
        .collect();
    assert_eq!(exits, ["x < 0", "x >= 0 and x > 10", "x >= 0 and x <= 10"]);
    let folded = h.app.tree.rows().len();
    assert!(folded < all, "{folded} rows, {all} unfolded");
    for id in h.app.tree.ids() {
        if h.app.tree.node(id).children.is_empty() {
            assert!(h.app.tree.row_of(id).is_some(), "leaf {} hidden", id.0);
        }
    }
    // h again collapses the whole subtree; l undoes one fold at a time.
    h.keys("h");
    assert_eq!(h.app.tree.rows().len(), 2);
    h.keys("l");
    assert_eq!(h.app.tree.rows().len(), folded);
    h.keys("l");
    assert_eq!(h.app.tree.rows().len(), all);
    // z folds every frame: 1 + 3 + 3 × 3 ... rows of the module's own statements only.
    h.keys("z");
    assert!(calls.iter().all(|&c| h.app.tree.node(c).frame_folded));
    assert_eq!(h.app.message, "folded 4 call frame(s) (z unfolds them)");
    let screen = h.screen();
    assert!(!screen.contains("] 23: v = 0"), "{screen}");
    assert_eq!(
        screen.matches("→ clamp").count(),
        screen.matches("→ clamp  (frame folded: +7)").count(),
        "{screen}"
    );
    assert!(screen.contains("30: b = clamp(y)"), "{screen}");
    // Jumping to a node inside a folded frame unfolds that frame only.
    h.keys("/v = 10<Enter>");
    let sel = h.app.selected;
    assert!(h.app.tree.row_of(sel).is_some());
    let unfolded = calls
        .iter()
        .filter(|&&c| !h.app.tree.node(c).frame_folded)
        .count();
    assert_eq!(unfolded, 1, "{}", h.screen());
    // z folds them all again; the selection, now hidden, moves up to its call's row.
    h.keys("z");
    assert!(h.app.tree.is_call(h.app.selected));
    assert_eq!(h.app.tree.node(sel).info.frames(), 2);
    h.keys("z");
    assert_eq!(h.app.message, "unfolded 4 call frame(s)");
    assert_eq!(h.app.tree.rows().len(), all);
}

#[test]
fn an_exception_raised_in_a_call_shows_the_frames_at_the_raise() {
    let mut h = open("window_sum.py", None, 140, 40);
    h.keys("r");
    let index_error = h
        .app
        .tree
        .ids()
        .find(|&id| {
            kind(&h, id).is_exception()
                && h.app.tree.node(id).info.summary.starts_with("IndexError")
        })
        .expect("an IndexError leaf");
    h.app.select(index_error);
    h.pump();
    let d = &h.app.details[&index_error];
    let names: Vec<&str> = d.frames.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(names, ["<module>", "window_sum"], "{d:?}");
    let (_, locals) = &d.frames[1];
    assert!(locals.iter().any(|(k, _)| k == "i"), "{locals:?}");
    let note = d.note.as_deref().unwrap_or("");
    assert!(
        note.contains(
            "inside window_sum; the call stack and the store show the frames at the raise"
        ),
        "{note}"
    );
    // An exception raised in the module itself keeps the leaf's own frames.
    let assertion = h
        .app
        .tree
        .ids()
        .find(|&id| {
            h.app
                .tree
                .node(id)
                .info
                .summary
                .starts_with("AssertionError")
        })
        .expect("an AssertionError leaf");
    h.app.select(assertion);
    h.pump();
    let d = &h.app.details[&assertion];
    assert_eq!(d.frames.len(), 1);
    assert!(!d.note.as_deref().unwrap_or("").contains("inside"));
}

/// A leaf the solver gave up on: `m` says why there is no model (the solver's reason), never
/// that no inputs reach it (issue 10 item 10).
#[test]
fn a_timeout_leaf_says_why_it_has_no_model() {
    use symdbg::base::SourceMap;
    use symdbg::engine::Config;
    use symdbg::tui::{harness::Harness, Setup};
    let src =
        "x: int\ny: int\nz: int\nassume x > 0 and y > 0 and z > 0\nassert x*x*x + y*y*y != z*z*z\n";
    let mut config = Config::default();
    config.timeout_ms = Some(200);
    let setup = Setup {
        source: SourceMap::new("fermat.py", src),
        entry: None,
        config,
        max_nodes: 1_000,
        theme: None,
        colors: Default::default(),
        bfs: false,
    };
    let mut h = Harness::open(setup, 120, 32).expect("opens");
    h.keys("r");
    let unknown = h
        .app
        .tree
        .nodes
        .iter()
        .find(|n| n.info.summary.contains("unknown"))
        .map(|n| n.info.id())
        .expect("an unknown leaf");
    h.app.selected = unknown;
    h.keys("m");
    let screen = h.screen();
    assert!(
        screen.contains("no model: the solver gave up on this path (timeout)"),
        "{screen}"
    );
    assert!(!screen.contains("infeasible"), "{screen}");
}

/// Issue 28: at a call of a function with a contract, `i` inlines it and `o` uses the
/// contract; the hint line offers both only there.
#[test]
fn the_user_picks_inline_or_the_contract_at_a_contracted_call() {
    let mut h = open("contracts.py", Some("area"), 160, 40);
    let root = h.app.selected;
    assert!(h.app.tree.node(root).info.view.call_choice);
    let screen = h.screen();
    assert!(screen.contains("i inline  o contract"), "{screen}");
    assert!(
        screen.contains("— call with a contract: inline it, or use the contract"),
        "{screen}"
    );
    h.keys("o");
    let kids = h.app.tree.node(root).children.clone();
    assert_eq!(kids.len(), 1);
    assert_eq!(
        h.app.tree.node(kids[0]).info.label.as_deref(),
        Some(symdbg::engine::label::USE_REQUIRES)
    );
    // Not at a call: i and o only say where they work.
    h.keys("i");
    assert!(
        h.app.message.contains("i/o choose at a call"),
        "{}",
        h.app.message
    );
    let screen = h.screen();
    assert!(!screen.contains("i inline  o contract"), "{screen}");
    // In a fresh session, i steps into gcd's body: its precondition is checked first.
    let mut h = open("contracts.py", Some("area"), 160, 40);
    h.keys("i");
    let kids = h.app.tree.node(root).children.clone();
    assert_eq!(
        h.app.tree.node(kids[0]).info.label.as_deref(),
        Some(symdbg::engine::label::REQUIRES)
    );
}
