//! Issue 23, the debugger's everyday trust: the store at an exception leaf shows the raising
//! frame, the message log (`M`), keys pressed while the worker is busy, one parser for `:`
//! and `W`, and small ones (grammar, stale counts, frame labels).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use symdbg::session::NodeId;
use symdbg::session::{NodeKind as Kind, Outcome};
use symdbg::tui::app::Mode;
use symdbg::tui::harness::Harness;

use super::screen::status_line;
use super::tui::open_source;
use super::tui_reload::{open_file, temp_dir};

/// A binary search with `hi = len(t)`: `t[mid]` raises IndexError at the end of `t`.
pub const BSEARCH: &str = "\
def bsearch(t: tuple, x: int) -> int:
    lo = 0
    hi = len(t)
    while lo <= hi:
        mid = (lo + hi) // 2
        if t[mid] == x:
            return mid
        if t[mid] < x:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1
";

/// A module program whose exception (ZeroDivisionError) is raised in `lcm`.
const LCM: &str = "\
def gcd(a: int, b: int) -> int:
    while b != 0:
        r = a % b
        a = b
        b = r
    return a


def lcm(a: int, b: int) -> int:
    return a * b // gcd(a, b)


x: int
y: int
m = x + y
z = lcm(x, y)
";

/// What a key that needs the busy worker says.
const BUSY: &str = "busy — Esc cancels";

fn press(h: &mut Harness, c: char) {
    h.app
        .key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
}

/// The store pane's rows of the selected node (its names).
fn store_names(h: &Harness) -> Vec<String> {
    h.app.details[&h.app.selected]
        .store
        .iter()
        .map(|(k, _)| k.clone())
        .collect()
}

fn is_exception(h: &Harness) -> bool {
    matches!(
        h.app.tree.node(h.app.selected).info.kind(),
        Kind::Leaf(Outcome::Exception(_))
    )
}

#[test]
fn the_store_at_an_exception_leaf_shows_the_raising_frame_of_an_entry() {
    let mut h = open_source("bsearch.py", BSEARCH, Some("bsearch"), 140, 44);
    h.keys("re");
    assert!(is_exception(&h), "{}", h.screen());
    let names = store_names(&h);
    for v in ["hi", "lo", "mid", "t", "x"] {
        assert!(names.contains(&v.to_string()), "{v} missing: {names:?}");
    }
    let screen = h.screen();
    assert!(!screen.contains("(no variables yet)"), "{screen}");
    assert!(screen.contains("frame bsearch, at the raise"), "{screen}");
    // The call stack marks the same frame.
    assert!(screen.contains("▸ bsearch"), "{screen}");
    // The replay's table lists the same variables, each with its value under the model.
    h.keys("R");
    let id = h.app.selected;
    let r = h.app.replays[&id].as_ref().expect("a replay");
    assert!(r.follows, "{}", r.verdict);
    let mid = r.vars.iter().find(|v| v.name == "mid").expect("mid");
    let here: i64 = mid.here.as_deref().expect("mid's value").parse().unwrap();
    let t = r.vars.iter().find(|v| v.name == "t").expect("t");
    let t_len = t.here.as_deref().unwrap().matches(',').count();
    // IndexError: mid is at (or past) the end of t.
    assert!(here >= 0, "{here}");
    assert!(
        t.here.as_deref() == Some("()") || here as usize >= t_len,
        "mid = {here}, t = {:?}",
        t.here
    );
    // A function's variables have no value at the end of the run (it ends in module code).
    assert_eq!(mid.end, None);
}

