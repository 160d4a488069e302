//! `symdbg diff OLD.py NEW.py [--entry F] [options] [--json] [--pytest OUT]` (issue 29):
//! the classes of inputs on which two programs behave differently
//! ([`crate::session::diff`]), each with a witness both programs ran concretely;
//! `--pytest` writes regression tests pinning OLD's behaviour
//! ([`crate::testgen::regression`]) by the rule of [`crate::files::output`].
//!
//! Exit codes: 0 no difference (within the bounds), 1 a difference, 2 an error.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;

use super::{ExploreOpts, Failure, Loops};
use crate::files::output::{self, Target};
use crate::files::program::display_name;
use crate::session::{diff, Behaviour, DiffReport, Limits, Policy, Session, Strategy, Value};
use crate::testgen::{self, regression, Header};

/// Exit code when the programs differ.
pub const EXIT_DIFFERENT: i32 = 1;

#[derive(Debug, Args)]
pub(super) struct DiffArgs {
    /// The program before the edit
    old: PathBuf,
    /// The program after the edit (the same inputs)
    new: PathBuf,
    /// Print `{"differences": [{"input", "old", "new", "differs"}], "bounded": bool, "undecided": N}`
    #[arg(long)]
    json: bool,
    /// Write pytest regression tests pinning OLD's behaviour to OUT: one per difference (fails on NEW) and some on inputs where both agree; they run NEW, or the program `SYMDBG_PROGRAM` names
    #[arg(long, value_name = "OUT")]
    pytest: Option<PathBuf>,
    /// Replace OUT even if symdbg did not write it or it is read-only (never OLD or NEW, never through a symbolic link)
    #[arg(long, requires = "pytest")]
    force: bool,
    #[command(flatten)]
    explore: ExploreOpts,
}

fn explore(args: &DiffArgs, file: &std::path::Path, which: &str) -> Result<Session, Failure> {
    let loaded = super::load(file)?;
    let mut session = args
        .explore
        .session(loaded, Loops::Unroll, true)
        .map_err(|f| in_program(f, which, file))?;
    let limits = Limits {
        max_nodes: Some(args.explore.max_nodes),
        time: None,
        strategy: Strategy::Dfs,
    };
    let root = session.tree().root();
    session.run(root, Policy::Subtree, limits, &|_| {});
    Ok(session)
}

pub(super) fn diff(args: &DiffArgs) -> Result<i32, Failure> {
    if let Some(out) = &args.pytest {
        // Refused before the work: OUT is neither program (nor a file symdbg did not write).
        for program in [&args.old, &args.new] {
            output::check(&target(args, out, program)).map_err(|e| refused(&e))?;
        }
    }
    let mut old = explore(args, &args.old, "OLD")?;
    let mut new = explore(args, &args.new, "NEW")?;
    let report = diff::diff(&mut old, &mut new).map_err(|m| Failure::plain(m, &[]))?;
    let (old_name, new_name) = (display_name(&args.old), display_name(&args.new));
    if let Some(out) = &args.pytest {
        write_pytest(args, out, &mut old, &mut new, &report)?;
    }
    let text = if args.json {
        json(&report)
    } else {
        text(&report, &old_name, &new_name)
    };
    super::print(text.as_bytes())?;
    Ok(if report.differences.is_empty() {
        0
    } else {
        EXIT_DIFFERENT
    })
}

/// A message about one of the two programs that does not name it (`--entry f` is not a
/// function of NEW): which one, as a last note.
fn in_program(f: Failure, which: &str, file: &Path) -> Failure {
    let name = file.display().to_string();
    if f.0.contains(&name) {
        return f;
    }
    Failure(format!("{}\n = in {which}: {name}\n\n", f.0.trim_end()))
}

/// `--pytest OUT`: OUT as a file to write by [`output`]'s rule, `program` never replaced.
fn target<'a>(args: &'a DiffArgs, out: &'a Path, program: &'a Path) -> Target<'a> {
    Target {
        path: out,
        kind: output::PYTEST,
        program: Some(program),
        force: args.force,
    }
}

fn refused(e: &output::WriteError) -> Failure {
    let help = match e {
        output::WriteError::Io { .. } => None,
        _ if e.forceable() => Some("help: `--force` replaces it; or give `--pytest` another file"),
        _ => Some("help: give `--pytest` another file"),
    };
    let notes: Vec<String> = help.into_iter().map(str::to_string).collect();
    Failure::plain(e.to_string(), &notes)
}

