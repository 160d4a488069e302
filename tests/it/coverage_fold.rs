//! Issue 29 under `--fold auto`: the lines of a folded loop's (or recursion's) body are
//! `reached` when some input runs the folded path at least once before an exit, and
//! `unreachable` only when no input does, for every κ. Checked against python3 on
//! generated programs (every reached line runs on a leaf's model or a fold's witness,
//! no unreachable line runs on random or bounded-exhaustive inputs), against the unfolded
//! tree on the examples, and line by line on small programs (text, JSON, lcov).

use serde_json::Value as Json;

use crate::coverage::campaign_in;
use crate::gen;
use crate::util::symdbg;

#[test]
fn generated_programs_folded_coverage_agrees_with_python3() {
    let (_, tally) = campaign_in(gen::Options::default(), 0xc0_0229, 40, true);
    // The campaign says something: folds whose paths run, lines of several kinds.
    assert!(
        tally.get("fold witnesses").copied().unwrap_or(0) > 5,
        "{tally:?}"
    );
    assert!(
        tally.get("reached").copied().unwrap_or(0) > 100,
        "{tally:?}"
    );
    assert!(
        tally.get("unreachable").copied().unwrap_or(0) > 0,
        "{tally:?}"
    );
}

#[test]
fn generated_for_loops_folded_coverage_agrees_with_python3() {
    let options = gen::Options {
        assume: false,
        for_loops: true,
    };
    let (_, tally) = campaign_in(options, 0xc0_0329, 30, true);
    assert!(
        tally.get("fold witnesses").copied().unwrap_or(0) > 5,
        "{tally:?}"
    );
    assert!(tally.get("reached").copied().unwrap_or(0) > 50, "{tally:?}");
}

/// The per-line coverage `run --json` reports for a program.
fn json_coverage(path: &str, extra: &[&str]) -> Vec<(usize, String)> {
    let mut args = vec!["run", path, "--json", "-q"];
    args.extend_from_slice(extra);
    let (code, out, err) = symdbg(&args);
    assert!(code == 0 || code == 1, "{path} {extra:?}: {err}");
    let v: Json = serde_json::from_str(&out).unwrap();
    v["coverage"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(l, c)| (l.parse().unwrap(), c.as_str().unwrap().to_string()))
        .collect()
}

/// The examples: folding changes no line from reached to unreachable or back (both trees
/// describe the same runs), and a line the unfolded tree reaches is not left `unexplored`
/// when the folded tree is complete.
#[test]
fn examples_folded_coverage_agrees_with_unfolded() {
    let mut compared = 0;
    for ex in crate::util::examples() {
        let off = json_coverage(&ex, &[]);
        let on = json_coverage(&ex, &["--fold", "auto"]);
        assert_eq!(
            off.iter().map(|p| p.0).collect::<Vec<_>>(),
            on.iter().map(|p| p.0).collect::<Vec<_>>(),
            "{ex}: the counted lines"
        );
        for ((line, a), (_, b)) in off.iter().zip(&on) {
            let reached = |s: &str| s == "reached" || s == "exception-only";
            assert!(
                !(reached(a) && b == "unreachable" || a == "unreachable" && reached(b)),
                "{ex}:{line}: unfolded {a}, folded {b}"
            );
            compared += 1;
        }
        if on.iter().all(|(_, c)| c != "unexplored") {
            for ((line, a), (_, b)) in off.iter().zip(&on) {
                assert_eq!(a == "unreachable", b == "unreachable", "{ex}:{line}");
            }
        }
    }
    assert!(compared > 50, "{compared} lines");
}

/// A folded `while` with a dead branch, a folded loop whose two paths both run (a two-path
/// fold) and a folded recursion: each body line's status, in text, JSON and lcov.
const LOOP: &str = "n: int
i = 0
s = 0
while i < n:
    s = s + 2
    if i < 0:
        s = 99
    i = i + 1
print(s)
";

const TWO_PATHS: &str = "t: tuple
i = 0
c = 0
while i < len(t):
    if t[i] > 0:
        c = c + 1
    i = i + 1
assert c < 3
";

const RECURSION: &str = "def f(n: int) -> int:
    if n <= 0:
        return 0
    return 1 + f(n - 1)

x: int
y = f(x)
if y > 5:
    print(y)
";

