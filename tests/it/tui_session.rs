//! Issue 16 item 6: saving a session (`S`) and reopening it (`--session`): the round trip
//! (same tree node for node, selection, breakpoints), a changed program, corrupt and
//! hostile files, and the real binary in a pty.

use symdbg::base::{ExcClass, SourceMap};
use symdbg::engine::Config;
use symdbg::session::ExcStop;
use symdbg::session::NodeKind as Kind;
use symdbg::tui::app::Mode;
use symdbg::tui::harness::Harness;
use symdbg::tui::program_file::Stamp;
use symdbg::tui::Files;

use super::tui_e2e::Tui;
use super::tui_reload::{break_at, infos, open_file, rewrite, step_to_loop, temp_dir, SRC};

/// Explore by hand and by runs, with both loop transitions; breakpoints; a selection.
fn explore(h: &mut Harness) {
    step_to_loop(h);
    h.keys("u"); // unroll once
                 // Down the unrolled path to the loop head again, where the invariant is applied.
    step_to_loop(h);
    h.keys("s");
    h.keys("r");
    break_at(h, 10);
    break_at(h, 13);
    h.keys("B<Space><Esc>"); // the first (line 10) disabled
    h.keys("X");
    h.keys("ZeroDivisionError<Enter>");
    h.keys("Gkk");
}

