//! Issue 29: `L` (reload) compares the reloaded program's behaviour with the previous
//! one's on the explored paths (`session::diff` through the worker's session): "behaviour
//! changed on N paths" with the witnesses (status line, whole in the message log `M`),
//! "behaviour unchanged" when the edit kept it, nothing when the text is the same, and
//! "not compared" beyond the cap or when the inputs changed. Frames as insta snapshots.

use std::path::Path;

use symdbg::base::SourceMap;
use symdbg::engine::Config;
use symdbg::tui::app::Mode;
use symdbg::tui::harness::Harness;
use symdbg::tui::program_file::Stamp;
use symdbg::tui::Files;

use super::tui_reload::{rewrite, temp_dir};

const SRC: &str = "\
x: int
print(x > 0)
if x > 2:
    y = x
else:
    y = 0
print(y)
";

/// `path` (holding `text`) in the harness, shown as `p.py`, explored whole (`r`).
fn opened(path: &Path, text: &str) -> Harness {
    std::fs::write(path, text).unwrap();
    let setup = super::tui::setup(SourceMap::new("p.py", text), None, Config::default());
    let files = Files {
        program: Some(path.to_path_buf()),
        stamp: Stamp::of(path),
        session: None,
    };
    let mut h = Harness::open_with(setup, files, 120, 32).unwrap();
    h.keys("r");
    h
}

fn reload(h: &mut Harness, path: &Path, text: &str) {
    rewrite(path, text);
    h.poll_disk(path);
    h.keys("L");
    assert!(h.app.message.contains("reloaded"), "{}", h.app.message);
}

#[test]
fn l_reports_the_paths_whose_behaviour_changed_with_witnesses() {
    let dir = temp_dir("diff");
    let path = dir.join("p.py");
    let mut h = opened(&path, SRC);
    reload(&mut h, &path, &SRC.replace("y = x\n", "y = x + 1\n"));
    let m = h.app.message.clone();
    assert!(m.contains("behaviour changed on 1 path: x = "), "{m}");
    // The witness: an input of the changed branch; each version ends with the `y` and
    // prints what python3 prints on it (`x > 0`, then `y`).
    let x: i64 = m
        .split("x = ")
        .nth(1)
        .and_then(|r| r.split(':').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{m}"));
    assert!(x > 2, "{m}");
    assert!(
        m.contains(&format!(
            "old ends with y = {x}, printing \"True\\n{x}\\n\", new ends with y = {y}, printing \"True\\n{y}\\n\"",
            y = x + 1
        )),
        "{m}"
    );
    assert_eq!(h.app.mode, Mode::Normal, "no box in the way");
    insta::assert_snapshot!("reload_behaviour_changed", h.screen());
    // The message log has it whole.
    h.keys("M");
    assert_eq!(h.app.mode, Mode::Messages);
    insta::assert_snapshot!("reload_behaviour_changed_log", h.screen());
    h.keys("<Esc>");
    // Back to the first text: changed again (the other way round).
    reload(&mut h, &path, SRC);
    assert!(
        h.app.message.contains("behaviour changed on 1 path"),
        "{}",
        h.app.message
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn l_says_the_behaviour_is_unchanged_or_nothing_for_the_same_text() {
    let dir = temp_dir("same");
    let path = dir.join("p.py");
    let mut h = opened(&path, SRC);
    // A refactoring: other text, the same behaviour on every path.
    let refactored = SRC
        .replace("if x > 2:", "if 2 < x:")
        .replace("y = 0\n", "y = x - x\n");
    reload(&mut h, &path, &refactored);
    assert!(
        h.app
            .message
            .contains("behaviour unchanged on the explored paths"),
        "{}",
        h.app.message
    );
    insta::assert_snapshot!("reload_behaviour_unchanged", h.screen());
    // The same text again (written anew): nothing to compare, nothing said.
    reload(&mut h, &path, &refactored);
    assert!(!h.app.message.contains("behaviour"), "{}", h.app.message);
    // Other inputs: not compared.
    reload(&mut h, &path, &SRC.replace("x: int\n", "x: int\nz: int\n"));
    assert!(
        h.app
            .message
            .contains("behaviour not compared: the inputs changed"),
        "{}",
        h.app.message
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn l_does_not_compare_trees_over_the_cap() {
    // 2^6 leaves: 4096 pairs of leaves, over the cap.
    let mut src: String = (0..6).map(|k| format!("b{k}: bool\n")).collect();
    src.push_str("s = 0\n");
    for k in 0..6 {
        src.push_str(&format!("if b{k}:\n    s += {k}\n"));
    }
    let dir = temp_dir("cap");
    let path = dir.join("p.py");
    let mut h = opened(&path, &src);
    reload(&mut h, &path, &src.replace("s += 5", "s += 6"));
    let m = &h.app.message;
    assert!(
        m.contains(&format!(
            "behaviour not compared: tree too large (4096 pairs of leaves, over {})",
            symdbg::tui::worker::MAX_PAIRS
        )),
        "{m}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
