//! Issue 28: `symdbg check --calls contract`. The leaves below a use of a contract are
//! abstract; `check` binds each use's fresh result to the value the body really returned
//! in the concrete run, so the exhaustiveness test stays exact, a model whose call results
//! the body does not return is "not reproduced: the contract may be too weak" (never a
//! disagreement), and a run in which a contracted function broke its contract is reported
//! (exit 1), with an input python3 fails on too.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::util::symdbg;

fn file(src: &str) -> tempfile::TempPath {
    let mut f = tempfile::Builder::new()
        .suffix(".py")
        .tempfile()
        .expect("tempfile");
    f.write_all(src.as_bytes()).expect("write");
    f.into_temp_path()
}

/// `check FILE ARGS --calls contract --json`: (exit code, the JSON report).
fn check(p: &str, args: &[&str]) -> (i32, serde_json::Value) {
    let mut all = vec!["check", p];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--calls", "contract", "--json"]);
    let (code, out, err) = symdbg(&all);
    assert!(code == 0 || code == 1, "{err}");
    (code, serde_json::from_str(&out).expect("json"))
}

const INC: &str = "def inc(x: int) -> int:
    requires x >= 0
    ensures result > x
    return x + 1
";

#[test]
fn check_with_contracts_agrees_on_the_example() {
    let (code, v) = check("examples/contracts.py", &["--entry", "area"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["exhaustive"]["ok"], true, "{v}");
    assert_eq!(v["precise"]["ok"], true, "{v}");
    assert_eq!(v["contracts"]["ok"], true, "{v}");
    assert_eq!(v["contracts"]["broken"], 0, "{v}");
    assert_eq!(v["compared"], v["runs"], "{v}");
    // Without --calls contract the key says nothing was asked.
    let (_, out, _) = symdbg(&[
        "check",
        "examples/contracts.py",
        "--entry",
        "area",
        "--json",
    ]);
    let inline: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert!(inline["contracts"].is_null(), "{inline}");
}

#[test]
fn several_uses_on_a_path_are_bound_to_the_calls_in_order() {
    // Two uses on most paths, which path depends on the first result: every random input
    // is compared exactly (none unevaluated for want of the calls' results).
    let src = format!(
        "{INC}
def dec(x: int) -> int:
    requires x >= 1
    ensures result == x - 1
    return x - 1


x: int
y = 0
if x >= 0:
    a = inc(x)
    if a > 3:
        y = dec(a)
    else:
        y = inc(a) + inc(0)
"
    );
    let p = file(&src);
    let (code, v) = check(p.to_str().expect("utf-8"), &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["exhaustive"]["ok"], true, "{v}");
    assert_eq!(v["compared"], 100, "{v}");
    assert_eq!(v["skipped"]["unevaluated"], 0, "{v}");
    assert_eq!(v["precise"]["ok"], true, "{v}");
}

#[test]
fn a_violated_precondition_at_a_call_is_a_leaf_the_runs_reach() {
    let src = format!("{INC}\n\nx: int\ny = inc(x)\n");
    let p = file(&src);
    let (code, v) = check(p.to_str().expect("utf-8"), &[]);
    assert_eq!(code, 0, "{v}");
    // Negative inputs end at the red "precondition of inc violated" leaf, the others
    // after the use: all 100 compared, none skipped.
    assert_eq!(v["compared"], 100, "{v}");
    assert_eq!(v["exhaustive"]["ok"], true, "{v}");
    assert_eq!(v["precise"]["ok"], true, "{v}");
    assert_eq!(v["contracts"]["ok"], true, "{v}");
}

#[test]
fn a_contract_weaker_than_the_body_is_said_never_a_disagreement() {
    // `ensures result > x` allows y > x + 1, which inc never returns: the leaf
    // `return 1` is abstract and its model is not reproduced concretely.
    let src = format!(
        "{INC}

def caller(x: int) -> int:
    y = inc(x)
    if y > x + 1:
        return 1
    return 0
"
    );
    let p = file(&src);
    let path = p.to_str().expect("utf-8");
    let (code, v) = check(path, &["--entry", "caller"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["precise"]["ok"], true, "{v}");
    assert_eq!(v["exhaustive"]["ok"], true, "{v}");
    let weak: Vec<&serde_json::Value> = v["skipped"]["not_replayed"]
        .as_array()
        .expect("list")
        .iter()
        .filter(|l| l["why"] == "contract_too_weak")
        .collect();
    assert_eq!(weak.len(), 1, "{v}");
    assert_eq!(weak[0]["contracts_used"], serde_json::json!(["inc"]), "{v}");
    // That leaf returns 1 (the branch the body never takes).
    let (_, run, _) = symdbg(&[
        "run", path, "--entry", "caller", "--calls", "contract", "--json",
    ]);
    let tree: serde_json::Value = serde_json::from_str(&run).expect("json");
    let leaf = tree["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .find(|n| n["id"] == weak[0]["leaf"])
        .expect("the leaf");
    assert_eq!(leaf["abstract"], true, "{leaf}");
    assert_eq!(leaf["model_return_value"], 1, "{leaf}");
    // The text says so in words.
    let (code, text, _) = symdbg(&["check", path, "--entry", "caller", "--calls", "contract"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("(abstract) not reproduced: the contract of inc may be too weak"),
        "{text}"
    );
    // Calls inlined: every leaf is exact, nothing to say.
    let (code, text, _) = symdbg(&["check", path, "--entry", "caller"]);
    assert_eq!(code, 0, "{text}");
    assert!(!text.contains("not reproduced"), "{text}");
}

#[test]
fn a_broken_contract_is_reported_with_an_input_python3_fails_on() {
    // inc breaks `ensures result > x` for x > 5; the tree, trusting the contract, is
    // all green: check must say so (exit 1), not hide it.
    let body = "    if x > 5:\n        return x\n    return x + 1\n";
    let src = format!(
        "def inc(x: int) -> int:\n    requires x >= 0\n    ensures result > x\n{body}\n\nx: int\ny = 0\nif x >= 0:\n    y = inc(x)\n"
    );
    let p = file(&src);
    let path = p.to_str().expect("utf-8");
    let (_, run, _) = symdbg(&["run", path, "--calls", "contract", "--json"]);
    assert!(
        !run.contains("\"outcome\":\"exception\""),
        "no red leaf:\n{run}"
    );
    let (code, v) = check(path, &[]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["contracts"]["ok"], false, "{v}");
    assert_eq!(v["contracts"]["function"], "inc", "{v}");
    assert!(
        v["contracts"]["broken"].as_u64().expect("count") >= 1,
        "{v}"
    );
    let x = v["contracts"]["counterexample"]["inputs"]["x"]
        .as_i64()
        .expect("x");
    assert!(x > 5, "{v}");
    // python3, the clauses as asserts, fails on that input.
    let python = format!(
        "def inc__body(x):\n{body}\ndef inc(x):\n    assert x >= 0\n    result = inc__body(x)\n    assert result > x\n    return result\n\nx = {x}\ny = 0\nif x >= 0:\n    y = inc(x)\n"
    );
    let out = crate::util::python_stdin(&python);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("AssertionError"),
        "{python}"
    );
    let (code, text, _) = symdbg(&["check", path, "--calls", "contract"]);
    assert_eq!(code, 1);
    assert!(text.contains("contracts: broken: a call of inc"), "{text}");
}

/// `--explain` names the contract steps: the core of a pruned branch says which
/// function's postcondition was assumed where a call used its contract, a pruned
/// precondition failure names the function and has `contract_failure` in JSON.
#[test]
fn explain_names_the_contract_steps() {
    let args = [
        "run",
        "examples/contracts.py",
        "--entry",
        "area",
        "--calls",
        "contract",
        "--explain",
    ];
    let (code, out, err) = symdbg(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "contradicts line 8 (postcondition of power assumed (use contract): power@3 >= 1)"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "contradicts line 16 (postcondition of gcd assumed (use contract): gcd@1 >= 0)"
        ),
        "{out}"
    );
    assert!(
        out.contains("(precondition of power violated at 7:14)"),
        "{out}"
    );
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let (code, json, err) = symdbg(&json_args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    let nodes = v["nodes"].as_array().expect("nodes");
    let pruned: Vec<&serde_json::Value> = nodes
        .iter()
        .flat_map(|n| n["pruned"].as_array().into_iter().flatten())
        .collect();
    let failures: Vec<&serde_json::Value> = pruned
        .iter()
        .copied()
        .filter(|p| p.get("contract_failure").is_some())
        .collect();
    assert!(!failures.is_empty(), "{json}");
    for p in &failures {
        assert_eq!(p["contract_failure"], "requires", "{p}");
        assert!(
            p["transition"]
                .as_str()
                .expect("text")
                .starts_with("precondition of power violated at"),
            "{p}"
        );
    }
    let assumed = nodes
        .iter()
        .flat_map(|n| n["origins"].as_array().into_iter().flatten())
        .find(|o| o["transition"] == "postcondition of gcd assumed (use contract)")
        .expect("an origin from gcd's postcondition");
    assert_eq!(assumed["contract"], "ensures", "{assumed}");
    // A program without contracts has neither key.
    let (_, plain, _) = symdbg(&["run", "examples/find.py", "--explain", "--json"]);
    assert!(!plain.contains("\"contract\":"), "{plain}");
    assert!(!plain.contains("\"contract_failure\":\""), "{plain}");
}

/// The replay of an abstract leaf (`Session::replay`, the debugger's replay pane): each
/// use's `f@n` is bound to the result the run's call returned, so the path condition is
/// checked exactly; a leaf only the contract's weakness reaches is "not reproduced: the
/// contract of inc may be too weak", never "does NOT follow this path".
#[test]
fn the_replay_of_an_abstract_leaf_binds_the_calls_and_names_a_weak_contract() {
    use symdbg::base::SourceMap;
    use symdbg::engine::{CallMode, Config, Limits, Outcome};
    use symdbg::session::{Policy, Session, Verdict};
    let src = "def inc(x: int) -> int:\n    ensures result > x\n    return x + 1\n\n\ndef g(x: int) -> int:\n    r = inc(x)\n    assert r <= x + 1\n    return r\n";
    let mut config = Config::default();
    config.calls = Some(CallMode::Contract);
    let mut s = Session::open(SourceMap::new("weak.py", src), Some("g"), config).unwrap();
    s.run(s.tree().root(), Policy::Subtree, Limits::default(), &|_| {});
    let leaf = |want: fn(Option<Outcome>) -> bool| {
        s.tree()
            .nodes()
            .find(|n| n.is_leaf() && want(n.outcome()))
            .map(|n| n.id)
            .expect("leaf")
    };
    let red = leaf(|o| matches!(o, Some(Outcome::Exception(_))));
    let ret = leaf(|o| o == Some(Outcome::Return));
    assert!(s.is_abstract(red) && s.is_abstract(ret));
    let config = symdbg::session::RunConfig::default();
    let r = s.replay(red, None, &config).unwrap();
    assert_eq!(r.verdict, Verdict::ContractTooWeak(vec!["inc".to_string()]));
    let r = s.replay(ret, None, &config).unwrap();
    assert_eq!(r.verdict, Verdict::Follows);
    // `inc@1` has the run's value: every conjunct checked.
    assert_eq!(r.undetermined, 0, "{r:?}");
    assert!(r.checked >= 1);
}

/// `check FILE --contracts` with `--json` (one object per contract, the counterexample's
/// inputs as values python3 fails on) and `--entry f` (only `f`'s proof; a function
/// without a contract is a clear error, exit 2); an unfinished proof names its options.
#[test]
fn check_contracts_has_json_an_entry_and_says_what_to_raise() {
    let src = "def even(n: int) -> bool:
    requires n >= 0
    ensures result == (n % 2 == 0)
    if n == 0:
        return True
    return not even(n - 1)


def half(n: int) -> int:
    requires n >= 0
    ensures 2 * result <= n
    if n == 7:
        return 4
    return n // 2


def plain(n: int) -> int:
    return n
";
    let p = file(src);
    let p = p.to_str().expect("utf-8");
    let (code, out, err) = symdbg(&["check", p, "--contracts", "--json"]);
    assert_eq!(code, 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let all = v["contracts"].as_array().expect("contracts");
    let names: Vec<&str> = all
        .iter()
        .map(|c| c["function"].as_str().expect("name"))
        .collect();
    assert_eq!(names, ["even", "half"]);
    assert_eq!(all[0]["verified"], true);
    assert_eq!(all[0]["why"], serde_json::Value::Null);
    assert!(all[0]["paths"].as_u64().expect("paths") >= 2);
    assert_eq!(all[1]["verified"], false);
    assert_eq!(all[1]["why"], "postcondition of half violated (line 11)");
    let n = all[1]["counterexample"]["inputs"]["n"].as_i64().expect("n");
    assert_eq!(n, 7);
    assert_eq!(all[1]["counterexample"]["text"], "n = 7");
    // python3 with the clause as an assert fails there too.
    let python = "def half(n):\n    assert n >= 0\n    result = 4 if n == 7 else n // 2\n    assert 2 * result <= n\n";
    let mut child = Command::new("python3")
        .args(["-c", &format!("{python}\nhalf({n})")])
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3");
    let status = child.wait().expect("python3 ran");
    assert!(!status.success());
    // --entry: only that function's proof.
    let (code, out, err) = symdbg(&["check", p, "--contracts", "--entry", "even"]);
    assert_eq!(
        (code, out.as_str()),
        (0, "even: verified (2 paths)\n"),
        "{err}"
    );
    for (entry, message) in [
        ("plain", "`plain` has no contract to prove"),
        ("nope", "the program has no function `nope`"),
    ] {
        let (code, out, err) = symdbg(&["check", p, "--contracts", "--entry", entry]);
        assert_eq!(code, 2, "{out}");
        assert!(err.contains(message), "{err}");
        assert!(
            err.contains("the functions with contracts: even, half"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    // Inlined recursion is cut: not verified, and the message names --recursion.
    let (code, out, _) = symdbg(&[
        "check",
        p,
        "--contracts",
        "--entry",
        "even",
        "--calls",
        "inline",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("even: not verified: no failure found, but 1 bound"),
        "{out}"
    );
    assert!(out.contains("--recursion"), "{out}");
}

/// A contract says nothing of what a call prints: a contracted function that prints (or
/// calls one that does) is always inlined, so `check --calls contract` and `testgen
/// --calls contract` compare printed lines the tree knows (they reported a false
/// disagreement and an "engine bug": the use dropped the body's `print`s). Its proof
/// says why recursion is then cut.
#[test]
fn a_contracted_function_that_prints_is_inlined_never_a_false_disagreement() {
    let src = "def show(x: int):
    requires x >= 0
    print(x)


def twice(x: int) -> int:
    requires x >= 0
    ensures result == 2 * x
    show(x)
    return 2 * x


def cnt(n: int) -> int:
    requires n >= 0
    ensures result == n
    if n == 0:
        return 0
    print(n)
    return cnt(n - 1) + 1


def g(a: int) -> int:
    return twice(a) + twice(a + 1)
";
    let p = file(src);
    let p = p.to_str().expect("utf-8");
    let (code, v) = check(p, &["--entry", "g"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["exhaustive"]["ok"], true, "{v}");
    assert_eq!(v["precise"]["ok"], true, "{v}");
    // No use of a contract: no abstract leaf, and the printed lines are the leaves'.
    let (_, json, _) = symdbg(&["run", p, "--entry", "g", "--calls", "contract", "--json"]);
    let tree: serde_json::Value = serde_json::from_str(&json).expect("json");
    let nodes = tree["nodes"].as_array().expect("nodes");
    assert!(nodes.iter().all(|n| n["abstract"] != true), "{json}");
    assert!(
        nodes.iter().any(|n| n["model_stdout"] == "0\n1\n"),
        "{json}"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("test_g.py");
    let o = out.to_str().expect("utf-8");
    let (code, _, err) = symdbg(&["testgen", p, "--entry", "g", "--calls", "contract", "-o", o]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("engine bug"), "{err}");
    let (passed, failed, output) = crate::testgen::pytest(&[out]);
    assert_eq!(failed, 0, "{output}");
    assert!(passed >= 2, "{output}");
    // The proofs: `show` and `twice` verified; `cnt`'s recursion is inlined, cut, and said.
    let (code, out, _) = symdbg(&["check", p, "--contracts"]);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "show: verified (1 path)");
    assert!(lines[1].starts_with("twice: verified"), "{out}");
    assert!(
        lines[2].ends_with("`cnt` prints, so its calls are inlined, not replaced by its contract"),
        "{out}"
    );
}
