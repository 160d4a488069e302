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