#[test]
fn the_store_at_an_exception_leaf_raised_in_a_call_is_the_callee_s() {
    let mut h = open_source("lcm.py", LCM, None, 140, 44);
    h.keys("r");
    // The first exception leaf: ZeroDivisionError in lcm (x = y = 0).
    h.keys("e");
    assert!(is_exception(&h), "{}", h.screen());
    let d = &h.app.details[&h.app.selected];
    assert_eq!(d.frames.last().map(|(f, _)| f.as_str()), Some("lcm"));
    let names = store_names(&h);
    assert_eq!(names, ["a", "b"], "lcm's variables, not the module's");
    // The model's column evaluates lcm's variables: 0 and 0.
    h.keys("m");
    let id = h.app.selected;
    let m = h.app.models[&id].as_ref().expect("a model");
    let value = |name: &str| {
        m.store
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(value("a"), Some("0"), "{m:?}");
    assert_eq!(value("b"), Some("0"), "{m:?}");
    // Picking the caller's frame shows the module's variables.
    h.keys("5j");
    assert!(h.screen().contains("frame <module>"), "{}", h.screen());
    // At a node inside lcm (not a leaf), the store is lcm's too.
    let inside = (0..h.app.stats.nodes as u32)
        .map(NodeId)
        .find(|&n| {
            h.app.tree.get(n).is_some_and(|n| {
                n.info.func() == Some("lcm") && !matches!(n.info.kind(), Kind::Leaf(_))
            })
        })
        .expect("a node in lcm");
    h.app.select(inside);
    h.pump();
    assert_eq!(store_names(&h), ["a", "b"]);
}

#[test]
fn keys_that_need_the_busy_worker_are_dropped_with_a_word_and_moves_still_work() {
    let dir = temp_dir("busy");
    let path = dir.join("lcm.py");
    std::fs::write(&path, LCM).unwrap();
    let mut h = open_file(&path, None, None);
    h.keys("s");
    // Without pumping, `r` leaves the app busy.
    press(&mut h, 'r');
    assert!(h.app.busy.is_some());
    for c in ['S', 'T', 'L', 's', 'm', 'R', ':', 'W'] {
        press(&mut h, c);
        assert_eq!(h.app.message, BUSY, "{c}");
        assert_eq!(h.app.mode, Mode::Normal, "{c}: no prompt opens");
    }
    h.draw();
    assert!(h.screen().contains(BUSY), "{}", h.screen());
    // Moving works meanwhile: the selection changes, panes get the focus.
    let before = h.app.selected;
    press(&mut h, 'k');
    assert_ne!(h.app.selected, before);
    press(&mut h, '4');
    assert_eq!(h.app.focus, symdbg::tui::app::Pane::Store);
    // The run finishes; nothing typed meanwhile runs afterwards (no save, no tests).
    h.pump();
    assert!(h.app.busy.is_none());
    assert!(h.app.stats.leaves > 0);
    let files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files, ["lcm.py"], "no save, no tests written");
}

#[test]
fn a_watch_that_does_not_parse_is_refused_as_colon_refuses_it() {
    let mut h = open_source("lcm.py", LCM, None, 140, 44);
    h.keys(":foo +<Enter>");
    let colon = h.app.message.clone();
    assert!(colon.starts_with("cannot evaluate: "), "{colon}");
    h.keys("Wfoo +<Enter>");
    assert!(h.app.watch.list.is_empty(), "{:?}", h.app.watch.list);
    assert_eq!(
        h.app.message.strip_prefix("cannot watch: "),
        colon.strip_prefix("cannot evaluate: "),
        "one parser, one error"
    );
    // A name no scope knows: the same words as `:` too.
    h.keys(":qq + 1<Enter>");
    let colon = h.app.message.clone();
    assert!(colon.contains("cannot find value `qq`"), "{colon}");
    h.keys("Wqq + 1<Enter>");
    assert!(h.app.watch.list.is_empty(), "{:?}", h.app.watch.list);
    assert_eq!(
        h.app.message.strip_prefix("cannot watch: "),
        colon.strip_prefix("cannot evaluate: ")
    );
    // Good ones are taken: module variables, and a local of `gcd` (watched in its frames).
    h.keys("Wx + y<Enter>Wr<Enter>");
    assert_eq!(h.app.watch.list, ["x + y", "r"]);
}

#[test]
fn a_saved_watch_that_makes_sense_nowhere_is_dropped_with_a_note() {
    let dir = temp_dir("badwatch");
    let path = dir.join("lcm.py");
    std::fs::write(&path, LCM).unwrap();
    let mut a = open_file(&path, None, None);
    a.keys("Wx<Enter>S");
    let saved = dir.join("lcm.py.symdbg-session");
    let text = std::fs::read_to_string(&saved).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["watches"] = serde_json::json!(["x", "foo +", "qq"]);
    std::fs::write(&saved, json.to_string()).unwrap();
    let b = open_file(&path, None, Some(&saved));
    assert_eq!(b.app.watch.list, ["x"]);
    assert!(
        b.app
            .message
            .contains("watches that make sense in no scope dropped: `foo +`, `qq`"),
        "{}",
        b.app.message
    );
}

#[test]
fn a_session_restored_without_its_entry_says_so_first_and_the_log_keeps_it_whole() {
    let dir = temp_dir("noentry");
    let path = dir.join("bsearch.py");
    std::fs::write(&path, BSEARCH).unwrap();
    let mut a = open_file(&path, Some("bsearch"), None);
    a.keys("rS");
    let saved = dir.join("bsearch.py.symdbg-session");
    let mut b = open_file(&path, None, Some(&saved));
    // The reason leads: a status line of 120 columns shows it.
    let status = status_line(&b);
    assert!(status.contains("saved with --entry bsearch"), "{status}");
    assert!(status.contains("M: whole message"), "{status}");
    // `M` lists the session's messages, newest first, whole.
    b.keys("M");
    assert_eq!(b.app.mode, Mode::Messages);
    let whole = b.app.log.entries.back().cloned().unwrap_or_default();
    assert!(whole.contains("no longer apply"), "{whole}");
    let screen = b.screen();
    assert!(screen.contains("messages (1), newest first"), "{screen}");
    let shown: String = screen
        .lines()
        .map(|l| l.trim_matches(|c| c == '│' || c == ' '))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(shown.contains("no longer apply"), "{screen}");
    b.keys("q");
    assert_eq!(b.app.mode, Mode::Normal);
    assert!(!b.app.quit, "q closes the log first");
}

