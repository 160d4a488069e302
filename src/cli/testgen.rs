//! `symdbg testgen FILE [--entry F] [-o OUT] [--format pytest|jsonl] [--new-lines-only]
//! [options]`: one test per leaf ([`crate::testgen`]), and `symdbg exec FILE --replay
//! T.jsonl`.
//!
//! Exit codes: 0, 2 (bad program or usage, a program with verification statements), 3 when
//! a leaf disagrees with the concrete interpreter (an engine bug; the tests keep the
//! concrete result) or, for `--replay`, when a test no longer behaves as recorded.

use std::path::{Component, Path, PathBuf};

use clap::Args;

use super::{ExploreOpts, Failure, Loaded, Loops};
use crate::base::escape::escape;
use crate::files::output::{self, Target};
use crate::files::program::display_name;
use crate::session::{Ended, FoldMode, Limits, Policy, Strategy, Value};
use crate::testgen::{self, jsonl, Header};

/// Exit code for an engine/interpreter disagreement, or a replay that differs.
pub const EXIT_DIFFERS: i32 = 3;

#[derive(Debug, Args)]
pub(super) struct TestgenArgs {
    /// The minipy program (a .py file; `invariant` lines are left out, other verification statements refused)
    file: PathBuf,
    /// Write the tests to OUT (default, or `-o -`: stdout, for a test file in the current directory); the tests find the program by its path relative to OUT's directory
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,
    /// A pytest module, or one JSON object per test (for `symdbg exec FILE --replay OUT`)
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Pytest)]
    format: Format,
    /// Replace OUT even if symdbg did not write it or it is read-only (never the program, never through a symbolic link)
    #[arg(long, requires = "output")]
    force: bool,
    /// Keep only tests whose run executes a line no earlier test executes
    #[arg(long)]
    new_lines_only: bool,
    /// Add boundary tests: per leaf, inputs at each comparison of its path at distance 0 and 1 from where it flips
    #[arg(long)]
    thorough: bool,
    #[command(flatten)]
    explore: ExploreOpts,
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Pytest,
    Jsonl,
}

pub(super) fn testgen(args: &TestgenArgs) -> Result<i32, Failure> {
    let loaded = super::load(&args.file)?;
    let invariants = testgen::has_invariants(&loaded.program);
    let contracts = testgen::contracts::has_contracts(&loaded.program);
    let loaded = python_program(loaded)?;
    let program_path = program_path(&args.file, args.output())?;
    if let Some(target) = args.target() {
        output::check(&target).map_err(|e| refused(&e))?;
    }
    let mut session = args
        .explore
        .check_calls()
        .session(loaded, Loops::Unroll, true)?;
    let limits = Limits {
        max_nodes: Some(args.explore.max_nodes),
        time: None,
        strategy: Strategy::Dfs,
    };
    let root = session.tree().root();
    if session.run(root, Policy::Subtree, limits, &|_| {}).ended == Ended::NodeLimit {
        eprintln!(
            "symdbg: stopped at --max-nodes {} (the nodes left open get no test)",
            args.explore.max_nodes
        );
    }
    let options = testgen::Options {
        new_lines_only: args.new_lines_only,
        thorough: args.thorough,
    };
    let suite = testgen::collect_with(&mut session, &options);
    let text = match args.format {
        Format::Pytest => testgen::pytest::render(
            &suite,
            &Header {
                command: command_line(args),
                bounds: format!(
                    "--unroll {} --recursion {}{}{}",
                    args.explore.unroll,
                    args.explore.recursion,
                    if session.config().fold == FoldMode::Auto {
                        " --fold auto"
                    } else {
                        ""
                    },
                    if session.uses_contracts() {
                        " --calls contract: below a use of a contract, a test only where the \
                         leaf's model reproduces the leaf"
                    } else {
                        ""
                    }
                ),
                program_path,
                invariants,
                contracts,
                ..Header::default()
            },
        ),
        Format::Jsonl => jsonl::render(&suite),
    };
    match args.target() {
        Some(target) => output::write(&target, text.as_bytes()).map_err(|e| refused(&e))?,
        None => super::print(text.as_bytes())?,
    }
    let to = args
        .output()
        .map_or(String::new(), |o| format!(" to {}", display_name(o)));
    eprintln!(
        "symdbg: wrote {}{to}; {} without a test",
        count(suite.tests.len(), "test"),
        count(suite.skipped.len(), "leaf")
    );
    let mut code = 0;
    for t in suite.disagreements() {
        if let Some(f) = t.wrong_kappa() {
            eprintln!(
                "symdbg: engine bug: leaf {} says {}, but its model {} runs the loop at line {} {} times; {} expects the concrete result",
                t.leaf.0,
                f.describe().split(" (but").next().unwrap_or_default(),
                inputs_text(&t.inputs),
                f.loop_line,
                f.real.as_ref().map_or("?".to_string(), |v| v.to_string()),
                t.name
            );
            code = EXIT_DIFFERS;
        }
        let Some(said) = t.disagreement.as_ref().map(|e| e.describe()) else {
            continue;
        };
        eprintln!(
            "symdbg: engine bug: leaf {} says {said}, but its model {} runs concretely as {}; {} expects the concrete result",
            t.leaf.0,
            inputs_text(&t.inputs),
            t.expect.describe(),
            t.name
        );
        code = EXIT_DIFFERS;
    }
    Ok(code)
}

