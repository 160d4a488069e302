//! Issue 22 items 2, 4, 5, 6 and 9: caps instead of aborts. Huge models are described, not
//! materialised (and never replaced by a wrong one); a restored session stops at
//! `--max-nodes`; memory stays linear in the program and the path; folds honour the time
//! limit; identifiers are NFKC-normalised as CPython does. The hostile cases run the real
//! binary under `ulimit -v` and a generous hang guard.

use std::path::Path;

use symdbg::base::SourceMap;
use symdbg::engine::Config;
use symdbg::tui::harness::Harness;
use symdbg::tui::program_file::Stamp;
use symdbg::tui::Files;

use super::hostile::{json, run_limited, MEMORY_KB};
use super::tui_e2e::Tui;
use super::tui_reload::temp_dir;

/// `n` independent branches: a tree of thousands of nodes for n = 11.
fn branches(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!("x{i}: int\n"));
    }
    for i in 0..n {
        s.push_str(&format!("if x{i} > 0:\n    y{i} = 1\n"));
    }
    s
}

/// `symdbg path --max-nodes N [--session S]` in the harness.
fn open_limited(path: &Path, max_nodes: usize, session: Option<&Path>) -> Harness {
    let text = std::fs::read_to_string(path).expect("read the program");
    let mut setup = super::tui::setup(
        SourceMap::new(path.display().to_string(), text),
        None,
        Config::default(),
    );
    setup.max_nodes = max_nodes;
    let files = Files {
        program: Some(path.to_path_buf()),
        stamp: Stamp::of(path),
        session: session.map(Path::to_path_buf),
    };
    Harness::open_with(setup, files, 120, 40).unwrap_or_else(|d| panic!("{d:?}"))
}

