//! Fold and unroll find the same bugs within the same bounds on the test corpora (issue 31),
//! and fold mode's bugs are real: every exception leaf (class, line) of unroll mode at
//! `--unroll 3` is one of `--fold auto`'s at `--unroll 3` (a fold may find more: bugs past
//! the unrolling bound); fold mode finishes wherever unroll mode does; a fold leaf is
//! `unknown` only where the unrolled tree is undecided too, or it fell back to unrolling
//! (said in the tree); and each fold-mode exception leaf's model, run by python3, raises
//! that class on that line. The CI test takes the fold corpora, the hand-written mutation
//! subjects, the examples and `tests/data/fold_audit` (the audit's programs: descending,
//! reflected, `while i > 0: i -= 1`, negative `range` steps, `while ... else`, nested
//! loops); the ignored campaign every corpus (`cargo test --test it -- --ignored
//! fold_finds_the_bugs_unrolling_finds_on_every_corpus`).

use std::collections::BTreeSet;

use symdbg::base::SourceMap;
use symdbg::session::{Config, FoldMode, Limits, NodeId, Outcome, Policy, Session};

use crate::differential::{py_files, python_output, request, root, spawn_oracle, Inputs, Val};

/// The corpora CI compares (a few minutes in a debug build on a loaded machine).
const CI: [&str; 9] = [
    "tests/data/mutation",
    "examples",
    "tests/data/fold",
    "tests/data/fold_multi",
    "tests/data/fold_for_multi",
    "tests/data/fold_nested",
    "tests/data/model_path",
    "tests/data/fold_audit",
    "tests/data/for",
];

/// The others, for the ignored campaign.
const MORE: [&str; 6] = [
    "tests/data/fold_rec",
    "tests/data/fuzz4",
    "tests/data/fuzz5",
    "tests/data/programs",
    "tests/data/check",
    "tests/data/contracts",
];

/// Each program of `dirs` (relative path, text): its module run and each function as the
/// entry.
fn runs(dirs: &[&str]) -> Vec<(String, String, Option<String>)> {
    let mut out = Vec::new();
    for dir in dirs {
        for p in py_files(&root().join(dir)) {
            let text = std::fs::read_to_string(&p).unwrap();
            let name = format!("{dir}/{}", p.file_name().unwrap().to_string_lossy());
            out.push((name.clone(), text.clone(), None));
            for l in text.lines() {
                if let Some(rest) = l.strip_prefix("def ") {
                    let f = rest.split('(').next().unwrap().trim().to_string();
                    out.push((name.clone(), text.clone(), Some(f)));
                }
            }
        }
    }
    out
}

/// What one complete exploration found.
struct Explored {
    /// Did it finish (no open node: no node limit reached)?
    finished: bool,
    /// The exception leaves' (class, line).
    bugs: BTreeSet<(String, usize)>,
    /// `unknown` leaves that did not fall back to unrolling.
    undecided: Vec<u32>,
    /// An exception leaf's model (the inputs) with its class and line.
    models: Vec<(Inputs, String, usize)>,
}

/// `None` when the program is refused (a parse or type error, a bad entry).
fn explore(text: &str, entry: Option<&str>, fold: FoldMode) -> Option<Explored> {
    let mut config = Config::default();
    config.unroll = 3;
    config.fold = fold;
    // A hang guard: a loaded machine must not turn checks into `unknown`.
    config.timeout_ms = Some(20_000);
    let source = SourceMap::new("t.py", text);
    let mut s = Session::open(source.clone(), entry, config).ok()?;
    let root = s.tree().root();
    let limits = Limits {
        max_nodes: Some(20_000),
        ..Limits::default()
    };
    s.run(root, Policy::Subtree, limits, &|_| {});
    let ids: Vec<NodeId> = s.tree().nodes().map(|n| n.id).collect();
    let finished = !s.tree().nodes().any(|n| n.is_open());
    let mut found = Explored {
        finished,
        bugs: BTreeSet::new(),
        undecided: Vec::new(),
        models: Vec::new(),
    };
    let inputs: Vec<String> = s.inputs().into_iter().map(|(n, _)| n).collect();
    for id in ids {
        let n = s.tree().node(id);
        match n.outcome() {
            Some(Outcome::Exception(class)) => {
                let line = n.exception_at().map_or(0, |sp| source.line(sp.start));
                let class = class.name().to_string();
                found.bugs.insert((class.clone(), line));
                if fold == FoldMode::Auto {
                    if let Ok(m) = s.try_model(id) {
                        let set: Inputs = inputs
                            .iter()
                            .map(|k| (k.clone(), Val::from_value(&m.inputs[k])))
                            .collect();
                        found.models.push((set, class, line));
                    }
                }
            }
            Some(Outcome::Unknown) if s.fallback_node(id).is_none() => found.undecided.push(id.0),
            _ => {}
        }
    }
    Some(found)
}

/// A run's fold-mode bugs for python3: file, entry, each model with its class and line.
type Replays = (String, Option<String>, Vec<(Inputs, String, usize)>);

