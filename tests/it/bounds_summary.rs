//! Issue 16 item 8: `run`'s summary names the bounds that cut paths, since a bug may hide
//! past them; a larger bound then finds it.

use super::util::symdbg;

fn write(name: &str, src: &str) -> String {
    let dir = std::env::temp_dir().join(format!("symdbg-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, src).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_bug_past_the_unroll_bound_is_flagged_and_a_larger_bound_finds_it() {
    let f = write(
        "loop.py",
        "n: int\ni = 0\nwhile i < n:\n    i = i + 1\n    assert i != 6\n",
    );
    let (code, out, _) = symdbg(&["run", &f, "--unroll", "3"]);
    assert_eq!(code, 0);
    assert!(!out.contains("AssertionError"), "{out}");
    assert!(
        out.contains("bounds: 1 path cut by --unroll 3: try a larger bound"),
        "{out}"
    );
    let (_, out, _) = symdbg(&["run", &f, "--unroll", "8"]);
    assert!(out.contains("AssertionError"), "{out}");
    // Other output modes say it on standard error.
    let (_, _, err) = symdbg(&["run", &f, "--unroll", "3", "--json"]);
    assert!(err.contains("1 path cut by --unroll 3"), "{err}");
}

#[test]
fn recursion_cuts_are_named_apart_from_unroll_cuts() {
    let f = write(
        "rec.py",
        "def f(k: int) -> int:\n    if k <= 0:\n        return 0\n    return 1 + f(k - 1)\n\nn: int\nm: int\nr = f(n)\nj = 0\nwhile j < m:\n    j = j + 1\n",
    );
    let (_, out, _) = symdbg(&["run", &f, "--unroll", "2", "--recursion", "3"]);
    let line = out
        .lines()
        .find(|l| l.starts_with("bounds: "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains("cut by --unroll 2"), "{line}");
    assert!(line.contains("cut by --recursion 3"), "{line}");
    // A program without loops or recursion has no such line.
    let g = write("flat.py", "x: int\nif x > 0:\n    x = 1\n");
    let (_, out, _) = symdbg(&["run", &g]);
    assert!(!out.contains("bounds:"), "{out}");
}
