//! Two-parameter recursion templates (issue 27: seed 004 §6 applied to §5.2): a function
//! with two recursive call paths (Figure 4's countIf) folds into one node with κ and λ;
//! its tree is finite (the same at every `--recursion`, no bound leaf); every leaf agrees
//! with the interpreter on a box of inputs and with python3 on its model; the CLI's
//! check, testgen, replay, --explain and JSON work on it; generated two-path programs.

use std::path::PathBuf;

use symdbg::base::ExcClass;
use symdbg::engine::fold::FoldMode;
use symdbg::engine::{Engine, Outcome};

use crate::fold_rec::{agree_on_box, config, ending_leaves, explore, read, DIR};
use crate::util::symdbg;

/// Programs with two call paths whose two-parameter template applies: file, and whether
/// every leaf but `RecursionError` is reached from the box (a negative start's IndexError
/// needs a start the box's entry does not pass).
const TWO: [(&str, bool); 3] = [
    ("count_if_rec.py", true),
    ("score_rec.py", true),
    ("balance_rec.py", true),
];

/// The fold nodes of `e` with two parameters.
fn two_parameter_folds(e: &Engine) -> usize {
    e.tree()
        .nodes()
        .filter(|n| e.fold_at(n.id).is_some_and(|f| f.multi.is_some()))
        .count()
}

#[test]
fn two_path_recursion_folds_agree_with_the_interpreter_on_every_input_of_a_box() {
    for (file, precise) in TWO {
        let (src, entry) = read(file);
        let (folded, reached) = agree_on_box(&src, &entry, 1);
        assert_eq!(two_parameter_folds(&folded), 1, "{file}");
        assert_eq!(folded.stats().folds, 1, "{file}: one fold in all");
        assert_eq!(folded.stats().bounds, 0, "{file}: a bound leaf");
        for leaf in ending_leaves(&folded) {
            let n = folded.tree().node(leaf);
            if n.outcome() == Some(Outcome::Exception(ExcClass::RecursionError))
                || (!precise && n.outcome() == Some(Outcome::Exception(ExcClass::IndexError)))
            {
                continue;
            }
            assert!(
                reached.contains(&leaf),
                "{file}: leaf {} is reached by no input",
                leaf.0
            );
        }
    }
    // Strides that differ (a hop of 2 on one path): the two-parameter fold's checks are
    // beyond Z3 here, the one-parameter template applies instead, still exact.
    let (src, entry) = read("hops_rec.py");
    let (folded, _) = agree_on_box(&src, &entry, 1);
    assert_eq!(two_parameter_folds(&folded), 0);
    assert!(folded.stats().folds >= 1);
}

/// Every satisfiable leaf's model replayed in python3 (outcome, exception, return value;
/// the final variables of the module-level program), and random inputs.
#[test]
fn two_path_recursion_fold_leaves_agree_with_python() {
    let mut files: Vec<PathBuf> = TWO
        .iter()
        .map(|(f, _)| PathBuf::from(DIR).join(f))
        .collect();
    files.push(PathBuf::from(DIR).join("hops_rec.py"));
    files.push(PathBuf::from(DIR).join("count_if_module.py"));
    let compared =
        crate::symbolic::differential_over_with(files, 20_000, config(FoldMode::Auto, 3));
    assert!(compared >= 40, "only {compared} comparisons");
}

#[test]
fn two_path_recursion_folds_do_not_grow_with_the_recursion_bound() {
    for (file, _) in TWO {
        let (src, entry) = read(file);
        let sizes: Vec<usize> = [3, 10, 50]
            .into_iter()
            .map(|r| {
                let e = explore(&src, &entry, FoldMode::Auto, r);
                assert_eq!(e.stats().bounds, 0, "{file} --recursion {r}");
                e.stats().nodes
            })
            .collect();
        assert!(sizes.windows(2).all(|w| w[0] == w[1]), "{file}: {sizes:?}");
        let classic: Vec<usize> = [2, 3, 4]
            .into_iter()
            .map(|r| explore(&src, &entry, FoldMode::Off, r).stats().nodes)
            .collect();
        assert!(
            classic.windows(2).all(|w| w[0] < w[1]),
            "{file}: {classic:?}"
        );
        assert!(sizes[0] < classic[0], "{file}: {sizes:?} vs {classic:?}");
    }
}