impl TestgenArgs {
    /// `-o OUT`, where `-o -` is standard output (as no `-o`), never a file named `-`.
    fn output(&self) -> Option<&Path> {
        self.output.as_deref().filter(|o| *o != Path::new("-"))
    }

    /// `-o OUT` as a file to write by [`output`]'s rule.
    fn target(&self) -> Option<Target<'_>> {
        Some(Target {
            path: self.output()?,
            kind: match self.format {
                Format::Pytest => output::PYTEST,
                Format::Jsonl => output::JSONL,
            },
            program: Some(&self.file),
            force: self.force,
        })
    }
}

/// A file not written, with the way out.
fn refused(e: &output::WriteError) -> Failure {
    let help = match e {
        output::WriteError::Io { .. } => None,
        _ if e.forceable() => Some("help: `--force` replaces it; or give `-o` another file"),
        _ => Some("help: give `-o` another file"),
    };
    let notes: Vec<String> = help.into_iter().map(str::to_string).collect();
    Failure::plain(e.to_string(), &notes)
}

fn count(n: usize, noun: &str) -> String {
    let noun = match (n, noun) {
        (1, _) => noun.to_string(),
        (_, "leaf") => "leaves".to_string(),
        _ => format!("{noun}s"),
    };
    format!("{n} {noun}")
}

fn inputs_text(inputs: &std::collections::BTreeMap<String, Value>) -> String {
    if inputs.is_empty() {
        "(no inputs)".to_string()
    } else {
        crate::base::bindings::bindings(inputs)
    }
}

/// The program as CPython runs it: refused with verification statements other than
/// `invariant` lines, which are removed (the tests blank them too). Spans are unchanged.
fn python_program(loaded: Loaded) -> Result<Loaded, Failure> {
    testgen::refuse_non_python(&loaded.program)
        .map_err(|d| Failure::diagnostics(&[d], &loaded.source))?;
    if !testgen::has_invariants(&loaded.program) {
        return Ok(loaded);
    }
    let program = testgen::without_invariants(&loaded.program);
    let source = loaded.source.clone();
    loaded
        .with_program(program)
        .map_err(|d| Failure::diagnostics(&d, &source))
}

/// The command for the file's header, with the options that change the tests.
fn command_line(args: &TestgenArgs) -> String {
    let mut s = format!("symdbg testgen {}", args.file.display());
    if let Some(f) = &args.explore.entry {
        s.push_str(&format!(" --entry {f}"));
    }
    for a in &args.explore.assume {
        s.push_str(&format!(" --assume {a:?}"));
    }
    if args.explore.calls == Some(super::Calls::Contract) {
        s.push_str(" --calls contract");
    }
    if args.new_lines_only {
        s.push_str(" --new-lines-only");
    }
    if let Some(o) = args.output() {
        s.push_str(&format!(" -o {}", o.display()));
    }
    crate::base::escape::escape(&s).into_owned()
}

