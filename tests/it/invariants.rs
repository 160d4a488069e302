//! Invariant-annotated loops (chapter 002's loop-scope transformation): programs that
//! verify (no exception and no unknown leaf, every path ends normally or in `halt`) and a
//! one-token mutant of each that shows the expected red leaf.

use symdbg::base::ExcClass;
use symdbg::engine::{Config, Engine, Limits, LoopMode, Outcome};
use symdbg::transform;

fn leaves(src: &str, loops: LoopMode) -> Vec<Outcome> {
    let (program, types, ir) = transform::load(src).unwrap_or_else(|d| panic!("{d:?}\n{src}"));
    let mut config = Config::default();
    config.loops = loops;
    config.timeout_ms = Some(60_000); // generous: these checks take milliseconds, on a loaded machine more
    let mut e = Engine::new(&program, types, ir, None, config).unwrap();
    let root = e.tree().root();
    e.run(root, Limits::default());
    e.tree().nodes().filter_map(|n| n.outcome()).collect()
}

fn verifies(src: &str) {
    let out = leaves(src, LoopMode::Invariant);
    assert!(
        out.iter()
            .all(|o| matches!(o, Outcome::Normal | Outcome::Halt | Outcome::Infeasible)),
        "does not verify: {out:?}\n{src}"
    );
    assert!(
        out.contains(&Outcome::Halt),
        "no loop-scope check reached: {out:?}"
    );
}

fn fails_with(src: &str, class: ExcClass) {
    let out = leaves(src, LoopMode::Invariant);
    assert!(
        out.contains(&Outcome::Exception(class)),
        "expected a {class} leaf: {out:?}\n{src}"
    );
}

/// (verifying program, mutant, the mutant's exception)
const PAIRS: &[(&str, &str, ExcClass)] = &[
    (
        "n: int\nassume n >= 0\ni = 0\nwhile i < n:\n    invariant 0 <= i <= n\n    i += 1\nassert i == n\n",
        "n: int\nassume n >= 0\ni = 0\nwhile i < n:\n    invariant 0 <= i <= n\n    i += 2\nassert i == n\n",
        ExcClass::AssertionError,
    ),
    (
        "n: int\nassume n >= 0\nx = 0\ny = 0\nwhile x < n:\n    invariant 0 <= x <= n and y == 2 * x\n    x += 1\n    y += 2\nassert y == 2 * n\n",
        "n: int\nassume n >= 0\nx = 0\ny = 0\nwhile x < n:\n    invariant 0 <= x <= n and y == 2 * x\n    x += 1\n    y += 3\nassert y == 2 * n\n",
        ExcClass::AssertionError,
    ),
    (
        "k: int\nassume k >= 0\nwhile k > 0:\n    invariant k >= 0\n    k -= 1\nassert k == 0\n",
        "k: int\nassume k >= 0\nwhile k > 0:\n    invariant k >= 0\n    k -= 2\nassert k == 0\n",
        ExcClass::AssertionError,
    ),
    (
        "t: tuple\ni = 0\nwhile i < len(t):\n    invariant 0 <= i <= len(t)\n    v = t[i]\n    i += 1\n",
        "t: tuple\ni = 0\nwhile i <= len(t):\n    invariant 0 <= i <= len(t) + 1\n    v = t[i]\n    i += 1\n",
        ExcClass::IndexError,
    ),
    (
        "t: tuple\ns = 0\ni = 0\nwhile i < len(t):\n    invariant 0 <= i <= len(t) and s >= 0\n    s += abs(t[i])\n    i += 1\nassert s >= 0\n",
        "t: tuple\ns = 0\ni = 0\nwhile i < len(t):\n    invariant 0 <= i <= len(t) and s >= 0\n    s -= abs(t[i])\n    i += 1\nassert s >= 0\n",
        ExcClass::AssertionError,
    ),
    (
        "n: int\nd: int\nassume n >= 0 and d > 0\nq = 0\nr = n\nwhile r >= d:\n    invariant r >= 0 and d > 0\n    r -= d\n    q += 1\nassert r < d\n",
        "n: int\nd: int\nassume n >= 0 and d >= 0\nq = 0\nr = n\nwhile r >= d:\n    invariant r >= 0 and d >= 0\n    q += r // d\n    r -= d\nassert r < d\n",
        ExcClass::ZeroDivisionError,
    ),
    (
        "def count(n: int) -> int:\n    c = 0\n    while c < n:\n        invariant c <= n or n < 0\n        c += 1\n    return c\n\nm: int\nassume m >= 0\nr = count(m)\nassert r == m\n",
        "def count(n: int) -> int:\n    c = 0\n    while c < n:\n        invariant c <= n or n < 0\n        c += 1\n    return c + 1\n\nm: int\nassume m >= 0\nr = count(m)\nassert r == m\n",
        ExcClass::AssertionError,
    ),
    (
        "x: int\nassume x >= 0\ny = x\nwhile y > 10:\n    invariant 0 <= y <= x\n    y = y - 10\nassert 0 <= y <= 10\n",
        "x: int\nassume x >= 0\ny = x\nwhile y > 10:\n    invariant 0 <= y <= x\n    y = y - 12\nassert 0 <= y <= 10\n",
        ExcClass::AssertionError,
    ),
];

