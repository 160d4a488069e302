//! Two-parameter templates of `for` loops (issue 27): countIf written with `for v in t`,
//! `for i in range(n)` or `for i in range(len(t))` folds with κ and λ — the loop target is
//! a variable both paths assign the same value ([`symdbg::engine::fold::multi::Assigned`]).
//! Checked against python3 on every input of a box (tuples up to length 4 over -2..=2:
//! each run's outcome and return value are those of the one leaf whose condition holds,
//! and every ending leaf is reached), every leaf's model replayed in python3, tree sizes
//! independent of `--unroll`, `check` and `testgen --fold auto` under pytest, and
//! generated `for` loops.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use symdbg::concrete::Value;
use symdbg::engine::fold::FoldMode;
use symdbg::engine::{Config, Engine, NodeId, Outcome};
use symdbg::lang::Type;
use symdbg::transform;

use crate::differential::{parse_results, python_output, request, spawn_oracle, Inputs, Val};
use crate::fold::{explore, symbolic_ending, Ending};
use crate::util::symdbg;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fold_for_multi");

/// The programs of `tests/data/fold_for_multi` with a two-parameter template.
const FOLDED: [&str; 9] = [
    "parity.py",
    "for_target.py",
    "range_n.py",
    "range_len.py",
    "range_back.py",
    "for_return.py",
    "for_assert.py",
    "while_assigned.py",
    "before_count.py",
];

fn read(file: &str) -> (String, String) {
    let src = std::fs::read_to_string(format!("{DIR}/{file}")).unwrap();
    let entry = crate::differential::entry_of(&src).expect("an `# entry:` line");
    (src, entry)
}