#[test]
fn the_log_lists_messages_newest_first_and_skips_repeats() {
    let mut h = open_source("lcm.py", LCM, None, 120, 40);
    h.keys("M");
    assert_eq!(h.app.mode, Mode::Messages);
    assert!(h.screen().contains("(no messages yet)"), "{}", h.screen());
    h.keys("<Esc>");
    assert_eq!(h.app.mode, Mode::Normal);
    h.keys("Wfoo +<Enter>Wfoo +<Enter>:x<Enter>");
    h.keys("M");
    assert_eq!(h.app.mode, Mode::Messages);
    let log: Vec<&str> = h.app.log.newest_first().collect();
    assert_eq!(log.len(), 3, "{log:?}");
    assert!(log[0].starts_with("x: "), "{log:?}");
    assert!(log[1].starts_with("evaluating x"), "{log:?}");
    assert!(log[2].starts_with("cannot watch: "), "{log:?}");
    assert_eq!(log[3 - 1], h.app.log.entries[0]);
    let screen = h.screen();
    let at = |s: &str| screen.find(s).unwrap_or_else(|| panic!("{s}: {screen}"));
    assert!(at("• x: ") < at("• cannot watch: "), "{screen}");
}

/// `head`'s inner conditions add nothing to `len(t) > 0`.
const HEAD: &str = "\
def head(t: tuple) -> int:
    if len(t) > 0:
        if 0 < len(t):
            if len(t) != 0:
                return t[0]
    return -1


t: tuple
h = head(t)
";

#[test]
fn a_folded_frame_s_way_out_is_labelled_without_what_is_implied() {
    let mut h = open_source("head.py", HEAD, None, 140, 44);
    h.keys("r");
    // The tree has the three conditions, one per `if`.
    let branches: Vec<String> = h
        .app
        .tree
        .ids()
        .filter_map(|id| h.app.tree.node(id).info.branch.clone())
        .collect();
    for b in ["len(t) > 0", "0 < len(t)", "len(t) != 0"] {
        assert!(branches.iter().any(|x| x == b), "{b}: {branches:?}");
    }
    h.keys("z");
    let labels: Vec<String> = h
        .app
        .tree
        .rows()
        .iter()
        .filter_map(|r| r.cond.as_deref().map(str::to_string))
        .collect();
    assert_eq!(labels, ["len(t) > 0", "len(t) <= 0"], "{}", h.screen());
}

#[test]
fn a_pruned_invariant_check_names_its_line_and_quotes_it() {
    let src = "x: int\ni = 0\nwhile i < 3:\n    invariant 0 <= i <= 3\n    invariant x == x\n    i = i + 1\n";
    let mut h = open_source("inv.py", src, None, 140, 44);
    h.keys("rp");
    let screen = h.screen();
    // (the loop is on line 3, the invariant that cannot break on line 5)
    assert!(
        screen.contains("✗ L5 invariant not preserved at column 15 of `invariant x == x`: False"),
        "{screen}"
    );
    assert!(!screen.contains(" at 5:15"), "{screen}");
}

#[test]
fn one_condition_that_cannot_hold_is_said_in_good_grammar() {
    let src = "x: int\nif x % 3 < 5:\n    y = 1\nelse:\n    y = 2\nassume y == 2\n";
    let mut h = open_source("one.py", src, None, 140, 44);
    h.keys("rGw");
    assert_eq!(
        h.app.message,
        "infeasible: 1 condition cannot hold — line 6 (assume)"
    );
}

#[test]
fn the_status_line_counts_the_nodes_of_a_run_in_progress() {
    let mut h = open_source("lcm.py", LCM, None, 140, 44);
    press(&mut h, 'r');
    assert!(h.app.busy.is_some());
    h.app
        .apply(symdbg::tui::protocol::Reply::Progress { nodes: 57 });
    h.draw();
    let status = status_line(&h);
    assert!(status.contains("57 nodes so far"), "{status}");
    assert!(!status.contains("1 node"), "{status}");
    h.pump();
    h.draw();
    let status = status_line(&h);
    assert!(status.contains(" open, "), "the counts are back: {status}");
}