/// `--pytest OUT`: the regression tests, run against NEW (python3 runs the programs: not
/// with verification statements other than `invariant` lines, which the tests blank).
fn write_pytest(
    args: &DiffArgs,
    out: &Path,
    old: &mut Session,
    new: &mut Session,
    report: &DiffReport,
) -> Result<(), Failure> {
    for s in [&*old, &*new] {
        testgen::refuse_non_python(s.program()).map_err(|d| {
            Failure::plain(
                format!("--pytest: {}", d.message),
                &["help: python3 cannot run the program; diff without --pytest".to_string()],
            )
        })?;
        if testgen::contracts::has_contracts(s.program()) {
            return Err(Failure::plain(
                "--pytest: the regression tests do not support `requires`/`ensures` lines yet",
                &[
                    "help: diff without --pytest; `symdbg testgen` writes tests of each version"
                        .to_string(),
                ],
            ));
        }
    }
    let names = (display_name(&args.old), display_name(&args.new));
    let suite = regression::suite(old, new, report, (&names.0, &names.1));
    let mut command = format!("symdbg diff {} {}", args.old.display(), args.new.display());
    if let Some(f) = &args.explore.entry {
        command.push_str(&format!(" --entry {f}"));
    }
    command.push_str(&format!(" --pytest {}", out.display()));
    let changed = report.differences.len();
    let about = format!(
        "# Regression tests pinning the behaviour of the old program (--unroll {} --recursion {}).\n\
         #   old: {}\n\
         #   new: {}\n\
         # test_changed*: a witness of each class of inputs ({changed}) on which the new program\n\
         # behaves differently: they fail on it until it behaves as the old one did. test_kept*:\n\
         # inputs on which both behave the same. Expected results: symdbg's concrete interpreter\n\
         # (CPython's semantics) on the old program. The tests run the new program;\n\
         # SYMDBG_PROGRAM=PATH runs them on another version.\n",
        args.explore.unroll, args.explore.recursion, names.0, names.1
    );
    let header = Header {
        command: crate::base::escape::escape(&command).into_owned(),
        program_path: super::testgen::program_path(&args.new, Some(out))?,
        invariants: testgen::has_invariants(old.program())
            || testgen::has_invariants(new.program()),
        about: Some(crate::base::escape::escape_text(&about).into_owned()),
        program_env: true,
        ..Header::default()
    };
    let text = testgen::pytest::render(&suite, &header);
    output::write(&target(args, out, &args.old), text.as_bytes()).map_err(|e| refused(&e))?;
    let kept = suite.tests.len().saturating_sub(
        suite
            .tests
            .iter()
            .filter(|t| t.name.starts_with("test_changed"))
            .count(),
    );
    let changed_tests = suite.tests.len() - kept;
    eprintln!(
        "symdbg: wrote {} to {} ({changed_tests} pinning a changed behaviour, {kept} a kept one)",
        if suite.tests.len() == 1 {
            "1 test".to_string()
        } else {
            format!("{} tests", suite.tests.len())
        },
        display_name(out)
    );
    Ok(())
}

fn text(r: &DiffReport, old: &str, new: &str) -> String {
    let mut out = String::new();
    if r.differences.is_empty() {
        out.push_str(&format!("{old} and {new}: no difference"));
    } else {
        let n = r.differences.len();
        let classes = if n == 1 { "class" } else { "classes" };
        let _ = writeln!(out, "{old} and {new} differ on {n} {classes} of inputs:");
        for d in &r.differences {
            let _ = writeln!(
                out,
                "  {}  (leaves {} and {})",
                diff::difference_line(d, old, new),
                d.old_leaf.0,
                d.new_leaf.0
            );
        }
    }
    if r.differences.is_empty() {
        out.push_str(if r.bounded {
            " within the bounds (equivalent only up to the bounds: paths were cut by --unroll, --recursion, --max-nodes or the solver)\n"
        } else {
            ": the programs behave the same on every input\n"
        });
    } else if r.bounded {
        out.push_str("(paths were cut: more differences may lie beyond the bounds)\n");
    }
    if r.undecided > 0 {
        let _ = writeln!(
            out,
            "({} classes of inputs the solver could not decide)",
            r.undecided
        );
    }
    out
}

fn value_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Int(i) => serde_json::from_str(&i.to_string()).unwrap_or(serde_json::Value::Null),
        Value::Bool(b) => serde_json::Value::Bool(*b),
        Value::Tuple(t) => serde_json::Value::Array(
            t.iter()
                .map(|i| serde_json::from_str(&i.to_string()).unwrap_or(serde_json::Value::Null))
                .collect(),
        ),
    }
}

fn behaviour_json(b: &Behaviour) -> serde_json::Value {
    serde_json::json!({
        "outcome": b.outcome,
        "exception": b.exception,
        "line": b.line,
        "return_value": b.return_value.as_ref().map(value_json),
        "store": b.store.iter().map(|(k, v)| (k.clone(), value_json(v))).collect::<serde_json::Map<_, _>>(),
        "stdout": b.stdout,
    })
}

fn json(r: &DiffReport) -> String {
    let differences: Vec<serde_json::Value> = r
        .differences
        .iter()
        .map(|d| {
            serde_json::json!({
                "input": d.inputs.iter().map(|(k, v)| (k.clone(), value_json(v))).collect::<serde_json::Map<_, _>>(),
                "old": behaviour_json(&d.old),
                "new": behaviour_json(&d.new),
                "differs": d.what,
                "old_leaf": d.old_leaf.0,
                "new_leaf": d.new_leaf.0,
            })
        })
        .collect();
    let v = serde_json::json!({
        "differences": differences,
        "bounded": r.bounded,
        "undecided": r.undecided,
    });
    format!("{v}\n")
}
