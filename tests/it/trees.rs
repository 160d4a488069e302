//! insta snapshots of `symdbg run --tree` for every example: the shape of each SET, its
//! branch conditions in minipy syntax, and its leaves. A change in the engine that changes
//! a tree shows up here as a readable diff.

use std::path::Path;
use std::process::Command;

fn tree_of(path: &Path, extra: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_symdbg"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("run")
        .arg(path)
        .arg("--tree")
        .args(extra)
        .output()
        .expect("run symdbg");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn example_trees() {
    // Unrolled, which every example supports; the invariant form has its own snapshot below
    // (and tests/it/invariants.rs checks the verdicts).
    insta::glob!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/examples"),
        "*.py",
        |path| {
            insta::assert_snapshot!(tree_of(path, &["--loops", "unroll"]));
        }
    );
}

/// The loop-scope form of an annotated loop: assert, havoc, assume, one abstract iteration
/// ending in `halt` (invariant preserved), and the use case after the loop.
#[test]
fn find_with_invariant() {
    let path = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/find_invariant.py"
    ));
    let tree = tree_of(path, &[]);
    assert!(tree.contains("] halt"), "{tree}");
    insta::assert_snapshot!(tree);
}

/// The same program with opaque calls (the book's first interpreter): the callee's
/// statements disappear from the tree, the leaves stay the same.
#[test]
fn find_without_frames() {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/find.py"));
    let framed = tree_of(path, &[]);
    let opaque = tree_of(path, &["--no-frames"]);
    insta::assert_snapshot!(opaque);
    let leaves = |t: &str| {
        t.lines()
            .filter(|l| {
                l.contains("] normal") || l.contains("] bound") || l.contains("] exception")
            })
            .count()
    };
    assert_eq!(leaves(&framed), leaves(&opaque));
    assert!(opaque.lines().count() < framed.lines().count());
}

/// `run --tree` marks call entry (`→ f`, `(depth N)` in recursion) and return (`← g`, `←`
/// back in module code) as the TUI's tree does; JSON stays as it was (no marks).
#[test]
fn tree_marks_calls_and_returns() {
    let dir = std::env::temp_dir().join(format!("symdbg-marks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("marks.py");
    let src = "def g(k: int) -> int:\n    if k <= 0:\n        return 0\n    return 1 + g(k - 1)\n\
               def h(k: int) -> int:\n    return g(k) * 2\nn: int\nr = h(n)\nassert r != 4\n";
    std::fs::write(&path, src).unwrap();
    let tree = tree_of(&path, &["--recursion", "3"]);
    let lines: Vec<&str> = tree.lines().collect();
    let has = |needle: &str| lines.iter().any(|l| l.ends_with(needle));
    // h is entered from module code, g from h, then g from g (two function frames below).
    assert!(has("6: return g(k) * 2  → h"), "{tree}");
    assert!(has("2: if k <= 0:  → g (depth 2)"), "{tree}");
    assert!(has("2: if k <= 0:  → g (depth 3)"), "{tree}");
    // Returns: into g (recursion), into h, and back in module code.
    assert!(has("4: return 1 + g(k - 1)  ← g (depth 2)"), "{tree}");
    assert!(has("6: return g(k) * 2  ← h"), "{tree}");
    assert!(has("9: assert r != 4  ←"), "{tree}");
    // Leaves never carry a mark (they left every frame), and every entry has an arrow.
    assert!(
        lines
            .iter()
            .filter(|l| l.contains("] normal")
                || l.contains("] exception")
                || l.contains("] bound"))
            .all(|l| !l.contains('→') && !l.contains('←')),
        "{tree}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_symdbg"))
        .args(["run", "--json", "--recursion", "3"])
        .arg(&path)
        .output()
        .unwrap();
    let json = String::from_utf8(out.stdout).unwrap();
    assert!(json.contains("\"nodes\""), "{json}");
    assert!(!json.contains('→') && !json.contains('←'), "{json}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 16 item 7: `--tree` leaves out the bounds checks the path already implies, while
/// `--json` keeps every conjunct as the engine has it (a contract).
#[test]
fn tree_labels_drop_implied_bounds_and_json_keeps_them() {
    let path = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/window_sum.py"
    ));
    let tree = tree_of(path, &[]);
    // The normal path: only the outer bounds of t[i - 1], t[i], t[i + 1].
    assert!(
        tree.contains("└── -len(t) <= i - 1 and i + 1 < len(t)\n"),
        "{tree}"
    );
    // A bounds pair reads as one chain, also negated.
    assert!(
        tree.contains("├── not (-len(t) <= i - 1 < len(t))\n"),
        "{tree}"
    );
    assert!(!tree.contains("-len(t) <= i and i < len(t)"), "{tree}");
    let out = Command::new(env!("CARGO_BIN_EXE_symdbg"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "--json"])
        .arg(path)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let pcs: Vec<String> = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|n| n["path_condition"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c.as_str().map(str::to_string))
        .collect();
    let full = "-len(t) <= i - 1 and i - 1 < len(t) and -len(t) <= i and i < len(t) \
                and -len(t) <= i + 1 and i + 1 < len(t)";
    assert!(pcs.iter().any(|c| c == full), "{pcs:?}");
    let branches: Vec<&str> = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["branch"].as_str())
        .collect();
    assert!(
        branches.contains(&"0 < i and i < len(t) - 1"),
        "{branches:?}"
    );
}

/// Negative and constant indices, a guard that implies a later read's bounds, and bounds
/// the path does not imply: only what is implied goes.
#[test]
fn tree_labels_keep_what_the_path_does_not_imply() {
    let dir = std::env::temp_dir().join(format!("symdbg-readable-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("reads.py");
    let src =
        "t: tuple\ni: int\nif 0 <= i and i + 1 < len(t):\n    x = t[i] + t[i + 1] + t[-1]\n    \
               if t[i] > t[0]:\n        x = 0\nelse:\n    y = t[i]\n";
    std::fs::write(&path, src).unwrap();
    let tree = tree_of(&path, &[]);
    // Inside the guard every read is in range: no bounds on the branch of `t[i] > t[0]`.
    assert!(tree.contains("├── t[i] > t[0]\n"), "{tree}");
    assert!(tree.contains("└── t[i] <= t[0]\n"), "{tree}");
    // Outside the guard, t[i]'s bounds are news (both halves: i may be negative there).
    assert!(tree.contains("-len(t) <= i < len(t)"), "{tree}");
    let _ = std::fs::remove_dir_all(&dir);
}
