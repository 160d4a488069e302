//! What a reload (`L`) and a session file (`S`, `--session`) carry besides the tree:
//! watches (`W`), preconditions (`a`) and breakpoint conditions (`B`, `c`), each added by a
//! different key, kept together in `tui::carry::Carry`.

use symdbg::session::NodeId;
use symdbg::tui::harness::Harness;

use super::tui_reload::{infos, open_file, rewrite, temp_dir, SRC};

/// A breakpoint on line 10 (`y = s // x`) with a condition, a watch and a precondition,
/// set through the keys a user presses.
fn set_up(h: &mut Harness) {
    h.keys("1");
    h.app.code_cursor = 10;
    h.keys("b2B");
    h.keys("cx > 2<Enter><Esc>");
    h.keys("Ws + 1<Enter>");
    h.keys("ax > 5<Enter>");
    assert_eq!(h.app.conditions[&10].text, "x > 2");
    assert_eq!(h.app.watch.list, vec!["s + 1".to_string()]);
    assert_eq!(h.app.source.assumptions, vec!["x > 5".to_string()]);
}

/// Every leaf model the worker gives respects the precondition `x > 5`.
fn models_respect_the_precondition(h: &mut Harness) {
    h.keys("r");
    h.keys("e");
    h.keys("m");
    let screen = h.screen();
    assert!(screen.contains("assuming #1 x > 5"), "{screen}");
    let x: i64 = screen
        .lines()
        .find_map(|l| {
            let at = l.find("x = ")?;
            l[at + 4..]
                .split(|c: char| !(c.is_ascii_digit() || c == '-'))
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no x in the model pane:\n{screen}"));
    assert!(x > 5, "x = {x} violates the precondition:\n{screen}");
}

#[test]
fn a_session_file_keeps_watches_preconditions_and_conditions() {
    let dir = temp_dir("carry-save");
    let path = dir.join("p.py");
    std::fs::write(&path, SRC).unwrap();
    let mut a = open_file(&path, None, None);
    set_up(&mut a);
    a.keys("S");
    assert!(a.app.message.contains("session saved"), "{}", a.app.message);
    let saved = dir.join("p.py.symdbg-session");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(json["watches"][0], "s + 1");
    assert_eq!(json["assumptions"][0], "x > 5");
    assert_eq!(json["breakpoints"][0]["condition"], "x > 2");

    // Reopened without `--assume`: the file's precondition is in force again.
    let mut b = open_file(&path, None, Some(&saved));
    assert!(
        b.app.message.contains("session restored"),
        "{}",
        b.app.message
    );
    assert_eq!(b.app.watch.list, a.app.watch.list);
    assert_eq!(b.app.source.assumptions, a.app.source.assumptions);
    assert_eq!(b.app.conditions[&10].text, "x > 2");
    models_respect_the_precondition(&mut b);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_reload_keeps_watches_preconditions_and_conditions() {
    let dir = temp_dir("carry-reload");
    let path = dir.join("p.py");
    std::fs::write(&path, SRC).unwrap();
    let mut h = open_file(&path, None, None);
    set_up(&mut h);
    // Two lines inserted above: the breakpoint and its condition move to line 12.
    rewrite(&path, &format!("# a comment\n\n{SRC}"));
    h.poll_disk(&path);
    h.keys("L");
    assert!(h.app.message.contains("reloaded"), "{}", h.app.message);
    assert!(h.app.message.contains("moved 10→12"), "{}", h.app.message);
    assert_eq!(h.app.conditions[&12].text, "x > 2");
    assert!(!h.app.conditions.contains_key(&10));
    assert_eq!(h.app.watch.list, vec!["s + 1".to_string()]);
    assert_eq!(h.app.source.assumptions, vec!["x > 5".to_string()]);
    models_respect_the_precondition(&mut h);

    // A new text where the precondition no longer type-checks: refused, nothing lost.
    rewrite(&path, &SRC.replace("x: int", "x: bool"));
    h.poll_disk(&path);
    h.keys("L");
    assert!(h.app.message.contains("reload failed"), "{}", h.app.message);
    assert_eq!(h.app.source.assumptions, vec!["x > 5".to_string()]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_new_tree_forgets_the_answers_about_the_old_trees_nodes() {
    let dir = temp_dir("carry-forget");
    let path = dir.join("p.py");
    std::fs::write(&path, SRC).unwrap();
    let mut h = open_file(&path, None, None);
    h.keys("sss");
    h.keys("G");
    let deep = h.app.selected;
    assert!(deep > NodeId(0));
    h.keys("Wi + 100<Enter>");
    assert!(
        h.app.watch.results.keys().any(|k| k.0 == deep),
        "the watch was evaluated at node {}",
        deep.0
    );
    // `a` starts a new tree at the root: node `deep` is another node now (or none).
    h.keys("ax > 5<Enter>");
    assert_eq!(h.app.watch.list, vec!["i + 100".to_string()]);
    assert!(
        h.app.watch.results.keys().all(|k| k.0 != deep),
        "an answer about the old tree's node {} survived: {:?}",
        deep.0,
        h.app.watch.results.keys().collect::<Vec<_>>()
    );
    assert!(
        h.app.details.keys().all(|&k| k == NodeId(0)),
        "{:?}",
        h.app.details.keys().collect::<Vec<_>>()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `F` folds a loop head against `--fold off`: a saved session replays that step folded
/// too (the frontier records it as `"fold"`), so the restored tree is the same.
#[test]
fn a_session_file_replays_a_loop_folded_with_f() {
    let dir = temp_dir("carry-fold");
    let path = dir.join("deep.py");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/fold/deep.py"
    ))
    .unwrap();
    std::fs::write(&path, text).unwrap();
    let mut a = open_file(&path, Some("deep"), None);
    a.keys("s");
    let head = a.app.selected;
    a.keys("F");
    assert!(
        a.app.tree.node(head).info.fold.fold_node,
        "{}",
        a.app.message
    );
    a.keys("r");
    a.keys("S");
    let saved = dir.join("deep.py.symdbg-session");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    let steps: Vec<&str> = json["frontier"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["step"].as_str().unwrap())
        .collect();
    assert!(steps.contains(&"fold"), "{steps:?}");
    let b = open_file(&path, Some("deep"), Some(&saved));
    assert!(
        !b.app.message.contains("no longer apply"),
        "{}",
        b.app.message
    );
    assert_eq!(infos(&b), infos(&a), "the same tree, node for node");
    assert!(b.app.tree.node(head).info.fold.fold_node);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `S` never overwrites a file that is not a session file (a typo naming the program, say);
/// it does replace an earlier session file.
#[test]
fn s_does_not_overwrite_a_file_that_is_not_a_session_file() {
    let dir = temp_dir("carry-clobber");
    let path = dir.join("p.py");
    std::fs::write(&path, SRC).unwrap();
    let other = dir.join("notes.txt");
    std::fs::write(&other, "my notes\n").unwrap();
    for (target, why) in [
        (&path, "it is the program itself"),
        (&other, "it exists and is not a session file symdbg wrote"),
    ] {
        let mut h = open_file(&path, None, Some(target));
        h.keys("S");
        assert!(
            h.app.message.starts_with("session not saved") && h.app.message.contains(why),
            "{}",
            h.app.message
        );
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), SRC);
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "my notes\n");
    // A directory is refused too; a session file is replaced.
    let mut h = open_file(&path, None, Some(&dir));
    h.keys("S");
    assert!(
        h.app.message.contains("not a regular file"),
        "{}",
        h.app.message
    );
    let saved = dir.join("p.py.symdbg-session");
    let mut h = open_file(&path, None, None);
    h.keys("S");
    h.keys("s");
    h.keys("S");
    assert!(h.app.message.contains("session saved"), "{}", h.app.message);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(json["frontier"].as_array().unwrap().len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}
