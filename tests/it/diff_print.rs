//! Issue 29, `symdbg diff` on programs that print, and `diff --pytest OUT`:
//! - a printing program against itself: no difference;
//! - mutation pairs of printing programs (generated ones, `examples/print_steps.py`) with
//!   mutants of their `print` lines (`print(x)` → `print(x + 1)`, `print(0, x)`, `pass`)
//!   among the one-token mutants, against python3 as in `diff.rs` (printed output is
//!   compared);
//! - the command line shows and `--json` carries what each program printed, as python3
//!   prints it;
//! - the regression tests of `--pytest` pass when they run OLD and fail exactly on the
//!   witnesses when they run NEW (real pytest), and OUT is written by the file rules.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value as Json;

use crate::diff::{check_pairs, mutants};
use crate::differential::{python_output, request, spawn_oracle, Val};
use crate::util::{python_with_pytest, symdbg, triple};

/// Mutants of the `print` lines of `src`: each dropped (`pass`), given a leading `0`
/// item, and each name in it `v` made `(v + 1)` (mutants that do not type-check are
/// left out by the caller, which cannot load them).
fn print_mutants(src: &str) -> Vec<String> {
    let lines: Vec<&str> = src.lines().collect();
    let mut out = Vec::new();
    let with = |k: usize, new: String| {
        let mut v: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        v[k] = new;
        v.join("\n") + "\n"
    };
    let name = regex::Regex::new(r"\b[a-z_][a-z0-9_]*\b").unwrap();
    let words = ["print", "if", "else", "not", "in", "and", "or", "len"];
    for (k, line) in lines.iter().enumerate() {
        let text = line.trim_start();
        let indent = &line[..line.len() - text.len()];
        if !text.starts_with("print(") || !text.ends_with(')') {
            continue;
        }
        out.push(with(k, format!("{indent}pass")));
        let args = &text["print(".len()..text.len() - 1];
        out.push(with(
            k,
            if args.is_empty() {
                format!("{indent}print(0)")
            } else {
                format!("{indent}print(0, {args})")
            },
        ));
        for m in name.find_iter(text) {
            let followed_by_call = text[m.end()..].starts_with('(');
            if words.contains(&m.as_str()) || followed_by_call {
                continue;
            }
            out.push(with(
                k,
                format!(
                    "{indent}{}({} + 1){}",
                    &text[..m.start()],
                    m.as_str(),
                    &text[m.end()..]
                ),
            ));
        }
    }
    out
}

/// The print mutants and the one-token mutants, alternating (so that a sample of the list
/// has both).
fn printing_mutants(src: &str) -> Vec<String> {
    let (p, o) = (print_mutants(src), mutants(src));
    let mut out = Vec::new();
    for k in 0..p.len().max(o.len()) {
        out.extend(p.get(k).cloned());
        out.extend(o.get(k).cloned());
    }
    out
}

#[test]
fn mutants_of_printing_programs_against_python3() {
    let mut programs: Vec<(String, String)> = (0..14)
        .map(|k| (format!("print{k}.py"), crate::print::generated(k)))
        .collect();
    let example = "examples/print_steps.py";
    programs.push((
        example.to_string(),
        std::fs::read_to_string(repo(example)).unwrap(),
    ));
    let (pairs, witnesses, differing, printed) =
        check_pairs("print", programs, 5, printing_mutants);
    assert!(pairs >= 40, "{pairs} pairs");
    assert!(witnesses > 20, "{witnesses} witnesses");
    assert!(differing > 20, "{differing} differing inputs");
    // (some classes differ in nothing but what they print)
    eprintln!("diff on printing programs: {printed} witnesses differ only in stdout");
    assert!(printed > 5, "{printed} witnesses differ only in stdout");
}

