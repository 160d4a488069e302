//! Issue 23 ("everyday trust"), the command line: misspelt commands, modules without
//! module-level code, `check`'s exit code and minimal counterexamples, `exec`'s traceback,
//! `run`'s progress line, loops with a constant guard, natural order, DOT leaves.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::util::symdbg;

/// A program in a temporary file (removed by the caller).
fn program(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("symdbg-everyday-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write the program");
    path
}

fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Item 11: `symdbg runn gcd.py` names the unknown command and the one meant (it said
/// "the subcommand 'gcd.py' cannot be used with '[FILE]'").
#[test]
fn a_misspelt_command_is_named_with_the_one_meant() {
    let (code, out, err) = symdbg(&["runn", "examples/inversion.py"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("unknown command `runn`; did you mean `run`?"),
        "{err}"
    );
    let (code, _, err) = symdbg(&["chekc", "examples/inversion.py", "--runs", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `check`?"), "{err}");
    // A file name that does not exist is still a file the user meant.
    let (code, _, err) = symdbg(&["no_such_program.py"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
    assert!(!err.contains("unknown command"), "{err}");
}

/// Item 12: a module that only defines functions runs no code; `run` says so and names
/// the `--entry` to give (it said only "no exception leaf (1 node explored)").
#[test]
fn a_module_of_definitions_suggests_entry() {
    let p = program(
        "gcd.py",
        "def gcd(a: int, b: int) -> int:\n    while b != 0:\n        t = b\n        b = a % b\n        a = t\n    return a\n\n\
         def lcm(a: int, b: int) -> int:\n    return a * b // gcd(a, b)\n",
    );
    for args in [
        vec!["run", s(&p), "--counterexamples"],
        vec!["run", s(&p)],
        vec!["check", s(&p), "--runs", "3"],
    ] {
        let (code, _, err) = symdbg(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            err.contains("no code runs at module level"),
            "{args:?}: {err}"
        );
        assert!(err.contains("--entry gcd"), "{args:?}: {err}");
        assert!(err.contains("`lcm`"), "{args:?}: {err}");
    }
    // With --entry, or with code at module level, no such note.
    let (_, _, err) = symdbg(&["run", s(&p), "--entry", "lcm"]);
    assert!(!err.contains("no code runs"), "{err}");
    let (_, _, err) = symdbg(&["run", "examples/inversion.py"]);
    assert!(!err.contains("no code runs"), "{err}");
    let _ = std::fs::remove_file(&p);
}

/// Item 13: `check` exits 1 when a check says no (0 passes, 2 errors), and `--runs 0`
/// claims nothing about exhaustiveness (it said "exhaustive: probably").
#[test]
fn check_exits_1_when_a_check_fails_and_runs_0_tests_nothing() {
    let (code, out, _) = symdbg(&["check", "examples/while_program.py", "--unroll", "2"]);
    assert!(out.contains("exhaustive: no"), "{out}");
    assert_eq!(code, 1, "{out}");
    let (code, out, _) = symdbg(&["check", "examples/if_program.py"]);
    assert!(out.contains("exhaustive: probably"), "{out}");
    assert_eq!(code, 0, "{out}");
    assert_eq!(symdbg(&["check", "no_such_program.py"]).0, 2);
    let (code, out, _) = symdbg(&["check", "examples/while_program.py", "--runs", "0"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("exhaustive: not tested"), "{out}");
    assert!(!out.contains("exhaustive: probably"), "{out}");
    let (_, out, _) = symdbg(&[
        "check",
        "examples/while_program.py",
        "--runs",
        "0",
        "--json",
    ]);
    let j: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(j["exhaustive"]["ok"], Value::Null, "{j}");
}

/// Issue 22 (huge models): when the program's `assume` rejects every random input, no
/// input reached a leaf, so exhaustiveness was not tested (it said "exhaustive: probably"),
/// in text and JSON, on one thread and with `--jobs 2` on a tree large enough for the
/// workers; inputs that an `assume` rejects are counted where some pass.
#[test]
fn check_does_not_claim_exhaustiveness_when_the_assume_rejects_every_input() {
    let p = program(
        "rejects_all.py",
        "x: int\ny: int\nt: tuple\nassume len(t) > 4294967296\ni = 0\nwhile i < x:\n    \
         if y > i:\n        y -= 1\n    i += 1\nz = t[0]\n",
    );
    for jobs in ["1", "2"] {
        let (code, out, err) = symdbg(&["check", s(&p), "--unroll", "8", "--jobs", jobs]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(
            out.contains(
                "exhaustive: not tested (no random input reached a leaf to compare with: the \
                 program's `assume` rejected all 100 random inputs)"
            ),
            "--jobs {jobs}: {out}"
        );
        assert!(!out.contains("exhaustive: probably"), "{out}");
        let (_, out, _) = symdbg(&[
            "check",
            s(&p),
            "--unroll",
            "8",
            "--jobs",
            jobs,
            "--json",
            "--runs",
            "30",
        ]);
        let j: Value = serde_json::from_str(&out).expect("JSON");
        assert_eq!(j["exhaustive"]["ok"], Value::Null, "{j}");
        assert_eq!(
            (j["compared"].as_u64(), j["skipped"]["rejected"].as_u64()),
            (Some(0), Some(30)),
            "{j}"
        );
    }
    // Some inputs get past the assume: those are the evidence, and the rest are counted.
    let p2 = program("rejects_some.py", "x: int\nassume x > 5\nassert x != 7\n");
    let (_, out, _) = symdbg(&["check", s(&p2), "--json"]);
    let j: Value = serde_json::from_str(&out).expect("JSON");
    let (compared, rejected) = (
        j["compared"].as_u64().unwrap(),
        j["skipped"]["rejected"].as_u64().unwrap(),
    );
    assert!(
        compared > 0 && rejected > 0 && compared + rejected == 100,
        "{j}"
    );
    let (_, out, _) = symdbg(&["check", s(&p2)]);
    assert!(
        out.contains(&format!(
            "exhaustive: probably ({compared} of 100 random inputs, each ended as its leaf \
             predicts; {rejected} rejected by an `assume`)"
        )),
        "{out}"
    );
    let _ = std::fs::remove_file(&p);
    let _ = std::fs::remove_file(&p2);
}

/// Item 19: `check`'s counterexample to exhaustiveness is the minimal model of the leaf the
/// random input reached, as `run` gives it (it was the random `idx = 201, x = 185`), and
/// `--jobs 2` prints the same.
#[test]
fn check_counterexamples_are_minimal() {
    let args = [
        "check",
        "examples/while_program.py",
        "--unroll",
        "2",
        "--json",
    ];
    let (code, out, err) = symdbg(&args);
    assert_eq!(code, 1, "{err}");
    let j: Value = serde_json::from_str(&out).expect("JSON");
    let cx = &j["exhaustive"]["counterexample"];
    assert_eq!(cx["symbolic"]["outcome"], "bound", "{j}");
    let leaf = cx["leaf"].as_u64().expect("a leaf");
    // `run`'s model of that leaf.
    let (_, tree, _) = symdbg(&[
        "run",
        "examples/while_program.py",
        "--unroll",
        "2",
        "--json",
    ]);
    let tree: Value = serde_json::from_str(&tree).expect("JSON");
    let node = tree["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"].as_u64() == Some(leaf))
        .expect("the leaf");
    assert_eq!(cx["inputs"], node["model"], "{j}");
    for v in cx["inputs"].as_object().unwrap().values() {
        assert!(v.as_i64().unwrap().abs() <= 2, "not minimal: {j}");
    }
    // The concrete run is that of the minimal input.
    let (_, ran, _) = symdbg(&[
        "exec",
        "examples/while_program.py",
        "--json",
        "--input",
        &format!("x={}", cx["inputs"]["x"]),
        "--input",
        &format!("idx={}", cx["inputs"]["idx"]),
    ]);
    let ran: Value = serde_json::from_str(&ran).expect("JSON");
    assert_eq!(cx["concrete"]["store"], ran["store"], "{j}");
    let mut jobs = args.to_vec();
    jobs.extend(["--jobs", "2"]);
    assert_eq!(symdbg(&jobs), (code, out, err));
}

/// The `File "…", line N, in F` lines and `[Previous line repeated N more times]` of a
/// traceback (CPython's or ours).
fn frames(traceback: &str) -> Vec<String> {
    traceback
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("File \"") || l.starts_with("[Previous line"))
        .map(str::to_string)
        .collect()
}

/// Item 14: `exec` of an exception prints the traceback as CPython does (the same frames,
/// lines and functions, repeated lines summarised), then the raising frame's locals.
#[test]
fn exec_prints_the_traceback_cpython_prints() {
    let cases = [
        (
            "nested.py",
            "def g(n: int) -> int:\n    return 10 // (n - 3)\n\n\
             def f(n: int) -> int:\n    k = n * 2\n    return g(n) + k\n\n\
             try:\n    y = f(0)\n    z = f(3)\nexcept ValueError:\n    pass\n",
            "locals of g: n = 3",
        ),
        (
            "caught_then_raised.py",
            "def g(n: int) -> int:\n    return (1, 2)[n]\n\n\
             try:\n    a = g(5)\nexcept IndexError:\n    a = 0\nb = 7 // a\n",
            "",
        ),
        (
            "deep.py",
            "def f(n: int) -> int:\n    if n == 0:\n        return 1 // n\n    return f(n - 1)\n\n\
             r = f(-1)\n",
            "locals of f: n = -",
        ),
    ];
    for (name, text, locals) in cases {
        let p = program(name, text);
        let out = Command::new("python3").arg(&p).output().expect("python3");
        let python = String::from_utf8_lossy(&out.stderr).into_owned();
        let (code, ours, err) = symdbg(&["exec", s(&p)]);
        assert_eq!(code, 0, "{err}");
        assert!(
            ours.contains("Traceback (most recent call last):"),
            "{ours}"
        );
        assert_eq!(frames(&ours), frames(&python), "{name}:\n{ours}\n{python}");
        assert!(!frames(&ours).is_empty());
        assert!(ours.contains(locals), "{name}: {ours}");
        let _ = std::fs::remove_file(&p);
    }
}

/// Item 14 with `--entry`: the entry function is the outermost frame (its caller is
/// outside the program), as in CPython's `module.f(args)` minus the caller's frame.
#[test]
fn exec_entry_traceback_starts_at_the_entry_function() {
    let p = program(
        "entry_tb.py",
        "def g(t: tuple, i: int) -> int:\n    return t[i]\n\n\
         def f(t: tuple) -> int:\n    return g(t, len(t))\n",
    );
    let (code, out, err) = symdbg(&["exec", s(&p), "--entry", "f", "--input", "t=(1, 2)"]);
    assert_eq!(code, 0, "{err}");
    let file = p.display();
    assert_eq!(
        frames(&out),
        [
            format!("File \"{file}\", line 5, in f"),
            format!("File \"{file}\", line 2, in g")
        ],
        "{out}"
    );
    assert!(out.contains("locals of g: i = 2, t = (1, 2)"), "{out}");
    let (_, json, _) = symdbg(&[
        "exec",
        s(&p),
        "--entry",
        "f",
        "--input",
        "t=(1, 2)",
        "--json",
    ]);
    let j: Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(
        j["traceback"],
        serde_json::json!([{"function": "f", "line": 5}, {"function": "g", "line": 2}])
    );
    let _ = std::fs::remove_file(&p);
}

/// All a program wrote to a pseudo-terminal until it exited (bounded by a generous hang
/// guard), and its exit code.
fn in_a_terminal(args: &[&str], env: &[(&str, Option<&str>)]) -> (String, u32) {
    let (master, mut child) = super::tui_e2e::launch(args, env, 40, 200);
    let mut reader = master.try_clone_reader().expect("pty reader");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut all = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&buf[..n]);
        }
        let _ = tx.send(all);
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "no exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(master);
    let bytes = rx.recv_timeout(Duration::from_secs(30)).unwrap_or_default();
    (
        String::from_utf8_lossy(&bytes).into_owned(),
        status.exit_code(),
    )
}

/// Item 15: on a terminal, `run` draws a progress line on stderr (nodes, leaves, solver
/// checks, seconds) and erases it before the results, so the screen shows the tree as
/// without it; not with `--quiet`, not when stderr is not a terminal.
#[test]
fn run_shows_progress_on_a_terminal_only() {
    // Every step is due (delay 0), so even a small tree draws the line.
    let env = [("SYMDBG_PROGRESS_MS", Some("0"))];
    let args = ["run", "examples/find.py"];
    let (raw, code) = in_a_terminal(&args, &env);
    assert_eq!(code, 0, "{raw}");
    assert!(raw.contains("exploring: "), "{raw:?}");
    assert!(
        raw.contains(" leaves, ") && raw.contains(" solver checks, "),
        "{raw:?}"
    );
    // Every step draws the line, so it shows the tree with one leaf: "1 leaf", in the
    // singular.
    assert!(raw.contains(" 1 leaf, "), "{raw:?}");
    assert!(
        !raw.contains(" 1 leaves") && !raw.contains(" 1 nodes"),
        "{raw:?}"
    );
    // What the terminal shows at the end: the tree, as `run` prints it to a pipe.
    let mut screen = vt100::Parser::new(
        std::num::NonZeroU16::new(200).unwrap(),
        std::num::NonZeroU16::new(200).unwrap(),
        0,
    );
    screen.process(raw.as_bytes());
    let shown = screen.screen().contents();
    let (_, piped, piped_err) = symdbg(&args);
    assert!(!shown.contains("exploring:"), "{shown}");
    let lines = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l.trim_end().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    };
    let (shown, expected) = (lines(&shown), lines(&format!("{piped}{piped_err}")));
    assert_eq!(shown, expected);
    // Not with --quiet; not to a pipe.
    let (raw, _) = in_a_terminal(&["run", "examples/find.py", "--quiet"], &env);
    assert!(!raw.contains("exploring:"), "{raw:?}");
    let out = Command::new(env!("CARGO_BIN_EXE_symdbg"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("SYMDBG_PROGRESS_MS", "0")
        .output()
        .expect("run");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("exploring:"));
}

/// Item 16: the book's first example, `find` over the concrete tuple `(1, 2, 3, 4)`: its
/// loop guard is decided without the solver, so its iterations do not count against
/// `--unroll` (it needed `--unroll 4`): five leaves, no `bound` leaf, at any `--unroll`.
#[test]
fn concrete_loop_iterations_do_not_count_against_unroll() {
    let p = program(
        "book_find.py",
        "def find(needle: int, haystack: tuple) -> int:\n    i = 0\n    while i < len(haystack):\n        \
         if haystack[i] == needle:\n            break\n\n        i = i + 1\n    else:\n        return -1\n\n    \
         return i\n\nx: int\nt = (1, 2, 3, 4, )\nr = find(x, t)\n",
    );
    for unroll in ["1", "3"] {
        let (code, out, err) = symdbg(&["run", s(&p), "--unroll", unroll]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("5 leaves (0 exceptions, 0 bound), 0 open"),
            "--unroll {unroll}: {out}"
        );
        for r in ["-1", "0", "1", "2", "3"] {
            assert!(
                out.contains(&format!("normal  r = {r}, ")),
                "r = {r}: {out}"
            );
        }
    }
    let _ = std::fs::remove_file(&p);
}

/// Item 16: `while True:` (a constant guard) ends in a `bound` leaf at the limit of such
/// iterations, with a summary that says why, instead of running to `--max-nodes`.
#[test]
fn a_constant_loop_ends_in_a_bound_leaf() {
    let p = program("forever.py", "x: int\nk = 0\nwhile k >= 0:\n    k += 1\n");
    let (code, out, err) = symdbg(&["run", s(&p), "--counterexamples"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("1 path cut after 10,000 iterations of a loop whose condition is a constant"),
        "{err}"
    );
    let _ = std::fs::remove_file(&p);
    // A literal `while True:` ends by a `break`, usually on a symbolic condition: its
    // iterations count against `--unroll` (else every such loop over inputs would run
    // 10,000 iterations deep), and a `while True:` without a break is cut there too.
    let p = program(
        "while_true.py",
        "t: tuple\nidx = 0\nwhile True:\n    if idx >= len(t):\n        break\n    idx += 1\n",
    );
    let (code, out, err) = symdbg(&["run", s(&p), "--unroll", "3"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 bound"), "{out}");
    assert!(
        format!("{out}{err}").contains("1 path cut by --unroll 3"),
        "{out}{err}"
    );
    let p2 = program("forever_true.py", "x: int\nwhile True:\n    x += 1\n");
    let (_, out, err) = symdbg(&["run", s(&p2)]);
    assert!(out.contains("1 bound"), "{out}");
    assert!(format!("{out}{err}").contains("--unroll 3"), "{out}{err}");
    let _ = std::fs::remove_file(&p);
    let _ = std::fs::remove_file(&p2);
}

/// The summary line of `run`: nodes, leaves and bound leaves.
fn run_summary(p: &Path, unroll: &str) -> (usize, usize, usize, String) {
    let start = Instant::now();
    let (code, out, err) = symdbg(&["run", s(p), "--unroll", unroll]);
    // A hang guard, not a speed limit: with every iteration exempt these ran to --max-nodes.
    assert!(start.elapsed() < Duration::from_secs(60), "{out}");
    assert_eq!(code, 0, "{err}");
    let line = out
        .lines()
        .find(|l| l.contains(" nodes, "))
        .unwrap_or_else(|| panic!("{out}"));
    let num = |after: &str| -> usize {
        let at = line.find(after).unwrap_or_else(|| panic!("{line}"));
        line[..at]
            .rsplit([' ', '('])
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{line}"))
    };
    (
        num(" nodes"),
        num(" leaves"),
        num(" bound"),
        format!("{out}{err}"),
    )
}

/// Item 16: an iteration after a constant guard counts against `--unroll` when the path
/// forks inside it. `while i < 10: if x > i: i += 1` forks on `x > i` in every iteration
/// (on the path `x <= i` the test is decided by the path condition and the loop would
/// spin): it is cut by `--unroll` like any loop, one `bound` leaf per value of `i` reached,
/// instead of running each path 10,000 iterations deep.
#[test]
fn iterations_whose_body_forks_count_against_unroll() {
    let p = program(
        "forking_body.py",
        "x: int\ni = 0\nwhile i < 10:\n    if x > i:\n        i += 1\n",
    );
    for (unroll, bound) in [("1", 2), ("3", 4), ("5", 6)] {
        let (nodes, leaves, bounds, out) = run_summary(&p, unroll);
        assert_eq!((leaves, bounds), (bound, bound), "--unroll {unroll}: {out}");
        assert!(nodes < 100, "--unroll {unroll}: {out}");
        assert!(
            out.contains(&format!("{bound} paths cut by --unroll {unroll}")),
            "{out}"
        );
    }
    // A fork in a nested loop counts for the loop around it (the inner `break` leaves the
    // inner loop only), but not for the inner loop: no path is cut there.
    let p2 = program(
        "nested_fork.py",
        "x: int\ni = 0\nwhile i < 6:\n    j = 0\n    while j < 3:\n        if x == j:\n            \
         break\n        j += 1\n    i += 1\n",
    );
    let (_, leaves, bounds, out) = run_summary(&p2, "2");
    assert_eq!((leaves, bounds), (4, 4), "{out}");
    // Ways out of the loop do not count: an exception in each iteration, a `return` after
    // an assignment, a second search on a path that already decided every test.
    let p3 = program(
        "exits.py",
        "t: tuple\ni = 0\ns = 0\nwhile i < 5:\n    s += t[i]\n    i += 1\n",
    );
    let (_, leaves, bounds, out) = run_summary(&p3, "1");
    assert_eq!((leaves, bounds), (6, 0), "{out}");
    let p4 = program(
        "twice.py",
        "def find(needle: int, haystack: tuple) -> int:\n    i = 0\n    while i < len(haystack):\n        \
         if haystack[i] == needle:\n            r = i\n            return r\n        i = i + 1\n    \
         return -1\n\nx: int\nt = (1, 2, 3, 4)\nr1 = find(x, t)\nr2 = find(x, t)\n",
    );
    let (_, leaves, bounds, out) = run_summary(&p4, "1");
    assert_eq!((leaves, bounds), (5, 0), "{out}");
    for p in [p, p2, p3, p4] {
        let _ = std::fs::remove_file(&p);
    }
}

/// Items 17 and 18: `run --tree` lists a store in natural order (`a2` before `a10`), as
/// the debugger does, and `--dot` leaves show the final store.
#[test]
fn stores_are_in_natural_order_and_dot_leaves_show_them() {
    let p = program(
        "natural.py",
        "x: int\na10 = 1\na2 = x\na1 = 3\nif x > 0:\n    a2 = 5\n",
    );
    let (_, out, _) = symdbg(&["run", s(&p)]);
    assert!(
        out.contains("normal  a1 = 3, a2 = 5, a10 = 1, x = x"),
        "{out}"
    );
    let (_, dot, _) = symdbg(&["run", s(&p), "--dot"]);
    assert!(
        dot.contains("label=\"normal\\na1 = 3\\na2 = 5\\na10 = 1\\nx = x\""),
        "{dot}"
    );
    let (_, out, _) = symdbg(&["exec", s(&p), "--input", "x=1"]);
    assert!(out.contains("a1 = 3\n    a2 = 5\n    a10 = 1\n"), "{out}");
    let _ = std::fs::remove_file(&p);
}