/// Every input of the box: tuples of length 0..=4 over -2..=2, ints in -2..=5.
fn box_inputs(params: &[(String, Type)]) -> Vec<BTreeMap<String, Value>> {
    let mut tuples: Vec<Vec<i64>> = vec![vec![]];
    let mut layer: Vec<Vec<i64>> = vec![vec![]];
    for _ in 0..4 {
        layer = layer
            .into_iter()
            .flat_map(|p| {
                (-2..=2).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
        tuples.extend(layer.clone());
    }
    let mut out = vec![BTreeMap::new()];
    for (name, ty) in params {
        let values: Vec<Value> = match ty {
            Type::Int => (-2..=5).map(|i: i64| Value::Int(i.into())).collect(),
            Type::Bool => vec![Value::Bool(false), Value::Bool(true)],
            Type::Tuple => tuples
                .iter()
                .map(|t| Value::Tuple(t.iter().map(|&i| i.into()).collect::<Vec<_>>().into()))
                .collect(),
        };
        out = out
            .into_iter()
            .flat_map(|m| {
                values.iter().map(move |v| {
                    let mut m = m.clone();
                    m.insert(name.clone(), v.clone());
                    m
                })
            })
            .collect();
    }
    out
}

fn params(src: &str, entry: &str) -> Vec<(String, Type)> {
    let (_, _, ir) = transform::load(src).unwrap();
    ir.functions[entry].params.clone()
}

/// Does `e` have a two-parameter fold?
fn has_multi_fold(e: &Engine) -> bool {
    e.tree()
        .nodes()
        .any(|n| e.fold_at(n.id).is_some_and(|f| f.multi.is_some()))
}

/// One program's folded tree and the inputs to run in python3.
struct Case {
    path: PathBuf,
    entry: String,
    src: String,
    folded: Engine,
    inputs: Vec<BTreeMap<String, Value>>,
}

fn case(path: &Path, sample: usize) -> Case {
    let src = std::fs::read_to_string(path).unwrap();
    let entry = crate::differential::entry_of(&src).expect("an `# entry:` line");
    let folded = explore(&src, &entry, FoldMode::Auto, 3);
    let inputs = box_inputs(&params(&src, &entry))
        .into_iter()
        .step_by(sample)
        .collect();
    Case {
        path: path.to_path_buf(),
        entry,
        src,
        folded,
        inputs,
    }
}

/// python3's ending for every input of every case (one python3 process).
fn python_endings(cases: &[Case]) -> Vec<Vec<Ending>> {
    let requests: Vec<String> = cases
        .iter()
        .map(|c| {
            let sets: Vec<Inputs> = c
                .inputs
                .iter()
                .map(|m| {
                    m.iter()
                        .map(|(n, v)| (n.clone(), Val::from_value(v)))
                        .collect()
                })
                .collect();
            request(&c.path, Some(&c.entry), &sets, Some(10.0))
        })
        .collect();
    let answer = python_output(spawn_oracle(&format!("[{}]", requests.join(", "))))
        .expect("run_python.py failed");
    let answers = answer.as_array().expect("a list of answers");
    assert_eq!(answers.len(), cases.len());
    cases
        .iter()
        .zip(answers)
        .map(|(c, a)| {
            parse_results(a, c.inputs.len())
                .unwrap()
                .into_iter()
                .map(|o| {
                    let detail = match o.exception {
                        Some(e) => Some(e),
                        None => o.return_value.map(|v| format!("{:?}", v.to_value())),
                    };
                    (o.outcome, detail)
                })
                .collect()
        })
        .collect()
}

/// The leaves of `e` that end the run (no bound, no infeasible leaf).
fn ending_leaves(e: &Engine) -> BTreeSet<NodeId> {
    e.tree()
        .nodes()
        .filter(|n| {
            matches!(
                n.outcome(),
                Some(Outcome::Return | Outcome::Normal | Outcome::Exception(_))
            )
        })
        .map(|n| n.id)
        .collect()
}

/// Every input of each case ends on the one folded leaf whose condition holds for it as in
/// python3 (exhaustiveness; a `bound` leaf claims no ending: where a solver check was
/// undecided the fold is dropped and the loop unrolled, which `precise` cases must not
/// need), and (`precise`) every ending leaf of the folded tree is reached by an input.
/// Returns how many inputs were compared.
fn agree_with_python(cases: &[Case], precise: bool) -> usize {
    let expected = python_endings(cases);
    let mut compared = 0;
    for (c, theirs) in cases.iter().zip(expected) {
        let mut reached = BTreeSet::new();
        for (inputs, python) in c.inputs.iter().zip(theirs) {
            let (leaf, ours) = symbolic_ending(&c.folded, inputs)
                .unwrap_or_else(|| panic!("{}\n{inputs:?}: no folded leaf holds", c.src));
            reached.insert(leaf);
            if !precise && ours.0 == "bound" {
                continue;
            }
            assert_eq!(ours, python, "{}\n{inputs:?}: fold vs python3", c.src);
            compared += 1;
        }
        if precise {
            for leaf in ending_leaves(&c.folded) {
                assert!(
                    reached.contains(&leaf),
                    "{}: leaf {} is reached by no input",
                    c.src,
                    leaf.0
                );
            }
        }
    }
    compared
}

#[test]
fn for_loop_folds_agree_with_python_on_every_input_of_a_box() {
    let cases: Vec<Case> = FOLDED
        .iter()
        .map(|f| case(&PathBuf::from(DIR).join(f), 1))
        .collect();
    for c in &cases {
        let s = c.folded.stats();
        assert_eq!(s.bounds, 0, "{}: a bound leaf", c.src);
        assert!(
            has_multi_fold(&c.folded),
            "{}: no two-parameter fold",
            c.src
        );
        // No one-path fold: the two-parameter one is taken wherever the loop folds.
        assert!(
            c.folded
                .tree()
                .nodes()
                .filter_map(|n| c.folded.fold_at(n.id))
                .all(|f| f.multi.is_some()),
            "{}: a one-path fold",
            c.src
        );
    }
    let compared = agree_with_python(&cases, true);
    assert!(compared > 9_000, "only {compared} inputs compared");
}

/// Every satisfiable leaf's model (and random inputs) replayed in python3: outcome,
/// exception, return value (which reads the counters and the loop target after the loop).
#[test]
fn for_loop_fold_leaves_agree_with_python() {
    let mut files: Vec<PathBuf> = FOLDED.iter().map(|f| PathBuf::from(DIR).join(f)).collect();
    files.push(PathBuf::from(DIR).join("reads_previous.py"));
    let mut config = Config::default();
    config.fold = FoldMode::Auto;
    config.unroll = 3;
    let compared = crate::symbolic::differential_over_with(files, 20_000, config);
    assert!(compared >= 80, "only {compared} comparisons");
}

#[test]
fn for_loop_folds_do_not_grow_with_unroll() {
    for file in FOLDED {
        let (src, entry) = read(file);
        let sizes: Vec<usize> = [2, 5, 20]
            .iter()
            .map(|&u| {
                let e = explore(&src, &entry, FoldMode::Auto, u);
                assert_eq!(e.stats().bounds, 0, "{file} --unroll {u}");
                assert!(has_multi_fold(&e), "{file} --unroll {u}: {:?}", e.stats());
                e.stats().nodes
            })
            .collect();
        assert!(sizes.iter().all(|n| *n == sizes[0]), "{file}: {sizes:?}");
        let classic: Vec<usize> = [1, 3, 6]
            .iter()
            .map(|&u| explore(&src, &entry, FoldMode::Off, u).stats().nodes)
            .collect();
        assert!(
            classic.windows(2).all(|w| w[0] < w[1]),
            "{file}: classic {classic:?}, compact {sizes:?}"
        );
    }
}

#[test]
fn templates_say_which_for_loops_get_two_parameters_and_why_not() {
    let run = |file: &str| {
        let (code, out, err) = symdbg(&["run", &format!("{DIR}/{file}"), "--templates"]);
        assert_eq!(code, 0, "{err}");
        out
    };
    let out = run("parity.py");
    assert!(
        out.contains(
            "parity.py:5: two-parameter template: κ iterations of path 1 (5 enter, 5, 5, 6 else) \
             and λ of path 2 (5 enter, 5, 5, 6 then, 7), in any order"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "$v_index ↦ $v_index + κ + λ, even ↦ even + λ, \
             v ↦ ($v.items[$v_index + (κ + λ - 1)] if κ + λ >= 1 else v)"
        ),
        "{out}"
    );
    let out = run("range_n.py");
    assert!(
        out.contains(
            "$i ↦ $i + κ + λ, c ↦ c + 2 * κ - λ, i ↦ ($i + (κ + λ - 1) if κ + λ >= 1 else i)"
        ),
        "{out}"
    );
    // Different increments on the two paths: the value at the last iteration reads ω.
    let out = run("before_count.py");
    assert!(
        out.contains(
            "before ↦ (c + ω[κ + λ - 1] + 3 * (κ + λ - 1 - ω[κ + λ - 1]) if κ + λ >= 1 else before)"
        ),
        "{out}"
    );
    let out = run("reads_previous.py");
    assert!(
        out.contains(
            "reads_previous.py:6: no two-parameter template: the paths' conditions read `prev` \
             before the iteration assigns it (the previous iteration's value)"
        ),
        "{out}"
    );
}

/// `check --fold auto` (exhaustive and precise, each leaf's κ1 and λ1 checked against the
/// run) and `testgen --fold auto` (every test passes under pytest) on every program.
#[test]
fn check_and_testgen_pass_on_for_loop_folds() {
    let dir = std::env::temp_dir().join(format!("symdbg-fold-for-multi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut test_files = Vec::new();
    let mut tests = 0;
    for file in FOLDED {
        let (_, entry) = read(file);
        let path = format!("{DIR}/{file}");
        let (code, out, err) = symdbg(&[
            "check", &path, "--entry", &entry, "--fold", "auto", "--runs", "150",
        ]);
        assert_eq!(code, 0, "{file}: {out}{err}");
        assert!(out.contains("exhaustive: probably"), "{file}: {out}");
        assert!(out.contains("precise: probably"), "{file}: {out}");
        let test_file = dir.join(format!("test_{}.py", file.trim_end_matches(".py")));
        let (code, _, err) = symdbg(&[
            "testgen",
            &path,
            "--entry",
            &entry,
            "--fold",
            "auto",
            "-o",
            test_file.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{file}: {err}");
        let text = std::fs::read_to_string(&test_file).unwrap();
        let n = text.matches("\ndef test_").count();
        assert!(n >= 2, "{file}: {text}");
        assert!(
            text.contains("λ1 = "),
            "{file}: no test below the fold\n{text}"
        );
        tests += n;
        test_files.push(test_file);
    }
    let (passed, failed, log) = crate::testgen::pytest(&test_files);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!((passed, failed), (tests, 0), "{log}");
}

/// Generated `for` loops: the iteration (`for v in t`, `range(len(t))`, backwards,
/// `range(1, len(t))`, `range(n)`), the branch on the element, each path's increments, an
/// exit in the body, and the loop target read after the loop or not.
fn generated() -> Vec<String> {
    let iters = [
        ("v", "t", "v"),
        ("i", "range(len(t))", "t[i]"),
        ("i", "range(len(t) - 1, -1, -1)", "t[i]"),
        ("i", "range(1, len(t))", "t[i]"),
        ("i", "range(a)", "i"),
    ];
    let conds = ["{e} == a", "{e} > a", "{e} + c == a", "{e} % 2 != 0"];
    let incs = [
        ("c = c + 1", "d = d + 0"),
        ("c = c + 2", "d = d - 1"),
        ("c = c - 1", "c = c + 1"),
    ];
    let extras = [
        "",
        "        if {e} < 0:\n            break\n",
        "        assert c != 2\n",
        "        if {e} == 2:\n            return c * 7\n",
    ];
    let mut out = Vec::new();
    let mut k = 0usize;
    for (target, iter, e) in iters {
        for cond in conds {
            for (p1, p2) in incs {
                k += 1;
                let extra = extras[k % extras.len()].replace("{e}", e);
                let cond = cond.replace("{e}", e);
                let last = if k.is_multiple_of(2) { target } else { "0" };
                out.push(format!(
                    "# entry: f\ndef f(t: tuple, a: int) -> int:\n    c = 0\n    d = 0\n    \
                     for {target} in {iter}:\n{extra}        if {cond}:\n            {p1}\n        \
                     else:\n            {p2}\n    return c * 100 + d * 10 + {last}\n"
                ));
            }
        }
    }
    out
}

#[test]
fn generated_for_loops_agree_with_python() {
    let dir = std::env::temp_dir().join(format!("symdbg-fold-for-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let progs = generated();
    let mut files = Vec::new();
    let mut cases = Vec::new();
    // Programs with a two-parameter fold, and those whose tree at --unroll 20 is the one at
    // --unroll 3 (no bound leaf). Z3 may leave a quantified check undecided (its time limit:
    // the counters read in the loop's conditions make hard quantifiers); then the fold is
    // dropped and that program's loop unrolled, so these are counts, not per-program checks.
    let (mut folded, mut same_size) = (0, 0);
    for (k, src) in progs.iter().enumerate() {
        let path = dir.join(format!("for_{k:03}.py"));
        std::fs::write(&path, src).unwrap();
        // Every 7th input of the box (all tuple lengths, every a).
        let c = case(&path, 7);
        if has_multi_fold(&c.folded) {
            folded += 1;
            let large = explore(src, "f", FoldMode::Auto, 20).stats();
            let small = c.folded.stats();
            same_size += usize::from(small.nodes == large.nodes && large.bounds == 0);
        }
        cases.push(c);
        files.push(path);
    }
    let compared_box = agree_with_python(&cases, false);
    let mut config = Config::default();
    config.fold = FoldMode::Auto;
    config.unroll = 3;
    let compared = crate::symbolic::differential_over_with(files, 20_000, config);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "generated for loops: {} programs, {folded} with a two-parameter fold ({same_size} of the same size at --unroll 3 and 20, no bound leaf), {compared_box} box inputs and {compared} leaf and random runs compared with python3",
        progs.len()
    );
    assert!(
        folded * 4 >= progs.len() * 3,
        "only {folded} of {} folded with two parameters",
        progs.len()
    );
    assert!(
        same_size * 4 >= progs.len() * 3,
        "only {same_size} of {} of the same size at --unroll 3 and 20",
        progs.len()
    );
    assert!(compared >= progs.len() * 5, "only {compared} comparisons");
}