#[test]
fn printing_programs_against_themselves_have_no_difference() {
    std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(|| {
            let mut compared = 0;
            for k in 0..12 {
                let src = crate::print::generated(k);
                let (Some(mut a), Some(mut b)) = (
                    crate::diff::explored("p.py", &src),
                    crate::diff::explored("p.py", &src),
                ) else {
                    continue;
                };
                let r = symdbg::session::diff::diff(&mut a, &mut b).unwrap();
                assert!(r.differences.is_empty(), "{:?}\n{src}", r.differences);
                assert_eq!(r.undecided, 0, "{src}");
                compared += 1;
            }
            assert!(compared >= 10, "{compared} programs compared");
        })
        .unwrap()
        .join()
        .expect("a printing program differs from itself");
}

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("symdbg-diffpy-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn file(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const OLD: &str = "x: int\nprint(x, x > 0)\nif x > 2:\n    print(x)\nelse:\n    y = x * 2\n    print(y, (x, y))\n";
const NEW: &str = "x: int\nprint(x, x > 0)\nif x > 2:\n    print(x + 1)\nelse:\n    y = x * 2\n    print(y, (x, y))\n";

#[test]
fn diff_shows_and_json_carries_what_each_program_printed() {
    let dir = Scratch::new("cli");
    let (old, new) = (dir.file("old.py", OLD), dir.file("new.py", NEW));
    let (code, out, err) = symdbg(&["diff", s(&old), s(&new)]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("differ on 1 class of inputs"), "{out}");
    assert!(out.contains(": old prints \""), "{out}");
    let (code, json, _) = symdbg(&["diff", s(&old), s(&new), "--json"]);
    assert_eq!(code, 1);
    let v: Json = serde_json::from_str(&json).unwrap();
    let ds = v["differences"].as_array().unwrap();
    assert_eq!(ds.len(), 1, "{json}");
    let d = &ds[0];
    assert_eq!(d["differs"], serde_json::json!(["stdout"]), "{json}");
    // What python3 prints on the witness, for each program.
    let x = d["input"]["x"].as_i64().unwrap();
    assert!(x > 2, "{json}");
    let set = vec![vec![("x".to_string(), Val::Int(x.into()))]];
    let req = format!(
        "[{}, {}]",
        request(&old, None, &set, Some(10.0)),
        request(&new, None, &set, Some(10.0))
    );
    let py = python_output(spawn_oracle(&req)).unwrap();
    assert_eq!(d["old"]["stdout"], py[0][0]["stdout"], "{json}");
    assert_eq!(d["new"]["stdout"], py[1][0]["stdout"], "{json}");
    assert_ne!(d["old"]["stdout"], d["new"]["stdout"]);
    // The same text: no difference, printing included.
    let same = dir.file("same.py", OLD);
    let (code, out, _) = symdbg(&["diff", s(&old), s(&same)]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("no difference"), "{out}");
}

/// pytest over `file` running `program` (`SYMDBG_PROGRAM`, else the file's own NEW):
/// (passed, the names of the failed tests).
fn pytest(file: &Path, program: Option<&Path>) -> (usize, Vec<String>) {
    let mut cmd = Command::new(python_with_pytest());
    cmd.args([
        "-m",
        "pytest",
        "-q",
        "-rf",
        "-p",
        "no:cacheprovider",
        "-o",
        "console_output_style=classic",
    ])
    .arg(file)
    .env("PYTHONDONTWRITEBYTECODE", "1")
    .env_remove("SYMDBG_PROGRAM");
    if let Some(p) = program {
        cmd.env("SYMDBG_PROGRAM", p);
    }
    let (_, stdout, stderr) = triple(cmd.output().expect("run pytest"));
    let summary = stdout.lines().last().unwrap_or("").to_string();
    let count = |word: &str| {
        let re = regex::Regex::new(&format!(r"(\d+) {word}")).unwrap();
        re.captures(&summary)
            .map_or(0, |c| c[1].parse::<usize>().unwrap())
    };
    assert_eq!(count("error"), 0, "pytest errors:\n{stdout}{stderr}");
    let failed: Vec<String> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("FAILED "))
        .map(|l| {
            let name = l.split("::").nth(1).unwrap_or("");
            name.split_whitespace().next().unwrap_or("").to_string()
        })
        .collect();
    assert_eq!(failed.len(), count("failed"), "{stdout}");
    (count("passed"), failed)
}

/// The names of the test functions of a written file.
fn test_names(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("def test_"))
        .map(|l| format!("test_{}", l.split('(').next().unwrap()))
        .collect()
}