/// The program's path as the test file reaches it: relative to the directory of `output`
/// (or of the current directory, for stdout), with `/` separators.
pub(super) fn program_path(file: &Path, output: Option<&Path>) -> Result<String, Failure> {
    let fail = |what: &Path, e: std::io::Error| {
        Failure::plain(format!("cannot resolve `{}`: {e}", what.display()), &[])
    };
    let program = std::fs::canonicalize(file).map_err(|e| fail(file, e))?;
    let dir = match output.map(|o| o.parent().unwrap_or(Path::new(""))) {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let dir = std::fs::canonicalize(dir).map_err(|e| fail(dir, e))?;
    let rel = relative(&program, &dir);
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    match parts {
        Some(parts) if rel.is_relative() => Ok(parts.join("/")),
        Some(_) => Ok(rel.display().to_string()),
        None => Err(Failure::plain(
            format!(
                "the path of `{}` is not UTF-8: a generated test could not name it",
                file.display()
            ),
            &[],
        )),
    }
}

/// `target` relative to the directory `base` (both absolute); `target` itself when they
/// share no root.
fn relative(target: &Path, base: &Path) -> PathBuf {
    let t: Vec<Component> = target.components().collect();
    let b: Vec<Component> = base.components().collect();
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return target.to_path_buf();
    }
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c.as_os_str());
    }
    out
}

/// `symdbg exec FILE --replay T.jsonl`: run every test of the file concretely and say
/// which still behave as recorded (the program as CPython runs it: without its
/// `invariant` lines, as the tests were generated).
/// Larger `--replay` files are refused unread (testgen's own files are far smaller: a
/// model's tuple has at most `term::MODEL_TUPLE_LIMIT` elements).
pub const MAX_REPLAY_BYTES: u64 = 32 << 20;

/// The text of `path`, refused past `cap` bytes (never read into memory whole).
fn read_capped(path: &Path, cap: u64) -> Result<String, Failure> {
    use std::io::Read;
    let name = display_name(path);
    let cannot = |e: std::io::Error| Failure::plain(format!("cannot read `{name}`: {e}"), &[]);
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > cap {
        return Err(Failure::plain(
            format!("`{name}` is too large: more than {} MiB", cap >> 20),
            &[
                "symdbg replays the JSON lines files that `testgen --format jsonl` writes"
                    .to_string(),
            ],
        ));
    }
    String::from_utf8(bytes).map_err(|_| Failure::plain(format!("`{name}` is not UTF-8 text"), &[]))
}

pub(super) fn replay(file: &Path, tests: &Path) -> Result<i32, Failure> {
    let loaded = python_program(super::load(file)?)?;
    let source = loaded.source.clone();
    let text = read_capped(tests, MAX_REPLAY_BYTES)?;
    let mut out = String::new();
    let (mut same, mut differ) = (0, 0);
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("{}:{}", display_name(tests), n + 1);
        let case = jsonl::parse(line)
            .map_err(|e| Failure::plain(format!("{at}: not a testgen test: {e}"), &[]))?;
        // The preconditions the test was generated under run too.
        let mut with = loaded.clone();
        super::assume(&mut with, case.entry.as_deref(), &case.assume)?;
        let got = jsonl::replay(&with, &case).map_err(|d| {
            let mut f = Failure::plain(format!("{at}: `{}` does not run", escape(&case.test)), &[]);
            f.0.push_str(&Failure::diagnostics(&[d], &source).0);
            f
        })?;
        // The file's names and classes are user text: escaped (`\x1b`), one line per test.
        let said = if got == case.expect {
            same += 1;
            format!("same     {}", case.test)
        } else {
            differ += 1;
            format!(
                "DIFFERS  {} ({}): expected {}, got {}",
                case.test,
                inputs_text(&case.inputs),
                case.expect.describe(),
                got.describe()
            )
        };
        out.push_str(&escape(&said));
        out.push('\n');
    }
    out.push_str(&format!(
        "{}: {same} behave the same, {differ} differ\n",
        count(same + differ, "test")
    ));
    super::print(out.as_bytes())?;
    Ok(if differ > 0 { EXIT_DIFFERS } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        let r = |t: &str, b: &str| relative(Path::new(t), Path::new(b));
        assert_eq!(r("/a/b/p.py", "/a/b"), PathBuf::from("p.py"));
        assert_eq!(r("/a/b/p.py", "/a/c/d"), PathBuf::from("../../b/p.py"));
        assert_eq!(r("/a/p.py", "/a/t"), PathBuf::from("../p.py"));
        assert_eq!(r("/p.py", "/"), PathBuf::from("p.py"));
    }
}