#[test]
fn annotated_loops_verify_and_their_mutants_fail() {
    for (good, bad, class) in PAIRS {
        verifies(good);
        fails_with(bad, *class);
    }
}

/// `--loops unroll` ignores the invariant: the same program is explored by unrolling and
/// ends in `bound` leaves instead of `halt`.
#[test]
fn unroll_mode_unrolls_annotated_loops() {
    let out = leaves(PAIRS[0].0, LoopMode::Unroll);
    assert!(out.contains(&Outcome::Bound), "{out:?}");
    assert!(!out.contains(&Outcome::Halt), "{out:?}");
}

/// The book's `find` with the quantified invariant verifies (examples/find_invariant.py),
/// and the book's buggy `i = i + i` shows the AssertionError leaf.
#[test]
fn book_find_with_loop_scope() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/find_invariant.py"
    ))
    .unwrap();
    let out = leaves(&src, LoopMode::Invariant);
    assert!(
        !out.iter().any(|o| matches!(o, Outcome::Exception(_))),
        "{out:?}"
    );
    let buggy = src.replacen("        i = i + 1\n", "        i = i + i\n", 1);
    assert_ne!(buggy, src, "the example changed: update the mutant");
    let out = leaves(&buggy, LoopMode::Invariant);
    assert!(
        out.contains(&Outcome::Exception(ExcClass::AssertionError)),
        "{out:?}"
    );
}

fn example(name: &str) -> String {
    std::fs::read_to_string(format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The book's hard cases. Product (`result % elem`, nonlinear) verifies because the term
/// builder knows `(r * e) % e == 0`, which Z3's nonlinear arithmetic cannot show;
/// filter_nonnegative (nested quantifiers) verifies; the book's mutants give red leaves.
#[test]
fn book_product_and_filter_nonnegative() {
    for (name, from, to) in [
        (
            "product.py",
            "result = result * elem",
            "result = result + elem",
        ),
        (
            "filter_nonnegative.py",
            "result = result + (t[i],)",
            "result = result + (t[i] + 1,)",
        ),
    ] {
        let src = example(name);
        verifies(&src);
        let mutant = src.replacen(from, to, 1);
        assert_ne!(mutant, src, "{name} changed: update the mutant");
        fails_with(&mutant, ExcClass::AssertionError);
    }
}

/// Where Z3 cannot decide, the tree says which check was undecided: an `unknown` leaf with
/// a label, never a red leaf.
#[test]
fn undecided_invariant_checks_are_labelled_unknown_leaves() {
    let src = "\
x: int
y: int
z: int
assume x > 0 and y > 0 and z > 0
n = 0
while n < 3:
    invariant x * x * x + y * y * y != z * z * z
    n += 1
";
    let (program, types, ir) = transform::load(src).unwrap();
    let mut config = Config::default();
    config.timeout_ms = Some(300);
    let mut e = Engine::new(&program, types, ir, None, config).unwrap();
    let root = e.tree().root();
    e.run(root, Limits::default());
    let unknown: Vec<_> = e
        .tree()
        .nodes()
        .filter(|n| n.outcome() == Some(Outcome::Unknown))
        .collect();
    assert!(!unknown.is_empty());
    assert!(unknown
        .iter()
        .any(|n| n.label() == Some(symdbg::engine::label::UNDECIDED_INITIALLY)));
    assert!(!e
        .tree()
        .nodes()
        .any(|n| matches!(n.outcome(), Some(Outcome::Exception(_)))));
}
