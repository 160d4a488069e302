//! Issue 16 items 5 and 6: reloading the program (`L`) and saving/restoring a session
//! (`S`, `--session`). Keys in, app state and frame out, through the synchronous harness on
//! programs written to temporary files; one end-to-end run of the real binary in a pty.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use symdbg::base::SourceMap;
use symdbg::engine::Config;
use symdbg::session::NodeRow;
use symdbg::session::{ExcStop, NodeId};
use symdbg::tui::app::Mode;
use symdbg::tui::harness::Harness;
use symdbg::tui::program_file::Stamp;
use symdbg::tui::Files;

use super::tui_e2e::Tui;

/// A loop with invariants (a loop choice for `s`/`u`), a branch, two exceptions.
pub(crate) const SRC: &str = "\
t: tuple
x: int
i = 0
s = 0
while i < len(t):
    invariant 0 <= i <= len(t)
    s += t[i]
    i += 1
if x >= 0:
    y = s // x
else:
    y = 0
assert y != 7
";

/// A fresh directory for one test's files.
pub(crate) fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("symdbg-reload-{}-{tag}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `path` in the harness as `symdbg path [--entry E] [--session S]` opens it.
pub(crate) fn open_file(path: &Path, entry: Option<&str>, session: Option<&Path>) -> Harness {
    let stamp = Stamp::of(path);
    let text = std::fs::read_to_string(path).expect("read the program");
    let setup = super::tui::setup(
        SourceMap::new(path.display().to_string(), text),
        entry.map(str::to_string),
        Config::default(),
    );
    let files = Files {
        program: Some(path.to_path_buf()),
        stamp,
        session: session.map(Path::to_path_buf),
    };
    Harness::open_with(setup, files, 120, 40).unwrap_or_else(|d| panic!("{d:?}"))
}

/// Write a new text; the stamp must change (a coarse clock may need a moment).
pub(crate) fn rewrite(path: &Path, text: &str) {
    let before = Stamp::of(path);
    for _ in 0..100 {
        std::fs::write(path, text).expect("write the program");
        if Stamp::of(path) != before {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the file's stamp does not change");
}

pub(crate) fn infos(h: &Harness) -> Vec<NodeRow> {
    h.app.tree.nodes.iter().map(|n| n.info.clone()).collect()
}

/// Step with `s` until the selected node is an annotated loop's choice.
pub(crate) fn step_to_loop(h: &mut Harness) {
    for _ in 0..20 {
        if h.app.tree.node(h.app.selected).info.at_annotated_loop {
            return;
        }
        h.keys("s");
    }
    panic!("no loop choice reached: {}", h.screen());
}

/// Put a breakpoint on `line` (from the code pane) and focus the tree again.
pub(crate) fn break_at(h: &mut Harness, line: usize) {
    h.keys("1");
    h.app.code_cursor = line;
    h.keys("b2");
}

#[test]
fn a_changed_file_is_noticed_and_l_reloads_keeping_tree_breakpoints_and_selection() {
    let dir = temp_dir("keep");
    let path = dir.join("p.py");
    std::fs::write(&path, SRC).unwrap();
    let mut h = open_file(&path, None, None);
    h.keys("r");
    h.keys("e");
    let before = infos(&h);
    let selected = h.app.selected;
    assert!(before[selected.index()].is_exception(), "{}", h.screen());
    break_at(&mut h, 10);
    h.keys("x");
    h.poll_disk(&path);
    assert!(
        !h.screen().contains("changed on disk"),
        "nothing changed yet"
    );

    // Two lines inserted above: every line moves down by two.
    rewrite(&path, &format!("# a comment\n\n{SRC}"));
    h.poll_disk(&path);
    assert!(
        h.screen().contains("program changed on disk: L reloads"),
        "{}",
        h.screen()
    );
    h.keys("L");
    let screen = h.screen();
    assert!(!screen.contains("changed on disk"), "{screen}");
    assert!(h.app.message.contains("reloaded"), "{}", h.app.message);
    assert!(h.app.message.contains("moved 10→12"), "{}", h.app.message);
    assert!(
        !h.app.message.contains("no longer apply"),
        "{}",
        h.app.message
    );
    assert!(
        screen.contains("# a comment"),
        "the code pane shows the new text"
    );
    // The same tree, every line two further down, the same node selected.
    let after = infos(&h);
    assert_eq!(after.len(), before.len());
    for (a, b) in before.iter().zip(&after) {
        assert_eq!(
            (a.parent(), a.kind(), &a.branch),
            (b.parent(), b.kind(), &b.branch)
        );
        assert_eq!(a.place().map(|l| l + 2), b.place(), "{a:?} / {b:?}");
    }
    assert_eq!(h.app.selected, selected);
    assert_eq!(
        h.app.breakpoints.keys().copied().collect::<Vec<_>>(),
        vec![12]
    );
    assert_eq!(h.app.exc_break, ExcStop::Any);
    assert!(screen.contains("●▶"), "the breakpoint is drawn: {screen}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_reload_that_does_not_load_shows_the_errors_and_keeps_the_old_session() {
    let dir = temp_dir("errors");
    let path = dir.join("p.py");
    std::fs::write(&path, SRC).unwrap();
    let mut h = open_file(&path, None, None);
    h.keys("ss");
    break_at(&mut h, 9);
    let before = infos(&h);
    let selected = h.app.selected;

    rewrite(&path, "x: int\nif x >\n    y = 1\n");
    h.poll_disk(&path);
    h.keys("L");
    assert_eq!(h.app.mode, Mode::Errors);
    let screen = h.screen();
    assert!(screen.contains("reload failed"), "{screen}");
    assert!(
        screen.contains("p.py:2"),
        "the diagnostic names the place: {screen}"
    );
    assert!(h.app.message.contains("1 error"), "{}", h.app.message);
    // Nothing lost.
    assert_eq!(infos(&h), before);
    assert_eq!(h.app.selected, selected);
    assert!(h.app.breakpoints.contains_key(&9));
    assert!(h.app.line_text(3).contains("i = 0"), "the old text stays");
    h.keys("<Esc>");
    assert_eq!(h.app.mode, Mode::Normal);
    assert!(h.screen().contains("changed on disk"), "still different");
    // A type error (not a parse error) and then a good text.
    rewrite(&path, "x: int\ny = x + (1,)\n");
    h.keys("L");
    assert_eq!(h.app.mode, Mode::Errors);
    h.keys("q");
    assert!(!h.app.quit, "q closes the list first");
    rewrite(&path, SRC.replace("y = 0", "y = 1").as_str());
    h.keys("L");
    assert_eq!(h.app.mode, Mode::Normal);
    assert!(h.app.message.contains("reloaded"), "{}", h.app.message);
    assert!(h.app.line_text(12).contains("y = 1"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_vanished_node_selects_its_ancestor_and_vanished_lines_drop_their_breakpoints() {
    let dir = temp_dir("vanish");
    let path = dir.join("p.py");
    let src = "x: int\nz = 0\nif x > 0:\n    z = 1\nelse:\n    z = 2\n    z = z + 1\nw = z\n";
    std::fs::write(&path, src).unwrap();
    let mut h = open_file(&path, None, None);
    h.keys("r");
    // Select the node of line 7 (in the else branch).
    let at7 = h
        .app
        .tree
        .nodes
        .iter()
        .find(|n| n.info.place() == Some(7))
        .map(|n| n.info.id())
        .expect("a node at line 7");
    h.app.select(at7);
    break_at(&mut h, 7);
    break_at(&mut h, 2);
    // The branch is gone: the program is a straight line now.
    rewrite(&path, "x: int\nz = 0\nw = z\n");
    h.keys("L");
    let msg = h.app.message.clone();
    assert!(msg.contains("the selected node is gone"), "{msg}");
    assert!(msg.contains("dropped line 7"), "{msg}");
    assert!(msg.contains("no longer apply"), "{msg}");
    assert_eq!(
        h.app.breakpoints.keys().copied().collect::<Vec<_>>(),
        vec![2]
    );
    // The selection is on the path to where it was: the branch node's place.
    let sel = h.app.tree.node(h.app.selected);
    assert!(sel.depth >= 1, "an ancestor below the root was kept");
    assert!(h.app.tree.len() >= 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_deleted_file_is_noticed_and_reloading_it_keeps_the_session() {
    let dir = temp_dir("gone");
    let path = dir.join("p.py");
    std::fs::write(&path, SRC).unwrap();
    let mut h = open_file(&path, None, None);
    h.keys("s");
    let before = infos(&h);
    std::fs::remove_file(&path).unwrap();
    h.poll_disk(&path);
    assert!(h.screen().contains("program file gone"), "{}", h.screen());
    h.keys("L");
    assert!(
        h.app.message.contains("reload failed: cannot read"),
        "{}",
        h.app.message
    );
    assert_eq!(infos(&h), before);
    // A directory in its place, and an empty file.
    std::fs::create_dir(&path).unwrap();
    h.keys("L");
    assert!(h.app.message.contains("directory"), "{}", h.app.message);
    std::fs::remove_dir(&path).unwrap();
    std::fs::write(&path, "\n\n").unwrap();
    h.keys("L");
    assert!(h.app.message.contains("empty"), "{}", h.app.message);
    assert_eq!(infos(&h), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reload_keeps_the_entry_and_refuses_a_program_without_it() {
    let dir = temp_dir("entry");
    let path = dir.join("p.py");
    std::fs::write(&path, "def f(a: int) -> int:\n    return a + 1\n").unwrap();
    let mut h = open_file(&path, Some("f"), None);
    h.keys("r");
    rewrite(&path, "def g(a: int) -> int:\n    return a\n");
    h.keys("L");
    assert_eq!(h.app.mode, Mode::Errors);
    assert!(
        h.app.reload.errors.contains("`f`"),
        "{}",
        h.app.reload.errors
    );
    h.keys("<Esc>");
    rewrite(
        &path,
        "def f(a: int) -> int:\n    if a > 0:\n        return a\n    return 0\n",
    );
    h.keys("L");
    assert!(h.app.message.contains("reloaded"), "{}", h.app.message);
    h.keys("r");
    assert!(h.app.stats.leaves >= 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_a_file_l_and_s_say_why_not() {
    let mut h = super::tui::open_source("t.py", SRC, None, 120, 40);
    h.keys("s");
    h.keys("L");
    assert!(
        h.app.message.contains("not read from a file"),
        "{}",
        h.app.message
    );
    h.keys("S");
    assert!(
        h.app.message.contains("not read from a file"),
        "{}",
        h.app.message
    );
    assert!(h.app.disk_note().is_none());
}

/// The selected node's id, from the status line (` node 7 · depth 3`).
pub(crate) fn selected_node(screen: &str) -> Option<u32> {
    let at = screen.find(" · depth")?;
    screen[..at].rsplit(' ').next()?.parse().ok()
}

#[test]
fn reload_in_a_terminal() {
    let dir = temp_dir("pty");
    let path = dir.join("prog.py");
    std::fs::write(&path, SRC).unwrap();
    let mut tui = Tui::spawn_in(&dir, &["prog.py"], &[("COLORTERM", Some("truecolor"))]);
    tui.wait_for("the start screen", |s| s.contains("[0] 3: i = 0"));
    tui.press("r");
    tui.wait_for("the run", |s| s.contains("run: the subtree is explored"));
    tui.press("e");
    // (the status line may come in a later read than the code pane)
    tui.wait_for("the exception leaf selected", |s| {
        s.contains("▶10     y = s // x") && selected_node(s).is_some_and(|n| n > 0)
    });
    let selected = selected_node(&tui.text());
    rewrite(&path, &format!("# reloaded from disk\n{SRC}"));
    tui.wait_for("the note", |s| {
        s.contains("program changed on disk: L reloads")
    });
    tui.press("L");
    tui.wait_for("the reload", |s| {
        s.contains("reloaded:") && s.contains("# reloaded from disk") && s.contains("▶11")
    });
    let text = tui.text();
    assert!(!text.contains("changed on disk"), "{text}");
    assert!(text.contains("ZeroDivisionError at line 11"), "{text}");
    assert_eq!(
        selected_node(&text),
        selected,
        "the same node selected: {text}"
    );
    // A broken text: the diagnostics over the panes, the old tree behind them.
    rewrite(&path, "x: int\nif x >\n");
    tui.wait_for("the note", |s| s.contains("changed on disk"));
    tui.press("L");
    tui.wait_for("the errors", |s| {
        s.contains("reload failed") && s.contains("prog.py:2")
    });
    tui.press("\x1b");
    tui.wait_for("the old tree", |s| {
        !s.contains("reload failed: the program") && s.contains("ZeroDivisionError at line 11")
    });
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    tui.assert_restored();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn commands_for_nodes_a_reload_removed_are_answered_not_crashed_on() {
    use symdbg::tui::carry::Carry;
    use symdbg::tui::protocol::{Cmd, Reply};
    use symdbg::tui::worker::Worker;
    let dir = temp_dir("stale");
    let path = dir.join("p.py");
    std::fs::write(&path, SRC).unwrap();
    let setup = super::tui::setup(SourceMap::new("p.py", SRC), None, Config::default());
    let mut w = Worker::new(&setup).unwrap();
    w.files.program = Some(path.clone());
    let mut replies = Vec::new();
    w.handle(Cmd::Run(NodeId(0)), &mut |r| replies.push(r));
    // The UI still shows the big tree when the small program is loaded.
    std::fs::write(&path, "x: int\n").unwrap();
    w.handle(
        Cmd::Reload {
            selected: NodeId(20),
            carry: Carry::default(),
        },
        &mut |r| replies.push(r),
    );
    assert!(replies.iter().any(|r| matches!(r, Reply::Reloaded { .. })));
    for cmd in [
        Cmd::Details(NodeId(20)),
        Cmd::Model(NodeId(20)),
        Cmd::Replay(NodeId(20)),
        Cmd::Pruned(vec![NodeId(0), NodeId(20)]),
        Cmd::Evaluate {
            node: NodeId(20),
            up: 0,
            exprs: vec!["x".to_string()],
        },
    ] {
        let mut out = Vec::new();
        w.handle(cmd.clone(), &mut |r| out.push(r));
        assert!(out.is_empty(), "{cmd:?}: {out:?}");
    }
    for cmd in [
        Cmd::Step(NodeId(20)),
        Cmd::StepOver(NodeId(20)),
        Cmd::Run(NodeId(20)),
        Cmd::Tests(NodeId(20)),
        Cmd::Why {
            node: NodeId(20),
            pruned: None,
        },
        Cmd::Resume {
            from: NodeId(0),
            lines: vec![1],
            conditions: Vec::new(),
            exceptions: ExcStop::Any,
            caught: ExcStop::Off,
            until: None,
            seen: vec![NodeId(20)],
            bfs: false,
        },
    ] {
        let mut out = Vec::new();
        w.handle(cmd.clone(), &mut |r| out.push(r));
        assert!(
            matches!(&out[..], [Reply::Done { message, .. }] if message.contains("node 20 is gone")),
            "{cmd:?}: {out:?}"
        );
    }
    // The root is still fine.
    let mut out = Vec::new();
    w.handle(Cmd::Details(NodeId(0)), &mut |r| out.push(r));
    assert!(matches!(&out[..], [Reply::Details(_)]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn snapshots_of_the_changed_note_and_the_errors_of_a_failed_reload() {
    let dir = temp_dir("snap");
    let path = dir.join("p.py");
    std::fs::write(&path, SRC).unwrap();
    // Shown as `p.py` (the temporary directory would change every run).
    let setup = super::tui::setup(SourceMap::new("p.py", SRC), None, Config::default());
    let files = Files {
        program: Some(path.clone()),
        stamp: Stamp::of(&path),
        session: None,
    };
    let mut h = Harness::open_with(setup, files, 120, 32).unwrap();
    h.keys("ss");
    rewrite(&path, &SRC.replace("i += 1", "i += (1"));
    h.poll_disk(&path);
    let screen = h.screen();
    assert!(
        screen.contains("⟳ program changed on disk: L reloads"),
        "{screen}"
    );
    insta::assert_snapshot!("reload_changed_on_disk", screen);
    h.keys("L");
    let screen = h.screen();
    assert!(screen.contains("p.py:8"), "{screen}");
    insta::assert_snapshot!("reload_failed_errors", screen);
    // j/k scroll the diagnostics; other keys close them.
    h.keys("jj");
    assert_eq!(
        (h.app.mode.clone(), h.app.reload.errors_scroll),
        (Mode::Errors, 2)
    );
    assert!(
        !h.screen().contains("was never closed"),
        "scrolled past the first line"
    );
    // Space and PgUp scroll too, as over every box on the panes (the key table's overlay
    // keys, issue 24).
    h.keys("k ");
    assert_eq!(
        (h.app.mode.clone(), h.app.reload.errors_scroll),
        (Mode::Errors, 2)
    );
    h.keys("<PgUp>k<Esc>");
    assert_eq!(h.app.mode, Mode::Normal);
    let _ = std::fs::remove_dir_all(&dir);
}