/// Python can run it: no verification statement (`invariant`, `assume`, contracts, ...).
fn is_python(text: &str) -> bool {
    let words = [
        "invariant",
        "assume",
        "havoc",
        "requires",
        "ensures",
        "@predicate",
        "loop-scope",
        "method-frame",
        "decreases",
    ];
    !words.iter().any(|w| text.contains(w))
}

/// Compare the two modes on every run of `dirs`; the number of runs compared.
fn compare(dirs: &[&str]) -> usize {
    compare_runs(runs(dirs))
}

/// [`compare`] on the given runs (file, text, entry).
fn compare_runs(runs: Vec<(String, String, Option<String>)>) -> usize {
    let mut compared = 0;
    let mut gaps = Vec::new();
    let mut replays: Vec<Replays> = Vec::new();
    for (file, text, entry) in runs {
        let Some(unrolled) = explore(&text, entry.as_deref(), FoldMode::Off) else {
            continue;
        };
        if !unrolled.finished {
            continue;
        }
        let Some(folded) = explore(&text, entry.as_deref(), FoldMode::Auto) else {
            gaps.push(format!("{file} {entry:?}: refused under --fold auto"));
            continue;
        };
        compared += 1;
        let what = format!("{file} {entry:?}");
        if !folded.finished {
            gaps.push(format!("{what}: fold mode did not finish (unroll did)"));
            continue;
        }
        let lost: Vec<_> = unrolled.bugs.difference(&folded.bugs).collect();
        if !lost.is_empty() {
            gaps.push(format!(
                "{what}: fold misses {lost:?} (fold: {:?})",
                folded.bugs
            ));
        }
        if unrolled.undecided.is_empty() && !folded.undecided.is_empty() {
            gaps.push(format!(
                "{what}: fold leaves {:?} unknown without a fallback (unrolling decides)",
                folded.undecided
            ));
        }
        if is_python(&text) && !folded.models.is_empty() {
            replays.push((file, entry, folded.models));
        }
    }
    // A python3 process per run: in one long batch the oracle's recursion depth drifted
    // (a module run recursing 998 deep ended normally there, and raised `RecursionError`
    // as `python3 prog.py` does when asked alone).
    let answers: Vec<serde_json::Value> = replays
        .iter()
        .map(|(file, entry, models)| {
            let sets: Vec<Inputs> = models.iter().map(|m| m.0.clone()).collect();
            let req = request(&root().join(file), entry.as_deref(), &sets, Some(10.0));
            python_output(spawn_oracle(&req)).expect("run_python.py failed")
        })
        .collect();
    let mut replayed = 0;
    for ((file, entry, models), got) in replays.iter().zip(answers) {
        let got = got.as_array().expect("a list of results");
        for ((set, class, line), r) in models.iter().zip(got) {
            replayed += 1;
            let py = (
                r["exception"].as_str().unwrap_or("-").to_string(),
                r["line"].as_u64().unwrap_or(0) as usize,
            );
            if py != (class.clone(), *line) {
                gaps.push(format!(
                    "{file} {entry:?}: fold leaf {class} at line {line} on {} but python3: {}",
                    crate::differential::show_inputs(set),
                    r
                ));
            }
        }
    }
    eprintln!("fold vs unroll: {compared} runs compared, {replayed} fold-mode bugs replayed");
    assert!(
        gaps.is_empty(),
        "{} gaps in {compared} runs:\n{}",
        gaps.len(),
        gaps.join("\n")
    );
    compared
}

#[test]
fn fold_finds_the_bugs_unrolling_finds_on_the_corpora() {
    let compared = compare(&CI);
    assert!(compared >= 150, "only {compared} runs compared");
}

/// A recursion fold below a folded call (`hops_rec`: a hop, then the stepping path
/// folded again) counted the earlier fold's κ calls as one frame: its `RecursionError`
/// exit claimed line 9 where the model's run raised at line 8 (in python3 and in symdbg's
/// interpreter). Found by the campaign below; now such an entry runs classically.
#[test]
fn recursion_errors_below_a_folded_call_replay_in_python() {
    let file = "tests/data/fold_rec/hops_rec.py";
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let compared = compare_runs(vec![(file.to_string(), text, Some("hops_rec".to_string()))]);
    assert_eq!(compared, 1);
}

#[test]
#[ignore = "tens of minutes in a debug build"]
fn fold_finds_the_bugs_unrolling_finds_on_every_corpus() {
    let mut dirs = CI.to_vec();
    dirs.extend(MORE);
    let compared = compare(&dirs);
    assert!(compared >= 500, "only {compared} runs compared");
}

/// The audit corpus is mostly plain Python (replayed in python3 above).
#[test]
fn the_audit_corpus_is_python() {
    let files = py_files(&root().join("tests/data/fold_audit"));
    let python = files
        .iter()
        .filter(|f| is_python(&std::fs::read_to_string(f).unwrap()))
        .count();
    assert!(python >= 25, "{python} of {} programs", files.len());
}
