//! `symdbg testgen`: the generated pytest files run under real pytest (python3 is the
//! oracle) and pass, for every plain-Python program in examples/ and tests/data/programs/
//! (module runs and `--entry` for each function) and for generated programs; one-token
//! mutants of programs fail some of their tests while others still pass (the tests read
//! the program at test time); `--format jsonl` round-trips through `exec --replay`.
//!
//! Many generated files share one pytest process (pytest starts in about 0.3 s).

use std::path::{Path, PathBuf};
use std::process::Command;
use symdbg::session::NodeId;

use crate::util::{python_with_pytest, symdbg, triple};

/// A fresh scratch directory (removed on drop).
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("symdbg-testgen-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// pytest's counts over `paths`: (passed, failed), and its output for messages.
pub(crate) fn pytest(paths: &[PathBuf]) -> (usize, usize, String) {
    let out = Command::new(python_with_pytest())
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-o",
            "console_output_style=classic",
        ])
        .args(paths)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run pytest");
    let (_, stdout, stderr) = triple(out);
    let summary = stdout.lines().last().unwrap_or("").to_string();
    let count = |word: &str| {
        let re = regex::Regex::new(&format!(r"(\d+) {word}")).unwrap();
        re.captures(&summary).map_or(0, |c| c[1].parse().unwrap())
    };
    assert_eq!(count("error"), 0, "pytest errors:\n{stdout}{stderr}");
    (
        count("passed"),
        count("failed"),
        format!("{stdout}{stderr}"),
    )
}