#[test]
fn a_saved_session_reopens_with_the_same_tree_selection_and_breakpoints() {
    let dir = temp_dir("roundtrip");
    let path = dir.join("p.py");
    std::fs::write(&path, SRC).unwrap();
    let mut a = open_file(&path, None, None);
    explore(&mut a);
    a.keys("S");
    let saved = dir.join("p.py.symdbg-session");
    assert!(
        a.app.message.contains("session saved to"),
        "{}",
        a.app.message
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(json["format"], "symdbg-session");
    assert_eq!(json["version"], 1);
    let steps: Vec<&str> = json["frontier"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["step"].as_str().unwrap())
        .collect();
    assert!(
        steps.contains(&"unroll_once") && steps.contains(&"invariant"),
        "{steps:?}"
    );
    assert_eq!(json["breakpoints"][0]["text"], "y = s // x");

    let b = open_file(&path, None, Some(&saved));
    assert!(
        b.app.message.contains("session restored"),
        "{}",
        b.app.message
    );
    assert!(
        !b.app.message.contains("no longer apply"),
        "{}",
        b.app.message
    );
    assert_eq!(infos(&b), infos(&a), "the same tree, node for node");
    assert_eq!(b.app.selected, a.app.selected);
    assert_eq!(b.app.breakpoints, a.app.breakpoints);
    assert_eq!(
        b.app.exc_break,
        ExcStop::Class(ExcClass::from_name("ZeroDivisionError").unwrap())
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_session_of_a_changed_program_restores_what_applies_and_says_so() {
    let dir = temp_dir("changed");
    let path = dir.join("p.py");
    std::fs::write(&path, SRC).unwrap();
    let session = dir.join("my.session");
    let mut a = open_file(&path, None, Some(&session));
    assert!(
        a.app.message.contains("S saves the session there"),
        "{}",
        a.app.message
    );
    a.keys("r");
    a.keys("e");
    break_at(&mut a, 13);
    a.keys("S");
    assert!(session.exists(), "{}", a.app.message);
    let before = infos(&a);

    // One line inserted at the top: the same tree, lines one further down.
    rewrite(&path, &format!("# moved\n{SRC}"));
    let b = open_file(&path, None, Some(&session));
    let msg = &b.app.message;
    assert!(
        msg.contains("the program changed since it was saved"),
        "{msg}"
    );
    assert!(msg.contains("moved 13→14"), "{msg}");
    assert_eq!(
        b.app.breakpoints.keys().copied().collect::<Vec<_>>(),
        vec![14]
    );
    assert_eq!(infos(&b).len(), before.len());
    assert_eq!(b.app.selected, a.app.selected);

    // The assert is gone: the tree is smaller, the breakpoint on it dropped.
    rewrite(&path, &SRC.replace("assert y != 7\n", ""));
    let c = open_file(&path, None, Some(&session));
    let msg = &c.app.message;
    assert!(msg.contains("dropped line 13"), "{msg}");
    assert!(c.app.breakpoints.is_empty());
    assert!(c.app.tree.len() < before.len());
    // Other options than the saved ones are named.
    let stamp = Stamp::of(&path);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut config = Config::default();
    config.unroll = 1;
    let setup = super::tui::setup(
        SourceMap::new(path.display().to_string(), text),
        None,
        config,
    );
    let files = Files {
        program: Some(path.clone()),
        stamp,
        session: Some(session.clone()),
    };
    let d = Harness::open_with(setup, files, 120, 40).unwrap();
    assert!(
        d.app.message.contains("saved with --unroll 3"),
        "{}",
        d.app.message
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn corrupt_old_and_hostile_session_files_start_fresh_with_a_message() {
    let dir = temp_dir("corrupt");
    let path = dir.join("p.py");
    std::fs::write(&path, SRC).unwrap();
    let mut good = open_file(&path, None, None);
    good.keys("r");
    good.keys("S");
    let saved = dir.join("p.py.symdbg-session");
    let text = std::fs::read_to_string(&saved).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let with = |k: &str, v: serde_json::Value| {
        let mut o = value.clone();
        o[k] = v;
        o.to_string()
    };
    let fresh: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", Vec::new(), "not a session file"),
        (
            "truncated",
            text.as_bytes()[..text.len() / 2].to_vec(),
            "not a session file",
        ),
        ("binary", vec![0xff, 0xfe, 0, 1, 2, 0x1b, b'['], "not UTF-8"),
        (
            "newer",
            with("version", 9.into()).into_bytes(),
            "newer symdbg",
        ),
        (
            "older",
            with("version", 0.into()).into_bytes(),
            "format version 0",
        ),
        (
            "other format",
            with("format", "x".into()).into_bytes(),
            "not a session file",
        ),
        (
            "wrong types",
            with("frontier", 3.into()).into_bytes(),
            "damaged",
        ),
        (
            "negative",
            with("selected", serde_json::json!([-3])).into_bytes(),
            "damaged",
        ),
        (
            "nested",
            "[".repeat(50_000).into_bytes(),
            "not a session file",
        ),
    ];
    for (what, bytes, want) in fresh {
        let file = dir.join(format!("{}.session", what.replace(' ', "_")));
        std::fs::write(&file, &bytes).unwrap();
        let h = open_file(&path, None, Some(&file));
        let msg = &h.app.message;
        assert!(
            msg.contains(want) && msg.contains("starting fresh"),
            "{what}: {msg}"
        );
        assert_eq!(h.app.tree.len(), 1, "{what}: a fresh tree");
        assert!(h.app.breakpoints.is_empty());
        assert_eq!(h.app.mode, Mode::Normal);
        // The control characters of a hostile file never reach the screen raw.
        assert!(!h.screen().contains('\u{1b}'), "{what}");
    }
    // A name with control characters is shown escaped.
    let odd = dir.join("e\u{1b}[2Jvil.session");
    let h = open_file(&path, None, Some(&odd));
    assert!(h.app.message.contains("\\x1b[2Jvil"), "{}", h.app.message);
    assert!(!h.screen().contains('\u{1b}'));
    // A directory as the session file.
    let h = open_file(&path, None, Some(&dir));
    assert!(
        h.app.message.contains("starting fresh"),
        "{}",
        h.app.message
    );

    // Well-formed but hostile: steps that name no node, a huge selection path, absurd
    // breakpoints. What applies is restored; the rest is counted.
    let mut hostile = value.clone();
    let steps = hostile["frontier"].as_array_mut().unwrap();
    steps.push(serde_json::json!({"from": 999_999, "child": 0, "step": "step"}));
    steps.push(serde_json::json!({"from": 0, "child": 4_000_000_000u32, "step": "step"}));
    steps.push(serde_json::json!({"from": 0, "child": 0, "step": "teleport"}));
    hostile["selected"] = serde_json::json!(vec![0; 100_000]);
    hostile["breakpoints"] = serde_json::json!([
        {"line": 0, "enabled": true, "condition": null, "text": ""},
        {"line": 18446744073709551615u64, "enabled": true, "condition": null, "text": "\u{1b}[2J"},
        {"line": 9, "enabled": true, "condition": "x > 1", "text": "if x > 0:"}
    ]);
    hostile["exceptions"] = "NotAnError".into();
    let file = dir.join("hostile.session");
    std::fs::write(&file, hostile.to_string()).unwrap();
    let h = open_file(&path, None, Some(&file));
    let msg = &h.app.message;
    assert!(msg.contains("session restored"), "{msg}");
    assert!(msg.contains("3 steps no longer apply"), "{msg}");
    assert!(msg.contains("2 unknown entries ignored"), "{msg}");
    assert!(msg.contains("the selected node is gone"), "{msg}");
    assert_eq!(
        h.app.breakpoints.keys().copied().collect::<Vec<_>>(),
        vec![9]
    );
    assert_eq!(h.app.exc_break, ExcStop::Off);
    assert_eq!(infos(&h), infos(&good), "the valid steps rebuilt the tree");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn session_option_in_a_terminal() {
    let dir = temp_dir("pty-session");
    let path = dir.join("prog.py");
    std::fs::write(&path, SRC).unwrap();
    let mut tui = Tui::spawn_in(
        &dir,
        &["prog.py", "--session", "s.json"],
        &[("COLORTERM", Some("truecolor"))],
    );
    tui.wait_for("the start", |s| s.contains("no session file s.json yet"));
    tui.press("r");
    tui.wait_for("the run", |s| s.contains("run: the subtree is explored"));
    tui.press("e");
    tui.wait_for("the leaf selected", |s| s.contains("▶10     y = s // x"));
    tui.press("S");
    tui.wait_for("the save", |s| s.contains("session saved to s.json"));
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    let mut again = Tui::spawn_in(
        &dir,
        &["prog.py", "--session", "s.json"],
        &[("COLORTERM", Some("truecolor"))],
    );
    again.wait_for("the restore", |s| {
        s.contains("session restored from s.json") && s.contains("ZeroDivisionError at line 10")
    });
    assert!(
        again.text().contains(" node ") && !again.text().contains("node 0 ·"),
        "the leaf is selected: {}",
        again.text()
    );
    again.press("q");
    assert_eq!(again.wait_exit(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_restored_leaf_is_selected_with_its_kind() {
    // The restored selection is a real node of the restored tree.
    let dir = temp_dir("leaf");
    let path = dir.join("p.py");
    std::fs::write(&path, SRC).unwrap();
    let mut a = open_file(&path, None, None);
    a.keys("re");
    a.keys("S");
    let b = open_file(&path, None, Some(&dir.join("p.py.symdbg-session")));
    let n = b.app.tree.node(b.app.selected);
    assert!(matches!(n.info.kind(), Kind::Leaf(_)), "{:?}", n.info);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 28: the `--calls` mode in effect is saved, and reopening without `--calls`
/// uses it, so the plain steps at calls replay the same tree (and the status line says
/// so); an old file without the mode still loads.
#[test]
fn the_calls_mode_survives_a_saved_session() {
    use symdbg::session::CallMode;
    let dir = temp_dir("calls");
    let path = dir.join("c.py");
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/contracts.py");
    std::fs::copy(&example, &path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut config = Config::default();
    config.calls = Some(CallMode::Contract);
    let setup = super::tui::setup(
        SourceMap::new(path.display().to_string(), text),
        Some("area".to_string()),
        config,
    );
    let files = Files {
        program: Some(path.clone()),
        stamp: Stamp::of(&path),
        session: None,
    };
    let mut a = Harness::open_with(setup, files, 120, 40).unwrap();
    a.keys("r");
    a.keys("S");
    let saved = dir.join("c.py.symdbg-session");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(json["options"]["calls"], "contract", "{json}");
    let b = open_file(&path, Some("area"), Some(&saved));
    assert!(
        b.app.message.contains("calls contract as saved"),
        "{}",
        b.app.message
    );
    assert_eq!(infos(&b), infos(&a));
    // Without the mode (a file from before), the default (inline) applies: another tree.
    let mut old = json.clone();
    old["options"].as_object_mut().unwrap().remove("calls");
    let older = dir.join("old.symdbg-session");
    std::fs::write(&older, old.to_string()).unwrap();
    let c = open_file(&path, Some("area"), Some(&older));
    assert!(
        c.app.message.contains("session restored"),
        "{}",
        c.app.message
    );
    assert_ne!(infos(&c), infos(&a));
    let _ = std::fs::remove_dir_all(&dir);
}