#[test]
fn a_restored_session_stops_at_the_node_limit() {
    let dir = temp_dir("caps-limit");
    let path = dir.join("p.py");
    std::fs::write(&path, branches(11)).unwrap();
    let mut a = open_limited(&path, 100_000, None);
    a.keys("r");
    a.keys("S");
    let big = a.app.tree.len();
    assert!(big > 2_000, "{big} nodes");
    let saved = dir.join("p.py.symdbg-session");
    // Reopened with a smaller --max-nodes: the replay stops there and says so.
    let b = open_limited(&path, 500, Some(&saved));
    let msg = &b.app.message;
    assert!(msg.contains("session restored"), "{msg}");
    assert!(msg.contains("node limit (500"), "{msg}");
    let n = b.app.tree.len();
    assert!((500..510).contains(&n), "{n} nodes of {big}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `len(t) > 2^32`: materialising the model's `t` would need 128 GiB.
const HUGE: &str = "t: tuple\nassume len(t) > 4294967296\ny = t[0]\nassert y != 5 or t[-1] != 5\n";

#[test]
fn huge_models_are_described_not_materialised() {
    let e = run_limited(HUGE, &["run", "FILE", "--counterexamples"], 60, MEMORY_KB);
    assert!(too_large_t(&e.stdout, "4294967297"), "{}", e.stdout);
    let doc = json(&run_limited(
        HUGE,
        &["run", "FILE", "--json"],
        60,
        MEMORY_KB,
    ));
    let leaves: Vec<_> = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "leaf")
        .collect();
    assert_eq!(leaves.len(), 2);
    for leaf in leaves {
        assert!(leaf["model"].is_null(), "{leaf}");
        let why = leaf["model_unknown_reason"].as_str().unwrap();
        assert!(too_large_t(why, "4294967297"), "{why}");
    }
    // check cannot replay those models, and says so.
    let e = run_limited(HUGE, &["check", "FILE", "--runs", "5"], 60, MEMORY_KB);
    assert_eq!(e.code, 0, "{}", e.stderr);
    assert!(
        e.stdout.contains(
            "precise: not tested (no leaf's model could be replayed: 2 leaves not replayed)"
        ),
        "{}",
        e.stdout
    );
    assert_eq!(
        e.stdout
            .matches(" not replayed: its model is too large")
            .count(),
        2,
        "{}",
        e.stdout
    );
    // testgen (through --assume: `assume` is not Python) skips the leaf and says why.
    let dir = temp_dir("caps-testgen");
    let out = dir.join("test_f.py");
    let e = run_limited(
        "def f(t: tuple) -> int:\n    return t[-1]\n",
        &[
            "testgen",
            "FILE",
            "--entry",
            "f",
            "--assume",
            "len(t) > 4294967296",
            "-o",
            out.to_str().unwrap(),
        ],
        60,
        MEMORY_KB,
    );
    assert!(e.stderr.contains("1 leaf without a test"), "{}", e.stderr);
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(
        written.contains("no model: model too large: t") && too_large_t(&written, "4294967297"),
        "{written}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_model_too_large_to_show_is_never_replaced_by_a_wrong_one() {
    // The length does not fit a machine integer: it used to be read as `t = ()`, a false
    // counterexample (`len(()) <= 10**21`).
    let e = run_limited(
        "t: tuple\nassert len(t) <= 1000000000000000000000\n",
        &["run", "FILE", "--counterexamples"],
        60,
        MEMORY_KB,
    );
    assert!(
        too_large_t(&e.stdout, "1000000000000000000001") && !e.stdout.contains("t = ()"),
        "{}",
        e.stdout
    );
    // A fold's κ of 2^64 and of 10^8 (whose `t` used to be decoded element by element).
    let deep = std::fs::read_to_string("tests/data/fold/deep.py").unwrap();
    for (bound, len) in [
        ("18446744073709551616", "18446744073709551617"),
        ("100000000", "100000001"),
    ] {
        let src = deep.replace("i < 100", &format!("i < {bound}"));
        let e = run_limited(
            &src,
            &[
                "run",
                "FILE",
                "--entry",
                "deep",
                "--fold",
                "auto",
                "--counterexamples",
            ],
            60,
            MEMORY_KB,
        );
        assert!(
            too_large_t(&e.stdout, len) && !e.stdout.contains("t = ()"),
            "{}",
            e.stdout
        );
    }
}

/// `symdbg ARGS` on `src` (`FILE` in `args` stands for it) under the memory cap is
/// refused: exit 2, with `says` on standard error.
fn refused(src: &str, args: &[&str], says: &str) {
    let e = run_limited(src, args, 60, MEMORY_KB);
    assert_eq!(e.code, 2, "{args:?}: {}", e.stderr);
    assert!(e.stderr.contains(says), "{args:?}: {}", e.stderr);
}

#[test]
fn check_runs_and_replay_files_have_caps() {
    refused(
        "x: int\ny = x\n",
        &["check", "FILE", "--runs", "4000000000"],
        "--runs 4000000000 is more than",
    );
    // A replay file with a tuple longer than any model's: refused with a message.
    let dir = temp_dir("caps-replay");
    let tests = dir.join("t.jsonl");
    let long = vec!["0"; 1_100_000].join(",");
    std::fs::write(
        &tests,
        format!(
            "{{\"test\": \"test_0\", \"entry\": null, \"assume\": [], \"inputs\": {{\"t\": [{long}]}}, \"outcome\": \"normal\", \"exception\": null, \"line\": null, \"store\": {{}}, \"return_value\": null}}\n"
        ),
    )
    .unwrap();
    let replay = ["exec", "FILE", "--replay", tests.to_str().unwrap()];
    refused(
        "t: tuple\ny = len(t)\n",
        &replay,
        "longer than symdbg replays",
    );
    // A file past the size cap is refused unread.
    let f = std::fs::File::create(&tests).unwrap();
    f.set_len(40 << 20).unwrap();
    refused("t: tuple\ny = len(t)\n", &replay, "too large");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn growing_a_tuple_takes_memory_linear_in_the_path() {
    // `t = t + (x,)` 6,000 times: each append used to copy the tuple's term (about 2 GB
    // at 6,000 appends); now it adds one node. 1 GB of address space is plenty.
    let mut src = String::from("x: int\nt = ()\n");
    for _ in 0..6_000 {
        src.push_str("t = t + (x,)\n");
    }
    src.push_str("assert len(t) == 6000\n");
    let e = run_limited(&src, &["run", "FILE"], 300, 1_500_000);
    assert!(
        e.stdout.contains("1 leaf"),
        "{}",
        &e.stdout[e.stdout.len().saturating_sub(300)..]
    );
    assert!(e.stdout.contains("0 exceptions"));
}

#[test]
fn identifiers_are_nfkc_normalised_as_in_cpython() {
    // `𝐱` (MATHEMATICAL BOLD SMALL X) and `ﬁ` (the ligature) are `x` and `fi` in CPython.
    let src = "𝐱 = 5\nassert x == 5\nﬁ = 2\n𝐲: 𝐢𝐧𝐭 = fi + 1\n";
    let e = run_limited(src, &["exec", "FILE"], 60, MEMORY_KB);
    assert_eq!(e.code, 0, "{}", e.stderr);
    assert!(e.stdout.contains("x = 5"), "{}", e.stdout);
    assert!(e.stdout.contains("y = 3"), "{}", e.stdout);
    let e = run_limited(src, &["run", "FILE"], 60, MEMORY_KB);
    assert!(e.stdout.contains("0 exceptions"), "{}", e.stdout);
}

#[test]
fn program_files_have_a_size_cap() {
    // 1.2 MB of assignments: refused unread with a message, by every command.
    let src = "x0 = 0\n".repeat(180_000);
    assert!(src.len() > 1 << 20);
    for cmd in ["run", "exec", "check"] {
        let e = run_limited(&src, &[cmd, "FILE"], 60, MEMORY_KB);
        assert_eq!(e.code, 2, "{cmd}");
        assert!(e.stderr.contains("is too large"), "{cmd}: {}", e.stderr);
    }
}

#[test]
fn equals_with_a_huge_kappa_describes_the_model() {
    // `=` at the exception leaf of deep.py under --fold auto: κ1 = 2^64 used to show
    // `t = ()` (a length past u64 read as the default), κ1 = 10^8 decoded a tuple of 10^8
    // elements (3.2 GB) for minutes.
    let text = std::fs::read_to_string("tests/data/fold/deep.py").unwrap();
    let mut config = Config::default();
    config.fold = symdbg::engine::fold::FoldMode::Auto;
    let setup = super::tui::setup(
        SourceMap::new("deep.py", text),
        Some("deep".to_string()),
        config,
    );
    let mut h = Harness::open(setup, 120, 32).unwrap_or_else(|d| panic!("{d:?}"));
    h.keys("re");
    for (kappa, len) in [
        ("18446744073709551616", "18446744073709551617"),
        ("100000000", "100000001"),
    ] {
        h.keys(&format!("={kappa}<Enter>"));
        let shown = h.app.fold.shown.clone().expect("an instance").1;
        assert_eq!(shown.feasible, Some(true), "{shown:?}");
        assert!(too_large_t(&shown.verdict, len), "{shown:?}");
        assert!(!shown.verdict.contains("t = ()"), "{shown:?}");
        h.keys("<Esc>");
    }
}

#[test]
fn the_debugger_shows_a_huge_model_and_restores_the_terminal() {
    // `r e m` used to abort (128 GiB for `t`) with the terminal raw, in the alternate
    // screen, mouse capture on.
    let dir = temp_dir("caps-pty");
    std::fs::write(dir.join("huge.py"), HUGE).unwrap();
    let mut tui = Tui::spawn_limited(
        &dir,
        &["huge.py"],
        &[("COLORTERM", Some("truecolor"))],
        Some(MEMORY_KB),
    );
    tui.wait_for("the start", |s| s.contains("huge.py"));
    tui.press("r");
    tui.wait_for("the run", |s| s.contains("run: the subtree is explored"));
    tui.press("e");
    tui.wait_for("the exception leaf", |s| s.contains("exception leaf 1 of"));
    tui.press("m");
    tui.wait_for("the model", |s| {
        s.contains("model too large: t = (") && s.contains("(len 4294967297)")
    });
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    tui.assert_restored();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The session fuzz target's body on `text` (the same function the target calls).
fn replay_session_text(text: &str) -> Option<usize> {
    symdbg::tui::harness::fuzz_session_replay(text.as_bytes())
}

#[test]
fn the_session_fuzz_target_stops_hostile_frontiers_at_its_limit() {
    let header = r#""format": "symdbg-session", "version": 1, "program": "p.py", "program_hash": "fnv1a64:0000000000000000", "options": {"entry": null, "unroll": 3, "recursion": 5, "loops": "invariant", "fold": "off"}, "breakpoints": [], "exceptions": "off", "watches": [], "assumptions": []"#;
    // A long chain of first children, then a binary tree: both stop at 64 nodes.
    let chain: Vec<String> = std::iter::once(r#"{"step": "step"}"#.to_string())
        .chain((1..5_000).map(|k| format!(r#"{{"from": {}, "child": 0, "step": "step"}}"#, k - 1)))
        .collect();
    let tree: Vec<String> = std::iter::once(r#"{"step": "step"}"#.to_string())
        .chain((1..5_000).map(|k| {
            format!(
                r#"{{"from": {}, "child": {}, "step": "step"}}"#,
                (k - 1) / 2,
                (k - 1) % 2
            )
        }))
        .collect();
    let mut sizes = Vec::new();
    for steps in [chain, tree] {
        let text = format!(
            "{{{header}, \"frontier\": [{}], \"selected\": [0, 1, 0]}}",
            steps.join(",")
        );
        let n = replay_session_text(&text).expect("a session file");
        sizes.push(n);
    }
    // The breadth-first frontier names far more than 64 nodes: the limit stopped it.
    assert!(sizes[0] >= 16 && sizes[1] >= 64, "{sizes:?}");
    for junk in ["", "{", "[]", "{\"format\": 3}", "\u{1b}[2J"] {
        assert_eq!(replay_session_text(junk), None);
    }
    // Seeds as the fuzzer makes them: a valid file cut short or with one byte changed
    // (deterministic), and bytes that are not UTF-8. None may panic.
    let valid = format!(
        "{{{header}, \"frontier\": [{{\"step\": \"step\"}}, {{\"from\": 0, \"child\": 1, \"step\": \"step\"}}], \"selected\": [1, 0]}}"
    );
    assert!(
        replay_session_text(&valid).is_some_and(|n| n > 2),
        "{valid}"
    );
    let bytes = valid.as_bytes();
    for k in 0..60usize {
        let at = (k * 7919) % bytes.len();
        let mut changed = bytes.to_vec();
        changed[at] = b"0{}[],:\"-9x\xff"[k % 12];
        let _ = symdbg::tui::harness::fuzz_session_replay(&changed);
        let _ = symdbg::tui::harness::fuzz_session_replay(&bytes[..at]);
    }
}

/// A fold's κ past 2^64 (fix2 defect 2): the "too large" text names every input (`x`)
/// and κ1, and never shows elements the model does not give (`t = (…)` reads as an
/// all-default tuple, which cannot reach the `break`).
#[test]
fn a_too_large_model_names_every_input_and_kappa() {
    let src = "def f(t: tuple, x: int) -> int:\n    i = 0\n    while i < len(t):\n        if t[i] == x:\n            break\n        i += 1\n    assert i < 18446744073709551616\n    return i\n";
    let e = run_limited(
        src,
        &[
            "run",
            "FILE",
            "--entry",
            "f",
            "--fold",
            "auto",
            "--counterexamples",
        ],
        60,
        MEMORY_KB,
    );
    let lines: Vec<&str> = e
        .stdout
        .lines()
        .filter(|l| l.contains("model too large"))
        .collect();
    assert!(!lines.is_empty(), "{}", e.stdout);
    for l in lines {
        assert!(l.contains(", x = "), "{l}");
        assert!(l.contains("κ1 = "), "{l}");
        assert!(!l.contains("(…)"), "{l}");
    }
}

/// Does `text` describe a too large model whose `t` has length `len`: its elements where
/// the model gives them all (`t = (0, …, 0, 5) (len 4294967297)`), else only its length
/// (`t: len 4294967297, elements not shown`)?
fn too_large_t(text: &str, len: &str) -> bool {
    (text.contains("model too large: t = (") && text.contains(&format!(") (len {len})")))
        || text.contains(&format!("model too large: t: len {len}, "))
}