/// `symdbg testgen ARGS` must succeed; returns how many tests the written file has.
fn testgen(args: &[&str], out: &Path) -> usize {
    let o = out.to_str().unwrap();
    let mut all = vec!["testgen"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", o]);
    let (code, _, stderr) = symdbg(&all);
    assert_eq!(code, 0, "symdbg {all:?}:\n{stderr}");
    let text = std::fs::read_to_string(out).unwrap();
    text.matches("\ndef test_").count()
}

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The plain-Python programs of a directory (no verification statements, no contracts:
/// tests/it/contract_testgen.rs runs those), sorted.
fn plain_programs(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(repo(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .filter(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            let (program, _) = symdbg::lang::load(&text).unwrap();
            symdbg::testgen::refuse_non_python(&program).is_ok()
                && !symdbg::testgen::contracts::has_contracts(&program)
        })
        .collect();
    v.sort();
    v
}

/// The functions `--entry` accepts (not `@predicate`s).
fn entries(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let (program, _) = symdbg::lang::load(&text).unwrap();
    program
        .functions()
        .filter(|f| !f.predicate)
        .map(|f| f.name.name.clone())
        .collect()
}

/// Every plain program of examples/ and tests/data/programs/: a module test file and one per
/// entry function, all passing under pytest. Prints the counts (the report's figures).
#[test]
fn examples_and_corpus_pass_under_pytest() {
    let scratch = Scratch::new("corpus");
    let mut files = Vec::new();
    let mut tests = 0;
    let mut programs = 0;
    for dir in ["examples", "tests/data/programs"] {
        for p in plain_programs(dir) {
            programs += 1;
            let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
            let prefix = dir.replace('/', "_");
            let file = p.to_str().unwrap();
            let out = scratch.0.join(format!("test_{prefix}_{stem}.py"));
            tests += testgen(&[file], &out);
            files.push(out);
            for f in entries(&p) {
                let out = scratch.0.join(format!("test_{prefix}_{stem}__{f}.py"));
                tests += testgen(&[file, "--entry", &f], &out);
                files.push(out);
            }
        }
    }
    assert!(programs >= 90, "only {programs} plain programs found");
    let (passed, failed, log) = pytest(&files);
    eprintln!(
        "testgen: {programs} programs, {} files, {tests} tests: {passed} passed, {failed} failed",
        files.len()
    );
    assert_eq!(failed, 0, "{log}");
    assert_eq!(passed, tests, "{log}");
}

/// Deterministic choices for the generator (splitmix64), as proptest would draw them.
fn choices(seed: u64, len: usize) -> Vec<u32> {
    let mut rng = symdbg::base::rng::SplitMix64::new(seed);
    (0..len)
        .map(|_| ((rng.next_u64() & 0xff) as u32) << 24)
        .collect()
}

/// Generated programs (gen.rs: loops, calls, try, asserts, `//`, `%`, indexing): module
/// and `--entry f0` test files pass under pytest.
#[test]
fn generated_programs_pass_under_pytest() {
    let scratch = Scratch::new("gen");
    let mut files = Vec::new();
    let mut tests = 0;
    for seed in 0..40 {
        let program = crate::gen::program(&choices(seed, 60 + (seed as usize % 5) * 60));
        let text = symdbg::lang::pretty::program(&program);
        let path = scratch.0.join(format!("gen{seed}.py"));
        std::fs::write(&path, &text).unwrap();
        let p = path.to_str().unwrap();
        let out = scratch.0.join(format!("test_gen{seed}.py"));
        tests += testgen(&[p, "--max-nodes", "3000"], &out);
        files.push(out);
        if text.contains("def f0(") {
            let out = scratch.0.join(format!("test_gen{seed}_f0.py"));
            tests += testgen(&[p, "--entry", "f0", "--max-nodes", "3000"], &out);
            files.push(out);
        }
    }
    assert!(tests >= 80, "only {tests} tests generated");
    let (passed, failed, log) = pytest(&files);
    eprintln!("testgen: generated programs, {tests} tests: {passed} passed, {failed} failed");
    assert_eq!((passed, failed), (tests, 0), "{log}");
}

/// One-token mutants: the same test file, run against the edited program, has failing and
/// passing tests; `exec --replay` of the jsonl form reports the same tests as differing.
#[test]
fn mutants_fail_some_tests_and_pass_others() {
    let mutants: [(&str, &[&str], &str, &str); 8] = [
        (
            "examples/product.py",
            &[],
            "result = result * elem",
            "result = result + elem",
        ),
        ("examples/inversion.py", &[], "if x > 1:", "if x > 0:"),
        (
            "examples/clamp.py",
            &[],
            "assert a + b < 20",
            "assert a + b <= 20",
        ),
        (
            "examples/safe_ratio.py",
            &[],
            "        return 0\n",
            "        return 1\n",
        ),
        ("examples/window_sum.py", &[], "+ t[i + 1]", "+ t[i + 2]"),
        ("examples/find.py", &[], "i = i + 1", "i = i + 2"),
        (
            "tests/data/programs/find_entry.py",
            &["--entry", "find"],
            "== needle",
            "!= needle",
        ),
        (
            "tests/data/programs/gcd.py",
            &["--entry", "gcd"],
            "return abs(a)",
            "return a",
        ),
    ];
    let scratch = Scratch::new("mutants");
    for (path, extra, from, to) in mutants {
        let name = Path::new(path).file_name().unwrap().to_str().unwrap();
        let dir = scratch.0.join(name.trim_end_matches(".py"));
        std::fs::create_dir_all(dir.join("tests")).unwrap();
        let program = dir.join(name);
        let original = std::fs::read_to_string(repo(path)).unwrap();
        std::fs::write(&program, &original).unwrap();
        let p = program.to_str().unwrap();
        let test_file = dir.join("tests").join(format!("test_{name}"));
        let mut args = vec![p];
        args.extend_from_slice(extra);
        let n = testgen(&args, &test_file);
        let jsonl = dir.join("tests.jsonl");
        let mut jargs = args.clone();
        jargs.extend_from_slice(&["--format", "jsonl"]);
        testgen(&jargs, &jsonl);
        let text = std::fs::read_to_string(&test_file).unwrap();
        assert!(
            text.contains("SOURCE = pathlib.Path(__file__).parent / \"../"),
            "{name}: the program is found relative to the test file:\n{text}"
        );
        assert_eq!(
            pytest(std::slice::from_ref(&test_file)).0,
            n,
            "{name} unmutated"
        );
        assert!(original.contains(from), "{name}: no `{from}`");
        std::fs::write(&program, original.replacen(from, to, 1)).unwrap();
        let (passed, failed, log) = pytest(std::slice::from_ref(&test_file));
        assert!(
            failed >= 1 && passed >= 1,
            "{name} with `{to}`: {passed} passed, {failed} failed\n{log}"
        );
        assert_eq!(passed + failed, n);
        let (code, stdout, _) = symdbg(&["exec", p, "--replay", jsonl.to_str().unwrap()]);
        assert_eq!(code, 3, "{stdout}");
        let differ = stdout.lines().filter(|l| l.starts_with("DIFFERS")).count();
        assert_eq!(
            differ, failed,
            "{name}: replay and pytest disagree\n{stdout}\n{log}"
        );
    }
}

/// `--format jsonl` + `exec --replay`: every example's tests behave the same; the lines
/// name the same tests as the pytest file, and both outputs are byte-identical across runs.
#[test]
fn jsonl_replay_round_trips() {
    let scratch = Scratch::new("jsonl");
    for p in plain_programs("examples") {
        let file = p.to_str().unwrap();
        let mut runs = vec![(None, String::from("module"))];
        runs.extend(entries(&p).into_iter().map(|f| (Some(f.clone()), f)));
        for (entry, tag) in runs {
            let mut args = vec![file];
            if let Some(f) = &entry {
                args.extend_from_slice(&["--entry", f]);
            }
            let j = scratch.0.join(format!("{tag}.jsonl"));
            let py = scratch.0.join(format!("test_{tag}.py"));
            let mut jargs = args.clone();
            jargs.extend_from_slice(&["--format", "jsonl"]);
            let n = testgen(&jargs, &j);
            let text = std::fs::read_to_string(&j).unwrap();
            assert_eq!(n, 0, "no `def test_` in jsonl");
            let lines = text.lines().count();
            assert!(lines >= 1, "{file} {tag}: no tests");
            let (code, stdout, stderr) = symdbg(&["exec", file, "--replay", j.to_str().unwrap()]);
            assert_eq!(code, 0, "{file} {tag}:\n{stdout}{stderr}");
            assert!(
                stdout.ends_with(&format!(": {lines} behave the same, 0 differ\n")),
                "{stdout}"
            );
            testgen(&args, &py);
            let pytext = std::fs::read_to_string(&py).unwrap();
            for line in text.lines() {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                let name = v["test"].as_str().unwrap();
                // (`def test_...(capsys):` when the program prints)
                assert!(pytext.contains(&format!("\ndef {name}(")), "{name}");
                assert_eq!(v["entry"].as_str(), entry.as_deref());
            }
            // Deterministic: the same command writes the same bytes.
            testgen(&jargs, &j);
            assert_eq!(
                std::fs::read_to_string(&j).unwrap(),
                text,
                "{file} {tag} jsonl"
            );
            testgen(&args, &py);
            assert_eq!(
                std::fs::read_to_string(&py).unwrap(),
                pytext,
                "{file} {tag}"
            );
        }
    }
}

/// The README's generated file is the binary's output, byte for byte.
#[test]
fn readme_shows_a_real_generated_file() {
    let readme = std::fs::read_to_string(repo("README.md")).unwrap();
    let (code, stdout, stderr) = symdbg(&["testgen", "examples/inversion.py"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        readme.contains(&format!("```python\n{stdout}```")),
        "README.md's Test generation section is not `symdbg testgen examples/inversion.py`:\n{stdout}"
    );
}

/// Refusals and usage errors: exit 2 with a located or plain message, nothing written.
#[test]
fn refusals_and_usage_errors() {
    let (code, stdout, stderr) = symdbg(&["testgen", "examples/loop_scope.py"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("`loop-scope` is not Python")
            && stderr.contains("examples/loop_scope.py:30:5"),
        "{stderr}"
    );
    let (code, _, stderr) = symdbg(&["testgen", "examples/inversion.py", "-o", "no/such/dir/t.py"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot resolve `no/such/dir`"), "{stderr}");
    let scratch = Scratch::new("usage");
    let bad = scratch.0.join("bad.jsonl");
    std::fs::write(&bad, "{\"test\": \"t\"}\n").unwrap();
    let (code, _, stderr) = symdbg(&[
        "exec",
        "examples/inversion.py",
        "--replay",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("bad.jsonl:1: not a testgen test"),
        "{stderr}"
    );
    let (code, _, _) = symdbg(&[
        "exec",
        "examples/inversion.py",
        "--replay",
        "x.jsonl",
        "--input",
        "x=1",
    ]);
    assert_eq!(code, 2);
    // A jsonl test of another program's inputs does not run: a clear error, not a verdict.
    let j = scratch.0.join("inv.jsonl");
    testgen(&["examples/inversion.py", "--format", "jsonl"], &j);
    let (code, _, stderr) = symdbg(&["exec", "examples/clamp.py", "--replay", j.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("does not run"), "{stderr}");
}

/// The debugger's `T` key: on an exception leaf it writes that leaf's test beside the
/// program, on the root one test per explored leaf; the status line says where; pytest
/// passes them.
#[test]
fn tui_key_writes_tests_beside_the_program() {
    let scratch = Scratch::new("tui");
    let program = scratch.0.join("inversion.py");
    let text = std::fs::read_to_string(repo("examples/inversion.py")).unwrap();
    std::fs::write(&program, &text).unwrap();
    let mut h = crate::tui::open_source(program.to_str().unwrap(), &text, None, 120, 32);
    h.keys("r");
    h.keys("e");
    let leaf = h.app.selected;
    h.keys("T");
    let one = scratch.0.join(format!("test_inversion_leaf{}.py", leaf.0));
    assert!(
        h.app
            .message
            .starts_with(&format!("wrote 1 test to {}", one.display())),
        "{}",
        h.app.message
    );
    let written = std::fs::read_to_string(&one).unwrap();
    assert!(
        written.contains(&format!("def test_leaf{}_assertion_error():", leaf.0)),
        "{written}"
    );
    assert!(written.contains("SOURCE = pathlib.Path(__file__).parent / \"inversion.py\""));
    h.app.selected = NodeId(0);
    h.keys("T");
    let all = scratch.0.join("test_inversion.py");
    assert!(
        // A test per leaf and two boundary tests (issue 31).
        h.app.message.starts_with("wrote 5 tests to "),
        "{}",
        h.app.message
    );
    let (passed, failed, log) = pytest(&[one, all]);
    assert_eq!((passed, failed), (6, 0), "{log}");
}

/// `invariant` lines are annotations: the tests run the program without them (the loader
/// makes each `pass`, continuation lines blank), whatever their shape: continued over
/// lines, with comments, nested, beside a variable named `invariant`.
#[test]
fn annotated_programs_run_without_their_invariants() {
    let scratch = Scratch::new("annotated");
    let program = scratch.0.join("ann.py");
    std::fs::write(
        &program,
        "\
n: int
invariant = 3
i = 0
total = 0
while i < n:
    invariant (0 <= i and
               i <= n)   # a comment
    # a comment line between
    invariant total >= 0
    j = 0
    while j < i:
        invariant j <= i
        total += j
        j += 1
    i += 1
    invariant += 1
assert total < 2
",
    )
    .unwrap();
    let p = program.to_str().unwrap();
    let test_file = scratch.0.join("test_ann.py");
    let n = testgen(&[p, "--unroll", "4"], &test_file);
    let text = std::fs::read_to_string(&test_file).unwrap();
    assert!(text.contains("def program_text():"), "{text}");
    assert!(text.contains("_assertion_error():"), "{text}");
    let (passed, failed, log) = pytest(&[test_file]);
    assert_eq!((passed, failed), (n, 0), "{log}");
    let j = scratch.0.join("ann.jsonl");
    testgen(&[p, "--unroll", "4", "--format", "jsonl"], &j);
    let (code, stdout, stderr) = symdbg(&["exec", p, "--replay", j.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.ends_with(&format!(": {n} behave the same, 0 differ\n")),
        "{stdout}"
    );
}

/// Programs written as people write them (audit_positions' text generator: continuation
/// lines, parentheses, comments, tabs; programs that raise on purpose, `--entry f` modules
/// with driver code, `@predicate`s called from code): the tests pass under pytest, exception
/// lines included.
#[test]
fn hand_written_style_programs_pass_under_pytest() {
    use crate::audit_positions::gen::{Flavour, Gen};
    let scratch = Scratch::new("text");
    let mut files = Vec::new();
    let mut tests = 0;
    let mut raising = 0;
    for seed in 0..30u64 {
        for (k, flavour) in [Flavour::Module, Flavour::Entry, Flavour::Predicate]
            .into_iter()
            .enumerate()
        {
            let g = Gen::new(seed * 3 + k as u64).program(flavour);
            let path = scratch.0.join(format!("p{seed}_{k}.py"));
            std::fs::write(&path, &g.src).unwrap();
            let p = path.to_str().unwrap();
            let mut args = vec![p, "--max-nodes", "2000", "--timeout-ms", "300"];
            if let Some(f) = &g.entry {
                args.extend_from_slice(&["--entry", f]);
            }
            let out = scratch.0.join(format!("test_p{seed}_{k}.py"));
            let started = std::time::Instant::now();
            tests += testgen(&args, &out);
            if std::env::var_os("SYMDBG_TESTGEN_TIMES").is_some() {
                eprintln!("{seed} {k}: {:.2}s", started.elapsed().as_secs_f64());
            }
            raising += std::fs::read_to_string(&out)
                .unwrap()
                .matches("raised_at(excinfo) ==")
                .count();
            files.push(out);
        }
    }
    let (passed, failed, log) = pytest(&files);
    eprintln!("testgen: text-generated programs, {tests} tests ({raising} raise): {passed} passed, {failed} failed");
    assert!(raising >= 30, "only {raising} exception tests");
    assert_eq!((passed, failed), (tests, 0), "{log}");
}

/// `--new-lines-only` keeps fewer tests, lists the others with the reason, and what it
/// keeps still passes.
#[test]
fn new_lines_only_keeps_fewer_passing_tests() {
    let scratch = Scratch::new("newlines");
    let all = scratch.0.join("test_all.py");
    let some = scratch.0.join("test_some.py");
    let n_all = testgen(&["examples/clamp.py"], &all);
    let n_some = testgen(&["examples/clamp.py", "--new-lines-only"], &some);
    assert!(0 < n_some && n_some < n_all, "{n_some} of {n_all}");
    let text = std::fs::read_to_string(&some).unwrap();
    // A leaf is listed once; its boundary test (issue 31) is left out silently.
    let listed = text
        .matches("covers no line that an earlier test does not (--new-lines-only)")
        .count();
    assert!(0 < listed && listed <= n_all - n_some, "{text}");
    assert!(text.starts_with(&format!(
        "# Generated by symdbg {}: symdbg testgen examples/clamp.py --new-lines-only -o ",
        env!("CARGO_PKG_VERSION")
    )));
    assert_eq!(pytest(&[some]).0, n_some);
}

/// Issue 31: inputs that tell one-token bugs apart (boundary tests, larger counts).
mod choice;

/// `testgen --fold auto` (issue 15): tests from folded trees.
mod fold;

/// Issue 23 item 3: `T` on a leaf writes that leaf's test, whatever the leaf: on a `bound`
/// leaf (no test: it claims no ending) it writes no file and says why, where it used to
/// write every explored leaf's tests.
#[test]
fn tui_key_on_a_leaf_without_a_test_says_why_and_writes_nothing() {
    use symdbg::base::Outcome;
    let scratch = Scratch::new("tui_bound");
    let program = scratch.0.join("count.py");
    let text = "n: int\ni = 0\nwhile i < n:\n    i += 1\nassert i != 2\n";
    std::fs::write(&program, text).unwrap();
    let mut h = crate::tui::open_source(program.to_str().unwrap(), text, None, 120, 32);
    h.keys("r");
    let bound = h
        .app
        .tree
        .ids()
        .find(|&id| h.app.tree.node(id).info.kind().outcome() == Some(Outcome::Bound))
        .expect("a bound leaf at --unroll 3");
    h.app.select(bound);
    h.keys("T");
    assert!(
        h.app.message.starts_with(&format!(
            "no test for leaf {}: bound: the path was cut by --unroll",
            bound.0
        )),
        "{}",
        h.app.message
    );
    let written: Vec<_> = std::fs::read_dir(&scratch.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "count.py")
        .collect();
    assert!(written.is_empty(), "wrote {written:?}");
    // An exception leaf: its one test, beside the program.
    let exc = h
        .app
        .tree
        .ids()
        .find(|&id| h.app.tree.node(id).info.is_exception())
        .expect("the AssertionError leaf");
    h.app.select(exc);
    h.keys("T");
    assert!(
        h.app.message.starts_with("wrote 1 test to "),
        "{}",
        h.app.message
    );
    assert!(scratch
        .0
        .join(format!("test_count_leaf{}.py", exc.0))
        .is_file());
}

/// `-o -` is standard output, as everywhere on the command line: no file named `-` appears
/// in the working directory (fuzz5 found one).
#[test]
fn dash_output_is_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let program = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/inversion.py");
    let out = Command::new(env!("CARGO_BIN_EXE_symdbg"))
        .args(["testgen", program.to_str().unwrap(), "-o", "-"])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let (code, stdout, stderr) = triple(out);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("def test_"), "{stdout}");
    assert!(
        !dir.path().join("-").exists(),
        "a file named `-` was written"
    );
    assert!(!stderr.contains(" to -"), "{stderr}");
}
