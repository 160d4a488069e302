//! Issue 29 on the fold corpora (`tests/data/fold*`) and the examples: coverage under
//! `--fold auto` against python3's line tracing and against the unfolded tree.
//!
//! For every program (and every entry function of a corpus file), explored in full under
//! both `--fold auto` and `--fold off`:
//! - no line or `then`/`enter` direction marked `unreachable` is executed by python3 on the
//!   leaves' models, random inputs or bounded-exhaustive inputs (the comparison of
//!   [`crate::coverage::compare`]);
//! - every line marked `reached` or `exception-only` is executed by some leaf's model or
//!   some fold witness (an input that runs a folded path at least once);
//! - the two trees never disagree on reached against unreachable, and where both are
//!   complete (nothing `unexplored`) they classify every line alike;
//! - a folded tree that is complete leaves no folded body line `unexplored` (the count of
//!   such files is asserted, so the precision is measured, not assumed).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use symdbg::session::{Config, LineCoverage};

use crate::coverage::{compare, explore_with, trace, Case};

/// A corpus program: its path, source and entry (`None`: the module).
struct Program {
    path: PathBuf,
    src: String,
    entry: Option<String>,
}

/// The fold corpora's and the examples' programs, with their entries: the `# entry: f`
/// line; else the module when it declares inputs; else every function that is not a
/// `@predicate`.
fn programs() -> Vec<Program> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "fold",
        "fold_multi",
        "fold_for_multi",
        "fold_nested",
        "fold_rec",
    ] {
        for e in std::fs::read_dir(root.join("tests/data").join(dir)).unwrap() {
            files.push(e.unwrap().path());
        }
    }
    files.extend(crate::util::examples().into_iter().map(|e| root.join(e)));
    files.retain(|p| p.extension().is_some_and(|x| x == "py"));
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        // (python3 cannot run the book's `loop-scope` nor check an `ensures`)
        if src.contains("loop-scope(") || src.contains("    ensures ") {
            continue;
        }
        let named = src
            .lines()
            .find_map(|l| l.strip_prefix("# entry: ").map(|e| e.trim().to_string()));
        let declares = src.lines().any(|l| {
            l.split_once(':').is_some_and(|(name, ty)| {
                !name.is_empty()
                    && name.chars().all(|c| c.is_alphanumeric() || c == '_')
                    && ["int", "bool", "tuple"].contains(&ty.trim())
            })
        });
        let entries: Vec<Option<String>> = match named {
            Some(e) => vec![Some(e)],
            None if declares => vec![None],
            None => {
                let lines: Vec<&str> = src.lines().collect();
                (0..lines.len())
                    .filter_map(|k| {
                        let name = lines[k].strip_prefix("def ")?.split('(').next()?;
                        let predicate = k > 0 && lines[k - 1].starts_with("@predicate");
                        (!predicate).then(|| Some(name.to_string()))
                    })
                    .collect()
            }
        };
        for entry in entries {
            out.push(Program {
                path: path.clone(),
                src: src.clone(),
                entry,
            });
        }
    }
    out
}

fn config(fold: bool) -> Config {
    let mut c = Config::default();
    if fold {
        c.fold = symdbg::engine::fold::FoldMode::Auto;
    }
    c
}

fn reached(c: LineCoverage) -> bool {
    c.is_reached()
}

#[test]
fn fold_corpora_folded_coverage_agrees_with_python3_and_the_unfolded_tree() {
    let programs = programs();
    assert!(programs.len() > 60, "{} programs", programs.len());
    let inputs: Vec<(String, Option<String>)> = programs
        .iter()
        .map(|p| (p.src.clone(), p.entry.clone()))
        .collect();
    // (deep recursions and nested folds need a large stack in debug builds)
    let cases: Vec<(Case, Case)> = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || {
            let mut rng = symdbg::base::rng::SplitMix64::new(0xc0_0429);
            inputs
                .into_iter()
                .map(|(src, entry)| {
                    let on =
                        explore_with(src.clone(), entry.as_deref(), config(true), 5_000, &mut rng);
                    let off = explore_with(src, entry.as_deref(), config(false), 5_000, &mut rng);
                    (on, off)
                })
                .collect()
        })
        .unwrap()
        .join()
        .expect("exploration panicked");
    let flat: Vec<&Case> = cases.iter().flat_map(|(a, b)| [a, b]).collect();
    let owned: Vec<Case> = flat.iter().map(|c| (*c).clone()).collect();
    let traced = trace(&owned);
    let mut failures = Vec::new();
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    for (k, p) in programs.iter().enumerate() {
        let name = format!(
            "{}{}",
            p.path
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap()
                .display(),
            p.entry
                .as_deref()
                .map(|e| format!(" --entry {e}"))
                .unwrap_or_default()
        );
        let (on, off) = &cases[k];
        for (mode, c, t) in [
            ("auto", on, &traced[2 * k]),
            ("off", off, &traced[2 * k + 1]),
        ] {
            for f in compare(c, t) {
                failures.push(format!("{name} --fold {mode}: {f}"));
            }
            for s in c.coverage().lines.values() {
                *tally.entry(format!("{mode} {}", s.name())).or_default() += 1;
            }
            *tally.entry(format!("{mode} runs")).or_default() += t.len();
            *tally.entry(format!("{mode} fold witnesses")).or_default() += c.witnesses();
            for (line, s) in &c.coverage().lines {
                if *s == LineCoverage::Unexplored {
                    eprintln!("{name} --fold {mode}: line {line} unexplored");
                }
            }
        }
        let (a, b) = (&on.coverage().lines, &off.coverage().lines);
        assert_eq!(
            a.keys().collect::<Vec<_>>(),
            b.keys().collect::<Vec<_>>(),
            "{name}: the counted lines"
        );
        let both_complete = on.coverage().complete() && off.coverage().complete();
        for (line, &x) in a {
            let y = b[line];
            if reached(x) && y == LineCoverage::Unreachable
                || x == LineCoverage::Unreachable && reached(y)
            {
                failures.push(format!(
                    "{name}:{line}: folded {}, unfolded {}",
                    x.name(),
                    y.name()
                ));
            }
            if both_complete && x != y {
                failures.push(format!(
                    "{name}:{line}: folded {}, unfolded {}",
                    x.name(),
                    y.name()
                ));
            }
        }
        if on.coverage().complete() {
            *tally.entry("auto complete".into()).or_default() += 1;
        }
        if both_complete {
            *tally.entry("both complete".into()).or_default() += 1;
        }
    }
    eprintln!(
        "fold corpora coverage: {} programs, {tally:?}",
        programs.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    let n = |k: &str| tally.get(k).copied().unwrap_or(0);
    assert!(n("auto reached") > 200, "{tally:?}");
    assert!(n("auto runs") > 2_000, "{tally:?}");
    // The folds were there: inputs that run a folded path, none without folding.
    assert!(n("auto fold witnesses") > 50, "{tally:?}");
    assert_eq!(n("off fold witnesses"), 0, "{tally:?}");
}
