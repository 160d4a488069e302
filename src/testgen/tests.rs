use super::*;
use crate::session::{Config, Limits, Loaded, LoopMode, Policy, Strategy};

/// Explore `src` (unrolled loops, `unroll` iterations) and collect its tests.
fn suite_of(src: &str, entry: Option<&str>, unroll: u32, new_lines_only: bool) -> Suite {
    let config = Config {
        unroll,
        loops: LoopMode::Unroll,
        ..Config::default()
    };
    let source = crate::base::SourceMap::new("p.py", src);
    let mut session = Session::open(source, entry, config).expect("program loads");
    let root = session.tree().root();
    let limits = Limits {
        max_nodes: Some(10_000),
        time: None,
        strategy: Strategy::Dfs,
    };
    session.run(root, Policy::Subtree, limits, &|_| {});
    collect(&mut session, new_lines_only)
}

fn header() -> Header {
    Header {
        command: "symdbg testgen p.py".into(),
        bounds: "--unroll 3 --recursion 5".into(),
        program_path: "../p.py".into(),
        invariants: false,
        ..Header::default()
    }
}

const INVERSION: &str = "x: int\nif x > 1:\n    pass\nelse:\n    x = -x\nassert x >= 0\n";

#[test]
fn one_test_per_leaf_with_minimal_inputs_and_concrete_results() {
    let s = suite_of(INVERSION, None, 3, false);
    let names: Vec<&str> = s.tests.iter().map(|t| t.name.as_str()).collect();
    // A test per leaf, and a boundary test where its inputs are new (issue 31): the two
    // normal leaves at `x > 1`'s flip (x = 2, x = 0), the bug's only input once.
    let leaves: BTreeSet<_> = s.tests.iter().map(|t| t.leaf).collect();
    assert_eq!(leaves.len(), 3, "{names:?}");
    assert_eq!(names.len(), 5, "{names:?}");
    assert!(names.iter().filter(|n| n.ends_with("_normal")).count() == 2);
    assert!(names.iter().filter(|n| n.ends_with("_normal_2")).count() == 2);
    let inputs: BTreeSet<String> = s.tests.iter().map(|t| t.inputs["x"].to_string()).collect();
    for boundary in ["2", "0"] {
        assert!(inputs.contains(boundary), "{inputs:?}");
    }
    let bug = s
        .tests
        .iter()
        .find(|t| t.expect.exception.is_some())
        .unwrap();
    assert!(bug.name.ends_with("_assertion_error"), "{}", bug.name);
    // The only input that breaks the assert, x = 1; elsewhere small models (the first
    // test's comparisons at most FAR = 10 from their flip, issue 31).
    assert_eq!(bug.inputs["x"], Value::Int(1.into()));
    assert_eq!(bug.expect.line, Some(6));
    assert_eq!(bug.expect.store["x"], Value::Int((-1).into()));
    for t in &s.tests {
        assert!(t.disagreement.is_none(), "{t:?}");
        let Value::Int(x) = &t.inputs["x"] else {
            panic!()
        };
        assert!(x.magnitude() <= &11u32.into(), "not small: {x}");
    }
    assert!(s.skipped.is_empty());
}

#[test]
fn bound_leaves_are_listed_not_tested() {
    let src = "n: int\ni = 0\nwhile i < n:\n    i = i + 1\n";
    let s = suite_of(src, None, 1, false);
    assert!(!s.tests.is_empty());
    assert!(
        s.skipped.iter().any(|k| k.reason.starts_with("bound")),
        "{:?}",
        s.skipped
    );
    let text = pytest::render(&s, &header());
    assert!(
        text.contains("# Leaves without a test:\n#   leaf "),
        "{text}"
    );
    assert!(
        text.contains("bound: the path was cut by --unroll 1"),
        "{text}"
    );
}

#[test]
fn entry_runs_compare_return_values() {
    let src = "\
def sign(x: int) -> bool:
    if x > 0:
        return True
    return False

def proc(t: tuple):
    assert len(t) < 2
";
    let s = suite_of(src, Some("sign"), 3, false);
    let text = pytest::render(&s, &header());
    assert!(text.contains("ENTRY = \"sign\""), "{text}");
    // Each leaf's first test away from `x > 0`'s flip, its boundary test at the flip
    // (issue 31).
    assert!(text.contains("assert call({\"x\": 10}) is True"), "{text}");
    assert!(text.contains("assert call({\"x\": 1}) is True"), "{text}");
    assert!(
        text.contains("assert call({\"x\": -10}) is False"),
        "{text}"
    );
    assert!(text.contains("assert call({\"x\": 0}) is False"), "{text}");
    let s = suite_of(src, Some("proc"), 3, false);
    let text = pytest::render(&s, &header());
    assert!(text.contains("assert call({\"t\": ()}) is None"), "{text}");
    assert!(
        text.contains(
            // Non-zero, distinct elements of alternating signs (issue 31), not (0, 0).
            "with pytest.raises(AssertionError) as excinfo:\n        call({\"t\": (1, -1)})"
        ),
        "{text}"
    );
    assert!(text.contains("assert raised_at(excinfo) == 7"), "{text}");
}