#[test]
fn pytest_regression_tests_pass_on_old_and_fail_on_the_witnesses_on_new() {
    let dir = Scratch::new("pytest");
    let mut pairs: Vec<(String, String, Vec<&str>)> = vec![
        (OLD.into(), NEW.into(), vec![]),
        (OLD.into(), OLD.into(), vec![]),
        (
            "x: int\nif x > 0:\n    r = 1\nelse:\n    r = 2 // (x + 5)\n".into(),
            "x: int\nif x > 0:\n    r = 1\nelse:\n    r = 2 // (x + 6)\n".into(),
            vec![],
        ),
        (
            "def f(a: int, t: tuple) -> int:\n    if a in t:\n        return a\n    return len(t) - a\n".into(),
            "def f(a: int, t: tuple) -> int:\n    if a in t:\n        return a + 1\n    return len(t) - a\n".into(),
            vec!["--entry", "f"],
        ),
    ];
    // Printing generated programs with a print mutant (from the middle of the list: the
    // first and last `print` lines run on every path).
    for k in 0..6 {
        let src = crate::print::generated(k);
        let ms = print_mutants(&src);
        let half = ms.len() / 2;
        if let Some(m) = ms
            .into_iter()
            .skip(half)
            .find(|m| symdbg::lang::load(m).is_ok())
        {
            pairs.push((src, m, vec![]));
        }
    }
    let (mut with_changes, mut kept) = (0, 0);
    for (k, (old_src, new_src, extra)) in pairs.iter().enumerate() {
        let old = dir.file(&format!("old{k}.py"), old_src);
        let new = dir.file(&format!("new{k}.py"), new_src);
        let out = dir.0.join(format!("test_reg{k}.py"));
        // (a generous hang guard: a loaded machine must not leave a class undecided)
        let mut args = vec!["diff", s(&old), s(&new), "--json", "--timeout-ms", "120000"];
        args.extend(extra.iter().copied());
        let (code, json, err) = symdbg(&args);
        assert!(code <= 1, "{err}");
        let v: Json = serde_json::from_str(&json).unwrap();
        let differences = v["differences"].as_array().unwrap().len();
        args.extend(["--pytest", s(&out)]);
        let (code2, _, err) = symdbg(&args);
        assert_eq!(code2, code, "{err}");
        let text = std::fs::read_to_string(&out).unwrap();
        let names = test_names(&text);
        let changed: Vec<&String> = names
            .iter()
            .filter(|n| n.starts_with("test_changed"))
            .collect();
        assert_eq!(changed.len(), differences, "pair {k}:\n{text}");
        // OLD: every test passes.
        let (passed, failed) = pytest(&out, Some(&old));
        assert!(failed.is_empty(), "pair {k} on OLD: {failed:?}\n{text}");
        assert_eq!(passed, names.len(), "pair {k}:\n{text}");
        // NEW (the file's default): exactly the witnesses fail.
        let (passed, mut failed) = pytest(&out, None);
        failed.sort();
        let mut expected: Vec<String> = changed.iter().map(|n| n.to_string()).collect();
        expected.sort();
        assert_eq!(failed, expected, "pair {k} on NEW:\n{text}");
        assert_eq!(passed + failed.len(), names.len());
        with_changes += usize::from(differences > 0);
        kept += names.len() - changed.len();
    }
    assert!(with_changes >= 5, "{with_changes} pairs with differences");
    eprintln!(
        "diff --pytest: {} pairs, {with_changes} with differences, {kept} tests of kept behaviour",
        pairs.len()
    );
    assert!(kept >= pairs.len(), "{kept} tests of kept behaviour");
}

#[test]
fn pytest_output_follows_the_file_rules() {
    let dir = Scratch::new("rules");
    let (old, new) = (dir.file("old.py", OLD), dir.file("new.py", NEW));
    // Never a program, even with --force.
    for target in [&old, &new] {
        let (code, _, err) = symdbg(&["diff", s(&old), s(&new), "--pytest", s(target), "--force"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("it is the program itself"), "{err}");
    }
    assert_eq!(std::fs::read_to_string(&old).unwrap(), OLD);
    assert_eq!(std::fs::read_to_string(&new).unwrap(), NEW);
    // A file symdbg did not write: refused, `--force` replaces it.
    let mine = dir.file("test_mine.py", "def test_mine():\n    assert True\n");
    let (code, _, err) = symdbg(&["diff", s(&old), s(&new), "--pytest", s(&mine)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--force"), "{err}");
    assert!(std::fs::read_to_string(&mine)
        .unwrap()
        .starts_with("def test_mine"));
    let (code, _, err) = symdbg(&["diff", s(&old), s(&new), "--pytest", s(&mine), "--force"]);
    assert_eq!(code, 1, "{err}");
    assert!(std::fs::read_to_string(&mine)
        .unwrap()
        .starts_with("# Generated by symdbg"));
    // Its own file: replaced without --force.
    let (code, _, err) = symdbg(&["diff", s(&old), s(&old), "--pytest", s(&mine)]);
    assert_eq!(code, 0, "{err}");
    assert!(!std::fs::read_to_string(&mine)
        .unwrap()
        .contains("def test_changed"));
    // --force alone is a usage error; a program python3 cannot run is refused.
    let (code, _, _) = symdbg(&["diff", s(&old), s(&new), "--force"]);
    assert_eq!(code, 2);
    let havoc = dir.file("havoc.py", "x: int\nhavoc x\nprint(x)\n");
    let out = dir.0.join("test_h.py");
    let (code, _, err) = symdbg(&["diff", s(&havoc), s(&havoc), "--pytest", s(&out)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--pytest"), "{err}");
    assert!(!out.exists());
}