/// `--templates`, the fold's label, the call stack (`count_if_rec ×(κ1 + λ1)`), JSON
/// (both parameters, the return phase) and the models: κ1 is the number of matches.
#[test]
fn templates_labels_call_stack_and_json_of_two_path_recursion() {
    let path = format!("{DIR}/count_if_rec.py");
    let (code, out, err) = symdbg(&["run", &path, "--templates"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("two-parameter recursion template: κ calls on path 1 (5 else, 7 then, 8 call) and λ on path 2 (5 else, 7 else, 9 call), in any order"),
        "{out}"
    );
    assert!(out.contains("call phase: i ↦ i + κ + λ"), "{out}");
    assert!(out.contains("return phase: r ↦ r + κ"), "{out}");
    let (code, out, err) = symdbg(&[
        "run", &path, "--entry", "count_if", "--fold", "auto", "--tree",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("fold: κ1 recursive calls of count_if_rec on path 1 (5 else, 7 then, 8 call) and λ1 on path 2 (5 else, 7 else, 9 call), in any order"),
        "{out}"
    );
    // The deepest call raises on the path the deepest frame takes.
    assert!(out.contains("exception RecursionError at line 8"), "{out}");
    assert!(out.contains("exception RecursionError at line 9"), "{out}");
    assert!(out.contains("return  return κ1"), "{out}");
    // The exit runs in one frame standing for κ1 + λ1 + 1 calls.
    let (src, entry) = read("count_if_rec.py");
    let e = explore(&src, &entry, FoldMode::Auto, 3);
    let exit = e
        .tree()
        .nodes()
        .find(|n| e.fold_exit(n.id).is_some() && n.outcome().is_none())
        .expect("an exit inside the function")
        .id;
    let frames: Vec<String> = e.frame_locals(exit).into_iter().map(|(f, _)| f).collect();
    assert_eq!(
        frames.last().map(String::as_str),
        Some("count_if_rec ×(κ1 + λ1)"),
        "{frames:?}"
    );
    let (code, out, err) = symdbg(&[
        "run", &path, "--entry", "count_if", "--fold", "auto", "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let nodes = doc["nodes"].as_array().unwrap();
    let fold = nodes.iter().find(|n| !n["fold"].is_null()).unwrap();
    assert_eq!(fold["fold"]["function"], "count_if_rec");
    assert_eq!(fold["fold"]["lambda"], "λ1");
    assert_eq!(fold["fold"]["returns"], "r ↦ r + κ1");
    assert_eq!(fold["fold"]["closed_forms"]["i"], "i + κ1 + λ1");
    let mut returns = 0;
    for leaf in nodes
        .iter()
        .filter(|n| n["kind"] == "leaf" && n["outcome"] == "return")
    {
        returns += 1;
        let model = &leaf["model"];
        let inputs = model.get("inputs").unwrap_or(model);
        let a: Vec<i64> = inputs["a"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        let x = inputs["x"].as_i64().unwrap();
        let matches = a.iter().filter(|&&v| v == x).count() as i64;
        assert_eq!(leaf["model_params"]["κ1"].as_i64(), Some(matches), "{leaf}");
        assert_eq!(
            leaf["model_params"]["λ1"].as_i64(),
            Some(a.len() as i64 - matches),
            "{leaf}"
        );
        assert_eq!(leaf["model_return_value"].as_i64(), Some(matches), "{leaf}");
    }
    assert_eq!(returns, 1);
}

/// `check`, `testgen` + `exec --replay`, `--counterexamples` and `--explain` on a
/// two-parameter recursion fold.
#[test]
fn check_testgen_replay_and_explain_on_two_path_recursion() {
    let path = format!("{DIR}/count_if_rec.py");
    let (code, out, err) = symdbg(&["check", &path, "--entry", "count_if", "--fold", "auto"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("precise: probably (3 leaves"), "{out}");
    assert!(out.contains("exhaustive: probably"), "{out}");
    let dir = std::env::temp_dir().join(format!("symdbg-rec-two-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tests = dir.join("tests.jsonl");
    let (code, _, err) = symdbg(&[
        "testgen",
        &path,
        "--entry",
        "count_if",
        "--fold",
        "auto",
        "--format",
        "jsonl",
        "-o",
        tests.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let lines = std::fs::read_to_string(&tests).unwrap();
    let count = lines.lines().count();
    assert!(count >= 3, "{lines}");
    let (code, out, err) = symdbg(&["exec", &path, "--replay", tests.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!("{count} tests: {count} behave the same, 0 differ")),
        "{out}"
    );
    let (code, out, err) = symdbg(&[
        "run",
        &path,
        "--entry",
        "count_if",
        "--fold",
        "auto",
        "--counterexamples",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("count_if_rec.py:8:9: RecursionError for a = "),
        "{out}"
    );
    assert!(
        out.contains("count_if_rec.py:9:5: RecursionError for a = "),
        "{out}"
    );
    let (code, out, err) = symdbg(&[
        "run",
        &path,
        "--entry",
        "count_if",
        "--fold",
        "auto",
        "--explain",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let exit = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["fold_exit"].is_string() && n["kind"] != "leaf")
        .expect("an exit inside the function");
    // `i` in the frame after the folded calls comes from the fold's step.
    assert_eq!(exit["store_origins"]["i"]["kind"], "step", "{exit}");
    assert_eq!(exit["store_origins"]["i"]["line"], 5, "{exit}");
}

/// Generated functions with two recursive call paths (a split on an element, an index or
/// a constant parameter; both paths advance `i` by the same step; each path's return
/// phase adds its own constant or invariant parameter; a depth guard `i > 6` as in
/// [`crate::fold_rec`]'s generator), compared with the interpreter on a sample of the box
/// and with python3 leaf by leaf.
fn generated() -> Vec<String> {
    let bases = ["i >= len(t)", "i < 0 or i >= len(t)", "n <= 0"];
    let splits = ["t[i] == 1", "t[i] > 0", "i == 1", "k > n"];
    let updates = [
        ("i + 1", "n", "i + 1", "n"),
        ("i + 1", "n - 1", "i + 1", "n + 2"),
        ("i - 1", "n + 1", "i - 1", "n"),
    ];
    let returns = [
        ("{c1}", "{c2}"),
        ("1 + {c1}", "{c2}"),
        ("{c1} + 3", "{c2} - 2"),
        ("k + {c1}", "{c2}"),
        ("{c1} - k", "n + {c2}"),
    ];
    let exits = ["", "    assert t[i] != -1 or i != 2\n"];
    let mut out = Vec::new();
    let mut k = 0usize;
    for b in bases {
        for (i1, n1, i2, n2) in updates {
            for (r1, r2) in returns {
                k += 1;
                let split = splits[k % splits.len()];
                let e = exits[k % exits.len()];
                let r1 = r1.replace("{c1}", &format!("g(t, {i1}, {n1}, k)"));
                let r2 = r2.replace("{c2}", &format!("g(t, {i2}, {n2}, k)"));
                out.push(format!(
                    "# entry: f\ndef g(t: tuple, i: int, n: int, k: int) -> int:\n    if {b}:\n        \
                     return i + 100 * k\n    if i < 0 or i >= len(t):\n        return -1\n    \
                     if i > 6:\n        return 7\n{e}    if {split}:\n        return {r1}\n    \
                     return {r2}\n\n\ndef f(t: tuple, n: int) -> int:\n    return g(t, 0, n, 2)\n"
                ));
            }
        }
    }
    out
}

#[test]
fn generated_two_path_recursive_programs_agree_with_the_interpreter_and_python() {
    let dir = std::env::temp_dir().join(format!("symdbg-fold-rec-two-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let progs = generated();
    let mut files = Vec::new();
    let mut two = 0;
    for (k, src) in progs.iter().enumerate() {
        let (e, _) = agree_on_box(src, "f", 7);
        two += usize::from(two_parameter_folds(&e) > 0);
        let path = dir.join(format!("rec_two_{k:03}.py"));
        std::fs::write(&path, src).unwrap();
        files.push(path);
    }
    let compared =
        crate::symbolic::differential_over_with(files, 20_000, config(FoldMode::Auto, 3));
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "generated two-path recursive programs: {} programs, {two} with a two-parameter fold, {compared} leaf and random runs compared with python3",
        progs.len()
    );
    assert!(two * 2 >= progs.len(), "only {two} of {}", progs.len());
    assert!(compared >= progs.len() * 5, "only {compared} comparisons");
}