#[test]
fn new_lines_only_keeps_tests_that_cover_new_lines() {
    let src = "\
a: int
b: int
x = 0
if a > 0:
    x = 1
if b > 0:
    x = x + 2
";
    let all = suite_of(src, None, 3, false);
    let some = suite_of(src, None, 3, true);
    let leaves: BTreeSet<_> = all.tests.iter().map(|t| t.leaf).collect();
    assert_eq!(leaves.len(), 4);
    assert!(some.tests.len() < all.tests.len());
    let mut covered = BTreeSet::new();
    for t in &some.tests {
        assert!(
            !t.lines.is_subset(&covered),
            "{} covers nothing new",
            t.name
        );
        covered.extend(t.lines.iter().copied());
    }
    let every: BTreeSet<usize> = all.tests.iter().flat_map(|t| t.lines.clone()).collect();
    assert_eq!(
        covered, every,
        "the kept tests cover every line all tests cover"
    );
    assert!(some
        .skipped
        .iter()
        .any(|k| k.reason.contains("--new-lines-only")));
}

#[test]
fn verification_statements_are_refused_where_they_are() {
    let cases = [
        ("x: int\nassume x > 0\n", "assume", 2),
        ("x: int\nif x > 0:\n    havoc x\n", "havoc", 3),
        (
            "def f(i: int) -> int:\n    if i > 0:\n        loop-scope(inv=i >= 0):\n            break\n    return i\n",
            "loop-scope",
            3,
        ),
    ];
    for (src, kind, line) in cases {
        let program = Loaded::new(SourceMap::new("p.py", src)).expect(src).program;
        let d = refuse_non_python(&program).expect_err(src);
        assert!(
            d.message.starts_with(&format!("`{kind}` is not Python")),
            "{d:?}"
        );
        let source = SourceMap::new("p.py", src);
        assert_eq!(source.line(d.span.unwrap().start), line, "{src}");
    }
    let predicate =
        "@predicate\ndef pos(x: int) -> bool:\n    return x > 0\n\nx: int\nassert pos(x)\n";
    let program = Loaded::new(SourceMap::new("p.py", predicate))
        .unwrap()
        .program;
    assert!(refuse_non_python(&program).is_ok());
}

#[test]
fn jsonl_lines_parse_back() {
    let src = "t: tuple\nb: bool\nn: int\nm = n * 1000000000000000000000\nassert b or len(t) < 1\n";
    let s = suite_of(src, None, 3, false);
    let text = jsonl::render(&s);
    assert_eq!(text.lines().count(), s.tests.len());
    for (line, t) in text.lines().zip(&s.tests) {
        let case = jsonl::parse(line).unwrap();
        assert_eq!(case.test, t.name);
        assert_eq!(case.inputs, t.inputs);
        assert_eq!(case.expect, t.expect);
        assert_eq!(case.entry, None);
    }
    assert!(jsonl::parse("{\"test\": 1}").is_err());
}

#[test]
fn disagreements_are_written_with_the_concrete_result() {
    let mut s = suite_of(INVERSION, None, 3, false);
    let t = &mut s.tests[0];
    let mut said = t.expect.clone();
    said.outcome = "exception".into();
    said.exception = Some("ZeroDivisionError".into());
    t.disagreement = Some(said);
    let leaf = t.leaf.0;
    let text = pytest::render(&s, &header());
    assert!(
        text.contains(&format!(
            "# symdbg: engine bug: the symbolic result of leaf {leaf} differs"
        )),
        "{text}"
    );
    assert!(
        text.contains("    # symdbg: the symbolic leaf said: exception ZeroDivisionError"),
        "{text}"
    );
    assert_eq!(s.disagreements().count(), 1);
    let line = jsonl::render(&s);
    assert!(
        line.contains("\"disagreement\":\"exception ZeroDivisionError"),
        "{line}"
    );
}

