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

/// A `--recursion` cut whose input recurses past Python's limit: the summary names it and
/// its input, and python3 agrees that input raises RecursionError. A recursion that ends
/// gets the plain "try a larger bound".
#[test]
fn a_recursion_cut_that_raises_recursion_error_in_python_is_named_with_its_input() {
    let src = "def f(k: int) -> int:\n    if k == 0:\n        return 0\n    return 1 + f(k - 1)\n\nn: int\nr = f(n)\n";
    let f = write("endless.py", src);
    let (code, out, _) = symdbg(&["run", &f, "--recursion", "4"]);
    assert_eq!(code, 0, "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("bounds: "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.starts_with(
            "bounds: 1 path cut by --recursion 4 raises RecursionError when run (n = "
        ),
        "{line}"
    );
    let n: i64 = line
        .rsplit_once("(n = ")
        .and_then(|(_, r)| r.strip_suffix(')'))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    // The oracle: CPython with its default recursion limit.
    let py = std::process::Command::new("python3")
        .arg("-c")
        .arg(format!(
            "{}\ntry:\n    f({n})\n    print('ended')\nexcept RecursionError:\n    print('RecursionError')\n",
            src.replace("n: int\nr = f(n)\n", "")
        ))
        .output();
    if let Ok(py) = py {
        let said = String::from_utf8_lossy(&py.stdout);
        assert_eq!(said.trim(), "RecursionError", "python3 on n = {n}");
    }
    // The other output modes say it on standard error.
    let (_, _, err) = symdbg(&["run", &f, "--recursion", "4", "--counterexamples"]);
    assert!(err.contains("raises RecursionError when run"), "{err}");
    // The same shape that always ends: counted, not flagged.
    let g = write("ends.py", &src.replace("k == 0", "k <= 0"));
    let (_, out, _) = symdbg(&["run", &g, "--recursion", "4"]);
    assert!(
        out.contains("bounds: 1 path cut by --recursion 4: try a larger bound"),
        "{out}"
    );
    assert!(!out.contains("RecursionError"), "{out}");
}