fn write(name: &str, src: &str) -> String {
    let dir = std::env::temp_dir().join(format!("symdbg-covfold-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, src).unwrap();
    p.to_str().unwrap().to_string()
}

fn statuses(path: &str) -> Vec<(usize, String)> {
    json_coverage(path, &["--fold", "auto"])
}

#[test]
fn folded_loop_body_is_reached_and_its_dead_branch_unreachable() {
    let p = write("loop.py", LOOP);
    let want: Vec<(usize, String)> = [
        (2, "reached"),
        (3, "reached"),
        (4, "reached"),
        (5, "reached"),
        (6, "reached"),
        (7, "unreachable"),
        (8, "reached"),
        (9, "reached"),
    ]
    .iter()
    .map(|(l, s)| (*l, s.to_string()))
    .collect();
    assert_eq!(statuses(&p), want);
    // Text: the branch directions, both ways.
    let (code, out, err) = symdbg(&["run", &p, "--fold", "auto", "--coverage"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("4  while  enter: reached, leave: reached"),
        "{out}"
    );
    assert!(
        out.contains("6  if     then: unreachable, else: reached"),
        "{out}"
    );
    // lcov: the body's lines are hit, the dead one is not; the while's enter is taken.
    let lcov = std::path::Path::new(&p).with_extension("info");
    let _ = std::fs::remove_file(&lcov);
    let (code, _, err) = symdbg(&[
        "run",
        &p,
        "--fold",
        "auto",
        "--lcov",
        lcov.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&lcov).unwrap();
    for l in [5, 6, 8, 9] {
        assert!(text.contains(&format!("DA:{l},1\n")), "line {l}:\n{text}");
    }
    assert!(text.contains("DA:7,0\n"), "{text}");
    assert!(text.contains("BRDA:4,0,0,1\n"), "{text}");
}

#[test]
fn folded_two_path_loop_reaches_both_branches() {
    let p = write("two.py", TWO_PATHS);
    for (line, s) in statuses(&p) {
        assert_eq!(s, "reached", "line {line}");
    }
    let (_, out, _) = symdbg(&["run", &p, "--fold", "auto", "--coverage"]);
    assert!(
        out.contains("5  if     then: reached, else: reached"),
        "{out}"
    );
    assert!(
        out.contains("4  while  enter: reached, leave: reached"),
        "{out}"
    );
}

#[test]
fn folded_recursion_body_is_reached() {
    let p = write("rec.py", RECURSION);
    for (line, s) in statuses(&p) {
        assert_eq!(s, "reached", "line {line}");
    }
    let (_, out, _) = symdbg(&["run", &p, "--fold", "auto", "--coverage"]);
    assert!(
        out.contains("2  if     then: reached, else: reached"),
        "{out}"
    );
}

/// `run --lcov` read back by lcov itself (Debian's `lcov --summary` and `genhtml`, which
/// `scripts/setup` installs): the line and branch counts it reads are the JSON's, with
/// and without folding.
#[test]
fn lcov_files_are_read_back_by_lcov_and_genhtml() {
    assert!(
        std::process::Command::new("genhtml")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success()),
        "lcov's genhtml is not installed: run scripts/setup (apt-get install lcov)"
    );
    for (name, src) in [
        ("loop.py", LOOP),
        ("two.py", TWO_PATHS),
        ("rec.py", RECURSION),
    ] {
        let p = write(name, src);
        for fold in ["off", "auto"] {
            let info = std::path::Path::new(&p).with_extension(format!("{fold}.info"));
            let _ = std::fs::remove_file(&info);
            let (code, _, err) = symdbg(&[
                "run",
                &p,
                "--fold",
                fold,
                "--unroll",
                "3",
                "--lcov",
                info.to_str().unwrap(),
            ]);
            assert_eq!(code, 0, "{err}");
            let cov = json_coverage(&p, &["--fold", fold, "--unroll", "3"]);
            // lcov has a DA for every line but the unexplored ones; hit = reached.
            let found = cov.iter().filter(|(_, c)| c != "unexplored").count();
            let hit = cov
                .iter()
                .filter(|(_, c)| c == "reached" || c == "exception-only")
                .count();
            let out = std::process::Command::new("lcov")
                .args([
                    "--summary",
                    info.to_str().unwrap(),
                    "--rc",
                    "lcov_branch_coverage=1",
                ])
                .output()
                .expect("lcov");
            let text = String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{name} --fold {fold}: {text}");
            assert!(
                text.contains(&format!("({hit} of {found} lines)")),
                "{name} --fold {fold}: {hit} of {found} lines:\n{text}"
            );
            assert!(text.contains("branches...:"), "{text}");
            let html = std::path::Path::new(&p).with_extension(format!("{fold}-html"));
            let _ = std::fs::remove_dir_all(&html);
            let out = std::process::Command::new("genhtml")
                .args([info.to_str().unwrap(), "-q", "--branch-coverage", "-o"])
                .arg(&html)
                .output()
                .expect("genhtml");
            assert!(
                out.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(html.join("index.html").is_file());
        }
    }
}