#[test]
fn names_and_literals() {
    assert_eq!(snake_case("AssertionError"), "assertion_error");
    assert_eq!(snake_case("UnboundLocalError"), "unbound_local_error");
    assert_eq!(pytest::py_str("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
}

/// Issue 28: `inc`'s postcondition lets results its body never returns.
const WEAK: &str = "def inc(x: int) -> int:\n    ensures result > x\n    return x + 1\n\n\ndef g(x: int, y: int) -> int:\n    r = inc(x)\n    if y > r:\n        return 1\n    if r > x + 1:\n        return 2\n    return 0\n";

fn contract_suite(src: &str, entry: &str, calls: crate::session::CallMode) -> Suite {
    let config = Config {
        calls: Some(calls),
        ..Config::default()
    };
    let source = crate::base::SourceMap::new("p.py", src);
    let mut session = Session::open(source, Some(entry), config).expect("program loads");
    let root = session.tree().root();
    let limits = Limits {
        max_nodes: Some(10_000),
        time: None,
        strategy: Strategy::Dfs,
    };
    session.run(root, Policy::Subtree, limits, &|_| {});
    collect(&mut session, false)
}

#[test]
fn contract_lines_are_accepted_and_an_or_conjunct_keeps_its_parentheses() {
    let program = Loaded::new(SourceMap::new("p.py", WEAK)).unwrap().program;
    assert!(refuse_non_python(&program).is_ok());
    assert!(contracts::has_contracts(&program));
    let plain = Loaded::new(SourceMap::new("p.py", INVERSION))
        .unwrap()
        .program;
    assert!(!contracts::has_contracts(&plain));
    let texts = ["x > 0".to_string(), "y == 0 or z@1 > x".to_string()];
    assert_eq!(conjunction(&texts), "x > 0 and (y == 0 or z@1 > x)");
    assert_eq!(conjunction(&texts[1..]), "y == 0 or z@1 > x");
}

#[test]
fn an_abstract_leaf_gets_a_test_only_where_its_model_reproduces_it() {
    use crate::session::CallMode;
    let s = contract_suite(WEAK, "g", CallMode::Contract);
    // `r > x + 1` (return 2) needs inc(x) > x + 1, which the body never returns.
    let weak: Vec<&Skipped> = s
        .skipped
        .iter()
        .filter(|k| k.reason.contains("the contract of inc may be too weak"))
        .collect();
    assert_eq!(weak.len(), 1, "{:?}", s.skipped);
    assert!(weak[0].reason.starts_with("not written:"), "{weak:?}");
    assert!(s.tests.iter().all(|t| t.leaf != weak[0].node));
    // The other leaves (1 and 0) have tests, each with the concrete result the leaf said.
    let returns: BTreeSet<String> = s
        .tests
        .iter()
        .map(|t| t.expect.return_value.as_ref().unwrap().to_string())
        .collect();
    assert_eq!(returns, BTreeSet::from(["0".to_string(), "1".to_string()]));
    assert_eq!(s.disagreements().count(), 0);
    // Inlined, every leaf is precise: a test per leaf, none skipped, no 2 (unreachable).
    let s = contract_suite(WEAK, "g", CallMode::Inline);
    assert!(s.skipped.is_empty(), "{:?}", s.skipped);
    assert_eq!(s.disagreements().count(), 0);
    assert!(s
        .tests
        .iter()
        .all(|t| t.expect.return_value != Some(Value::Int(2.into()))));
}

#[test]
fn a_broken_contract_is_listed_not_tested() {
    use crate::session::CallMode;
    // `dec` promises a positive result but returns 0 for x = 1, its only argument.
    let src = "def dec(x: int) -> int:\n    requires x == 1\n    ensures result >= 1\n    return x - 1\n\n\ndef h(x: int) -> int:\n    if x >= 1 and x <= 1:\n        return dec(x)\n    return 1\n";
    let s = contract_suite(src, "h", CallMode::Contract);
    assert_eq!(s.disagreements().count(), 0);
    // The leaf returning dec@1 >= 1: its model x = 1 makes dec fail its postcondition.
    assert!(
        s.skipped
            .iter()
            .any(|k| k.reason.contains("breaks the contract of dec")),
        "{:?}",
        s.skipped
    );
    // What is written is what the program does: x != 1 returns 1.
    assert!(!s.tests.is_empty());
    for t in &s.tests {
        assert_eq!(t.expect.return_value, Some(Value::Int(1.into())), "{t:?}");
        assert_ne!(t.inputs["x"], Value::Int(1.into()), "{t:?}");
    }
    let inline = contract_suite(src, "h", CallMode::Inline);
    assert!(
        inline
            .tests
            .iter()
            .any(|t| t.expect.exception.as_deref() == Some("AssertionError")
                && t.expect.line == Some(3)),
        "{:?}",
        inline.tests
    );
}

/// A model with tuple `t` of `n` elements (each 1) and loop count `k@1 = kappa`.
fn tuple_model(n: usize, kappa: i64) -> NodeModel {
    let mut m = NodeModel {
        inputs: BTreeMap::new(),
        havoc: BTreeMap::new(),
        store: BTreeMap::new(),
        return_value: None,
        stdout: None,
    };
    let items: Vec<num_bigint::BigInt> = (0..n).map(|_| 1.into()).collect();
    m.inputs.insert("t".into(), Value::Tuple(items.into()));
    m.havoc.insert("k@1".into(), Value::Int(kappa.into()));
    m
}

#[test]
fn a_second_model_far_larger_than_the_first_is_dropped() {
    // The first stays whatever its size; the ones after it only near it (a model the
    // minimiser could not shrink: 27,377 elements where the first has 8).
    let mut models = vec![
        tuple_model(8, 1),
        tuple_model(27_377, 27_375),
        tuple_model(9, 2),
        tuple_model(3, 0),
    ];
    near_first(&mut models);
    let sizes: Vec<usize> = models
        .iter()
        .map(|m| match &m.inputs["t"] {
            Value::Tuple(t) => t.len(),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(sizes, [8, 9, 3]);
    let mut huge_first = vec![tuple_model(5_000, 4_998), tuple_model(2, 0)];
    near_first(&mut huge_first);
    assert_eq!(huge_first.len(), 2);
}
