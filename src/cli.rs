//! The command line: argument parsing (clap), reading files, printing results.
//!
//! The only stage that does IO. Every failure the user can cause (bad options, unreadable
//! or malformed files, bad inputs) becomes a message on stderr and exit code 2; a run that
//! ends in a program exception is a result (exit code 0). `symdbg FILE [options]` (a file
//! instead of a subcommand) opens the terminal debugger ([`crate::tui`]). Subcommands:
//! - `exec` ([`exec`]): run the concrete interpreter on one input.
//! - `run` ([`run`]): explore the SET with the symbolic engine and print it.
//! - `check` ([`check`]): exhaustiveness and precision against concrete runs.
//! - `testgen` ([`testgen`]): one pytest test (or JSON line) per leaf.
//! - `dap` ([`crate::dap`]): the Debug Adapter Protocol on stdin/stdout.
//! - `diff` ([`diff`]): the inputs on which two versions of a program behave differently.

mod check;
mod command_name;
mod contracts;
mod diff;
mod exec;
mod run;
mod source;
mod testgen;
mod worker;

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::base::SourceMap;
use crate::diagnostics::{render_all, Diagnostic};
use crate::session::{Loaded, Session};

/// Everything runs on a thread with this much stack: the interpreters recurse in Rust,
/// once per minipy call and per nesting level of an expression.
const STACK_SIZE: usize = 512 << 20;

/// Exit code for a bad program or bad usage.
pub const EXIT_USAGE: i32 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "symdbg",
    version,
    about = "An interactive symbolic debugger for minipy, a statically typed subset of Python",
    override_usage = "symdbg FILE [OPTIONS]     (the interactive debugger; ? in it lists the keys)\n       symdbg <COMMAND> FILE [OPTIONS]",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    debug: DebugArgs,
}

/// `symdbg FILE [options]`: the terminal debugger.
#[derive(Debug, Args)]
struct DebugArgs {
    /// The minipy program to debug in the terminal UI
    file: Option<PathBuf>,
    #[command(flatten)]
    explore: ExploreOpts,
    /// How to run loops that have `invariant` lines by default: apply the invariant or unroll them (the debugger lets you pick at each such loop)
    #[arg(long, value_enum, value_name = "MODE", default_value_t = Loops::Invariant)]
    loops: Loops,
    /// Colour theme of the debugger (`t` switches themes while it runs)
    #[arg(long, value_name = "NAME")]
    theme: Option<String>,
    /// Colours the terminal shows; `auto` reads COLORTERM and TERM
    #[arg(long, value_enum, value_name = "DEPTH", default_value_t = Colors::Auto)]
    colors: Colors,
    /// `c` and `r` search for breakpoint hits breadth-first instead of depth-first
    #[arg(long)]
    bfs: bool,
    /// Restore a saved session (breakpoints, explored tree, selection) from this file; `S` saves to it
    #[arg(long, value_name = "FILE")]
    session: Option<PathBuf>,
}

/// `--colors`: the terminal's colour depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Colors {
    Auto,
    Truecolor,
    #[value(name = "256")]
    C256,
    #[value(name = "16")]
    C16,
}

impl Colors {
    fn depth(self) -> crate::tui::color::ColorDepth {
        use crate::tui::color::ColorDepth;
        match self {
            Colors::Auto => ColorDepth::detect(),
            Colors::Truecolor => ColorDepth::TrueColor,
            Colors::C256 => ColorDepth::Ansi256,
            Colors::C16 => ColorDepth::Ansi16,
        }
    }
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run a program concretely on one input, with CPython's semantics
    Exec(ExecArgs),
    /// Explore every path of a program symbolically and print the tree
    Run(RunArgs),
    /// Test the symbolic execution for exhaustiveness and precision against concrete runs
    Check(CheckArgs),
    /// Write one pytest test (or JSON line) per leaf of the tree, with the leaf's inputs
    Testgen(testgen::TestgenArgs),
    /// Explore two versions of a program and report the inputs on which they behave differently
    Diff(diff::DiffArgs),
    /// Serve the Debug Adapter Protocol on stdin/stdout for editors (VS Code, nvim-dap, Helix, Emacs dape)
    Dap,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// The minipy program (a .py file)
    file: PathBuf,
    /// How to run loops that have `invariant` lines: apply the invariant (exhaustive, unbounded) or unroll them like any loop
    #[arg(long, value_enum, value_name = "MODE", default_value_t = Loops::Unroll)]
    loops: Loops,
    /// How many random inputs to run concretely for the exhaustiveness test
    #[arg(long, value_name = "N", default_value_t = 100)]
    runs: usize,
    /// Seed of the random inputs (the same seed gives the same inputs)
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Print `{"exhaustive": {"ok", "counterexample"}, "precise": {...}, "runs": N}`
    #[arg(long)]
    json: bool,
    /// Instead of the exhaustiveness and precision tests: prove the contract (`requires`/`ensures` lines) of every function that has one, as `run --entry f` does
    #[arg(long)]
    contracts: bool,
    /// Explore and test independent subtrees on N threads (the output is the same as with 1)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: u16,
    #[command(flatten)]
    explore: ExploreOpts,
}

/// `--loops`: the transition for loops with invariants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Loops {
    Invariant,
    Unroll,
}

impl From<Loops> for crate::session::LoopMode {
    fn from(l: Loops) -> Self {
        match l {
            Loops::Invariant => crate::session::LoopMode::Invariant,
            Loops::Unroll => crate::session::LoopMode::Unroll,
        }
    }
}

/// The exploration options `run` and `check` share.
#[derive(Debug, Clone, Args)]
struct ExploreOpts {
    /// Analyse a call of FUNC with its parameters as the inputs, after the module's top level ran (`import module; module.FUNC(...)`)
    #[arg(long, value_name = "FUNC")]
    entry: Option<String>,
    /// How many times a loop body may start on one path before the path is cut (a `bound` leaf)
    #[arg(long, value_name = "N", default_value_t = 3)]
    unroll: u32,
    /// How many frames of the same function may be on the call stack before a call of it is cut (a `bound` leaf); 1 allows no recursion
    #[arg(long, value_name = "N", default_value_t = 5)]
    recursion: u32,
    /// Stop exploring when the tree has this many nodes (the step that reaches the limit adds all its children: a branch passes it by one or a few)
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    max_nodes: usize,
    /// Time limit of one solver check in milliseconds (0: none); an undecided check gives an `unknown` leaf
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    timeout_ms: u64,
    /// Fold loops whose iteration path has a template into one node with a parameter κ (the number of iterations); `--unroll` then counts only the iterations that leave the folded path
    #[arg(long, value_enum, value_name = "MODE", default_value_t = Fold::Off)]
    fold: Fold,
    /// Calls of functions with `requires`/`ensures` lines: step into the body (`inline`) or use the contract (`contract`: check the precondition, a fresh result constrained by the postcondition). Default: `contract` when the --entry function has a contract (its proof), else `inline`; for check and testgen always `inline`
    #[arg(long, value_enum, value_name = "MODE")]
    calls: Option<Calls>,
    /// A precondition (repeatable): a minipy condition over the inputs (with --entry: the function's parameters), run as `assume EXPR` before the first statement
    #[arg(long = "assume", value_name = "EXPR", allow_hyphen_values = true)]
    assume: Vec<String>,
}

/// `--fold`: compact symbolic execution of loops (issue 15).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Fold {
    Auto,
    Off,
}

impl From<Fold> for crate::session::FoldMode {
    fn from(f: Fold) -> Self {
        match f {
            Fold::Auto => crate::session::FoldMode::Auto,
            Fold::Off => crate::session::FoldMode::Off,
        }
    }
}

/// `--calls`: the transition at a call of a contracted function (issue 28).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Calls {
    Inline,
    Contract,
}

impl From<Calls> for crate::session::CallMode {
    fn from(c: Calls) -> Self {
        match c {
            Calls::Inline => crate::session::CallMode::Inline,
            Calls::Contract => crate::session::CallMode::Contract,
        }
    }
}

impl ExploreOpts {
    /// For `check` and `testgen`, which compare leaves with concrete runs: calls of
    /// contracted functions are inlined unless `--calls contract` asks for the contracts
    /// (issue 28: leaves below a use are abstract; `check` binds the uses' results to each
    /// run's real call results, see `check/contracts.rs`; `testgen` writes a test only
    /// where a leaf's model reproduces the leaf).
    fn check_calls(&self) -> ExploreOpts {
        ExploreOpts {
            calls: Some(self.calls.unwrap_or(Calls::Inline)),
            ..self.clone()
        }
    }

    /// The session for a loaded program with these options (the `--entry` warning on
    /// stderr first, and the note when no code runs at module level).
    fn session(&self, loaded: Loaded, loops: Loops, frames: bool) -> Result<Session, Failure> {
        self.session_with(loaded, loops, frames, true)
    }

    /// [`ExploreOpts::session`]; `hint`: whether to note that no code runs at module level
    /// (not for `run --templates`, which lists every function's loops without `--entry`).
    fn session_with(
        &self,
        mut loaded: Loaded,
        loops: Loops,
        frames: bool,
        hint: bool,
    ) -> Result<Session, Failure> {
        assume(&mut loaded, self.entry.as_deref(), &self.assume)?;
        if let Some(w) = loaded.entry_warning(self.entry.as_deref()) {
            eprintln!("symdbg: warning: {w}");
        }
        if let Some(note) = loaded.entry_hint(self.entry.as_deref()).filter(|_| hint) {
            eprintln!("symdbg: note: {note}");
        }
        let config = crate::session::Config {
            unroll: self.unroll,
            recursion: self.recursion,
            timeout_ms: (self.timeout_ms > 0).then_some(self.timeout_ms),
            loops: loops.into(),
            frames,
            fold: self.fold.into(),
            calls: self.calls.map(Into::into),
        };
        let source = loaded.source.clone();
        Session::new(loaded, self.entry.as_deref(), config)
            .map_err(|d| Failure::diagnostics(&d, &source))
    }
}

/// Add the `--assume` preconditions to a loaded program (exit 2 with located messages if
/// one is malformed, ill-typed or mentions a name out of scope).
fn assume(loaded: &mut Loaded, entry: Option<&str>, texts: &[String]) -> Result<(), Failure> {
    loaded
        .assume(entry, texts)
        .map_err(|d| Failure::diagnostics(&d, &loaded.source))
}

/// Read, check and lower a program file.
fn load(file: &std::path::Path) -> Result<Loaded, Failure> {
    let source = source::read_source(file)?;
    Loaded::new(source.clone()).map_err(|d| Failure::diagnostics(&d, &source))
}

#[derive(Debug, Args)]
struct RunArgs {
    /// The minipy program (a .py file)
    file: PathBuf,
    /// Print the tree as indented text with the branch conditions (the default)
    #[arg(long, group = "format")]
    tree: bool,
    /// Print the tree as one JSON object: every node with its path condition, store, SMT-LIB and, at leaves, a model
    #[arg(long, group = "format")]
    json: bool,
    /// Print the tree as a Graphviz digraph (`symdbg run F --dot | dot -Tsvg > set.svg`)
    #[arg(long, group = "format")]
    dot: bool,
    /// Print one `file:line:col: Exception for x = 1, y = -1` line per exception leaf, with inputs that raise it
    #[arg(long, conflicts_with = "format")]
    counterexamples: bool,
    /// List each loop with its fold template (the path folded and the closed forms) or why it has none, and stop
    #[arg(long, conflicts_with_all = ["format", "counterexamples"])]
    templates: bool,
    #[command(flatten)]
    explore: ExploreOpts,
    /// Opaque calls (the book's first interpreter): a call is one step
    #[arg(long)]
    no_frames: bool,
    /// How to run loops that have `invariant` lines: apply the invariant (exhaustive, unbounded) or unroll them like any loop
    #[arg(long, value_enum, value_name = "MODE", default_value_t = Loops::Invariant)]
    loops: Loops,
    /// Explore breadth-first instead of depth-first
    #[arg(long)]
    bfs: bool,
    /// With --counterexamples: stop exploring at the first exception leaf and print only it
    #[arg(long, requires = "counterexamples")]
    first: bool,
    /// Exit with code 3 when the explored tree has an exception leaf
    #[arg(long)]
    fail_on_exception: bool,
    /// No progress line on standard error (it is drawn only when standard error is a terminal, and not for --json to a pipe)
    #[arg(long, short)]
    quiet: bool,
    /// Say why (with --tree or --json): where each path condition came from, the pruned branches with their unsat cores, why infeasible and unknown leaves are
    #[arg(long, conflicts_with_all = ["dot", "counterexamples"])]
    explain: bool,
    /// Print which lines and branches some input reaches, none can (unreachable), or the bounds left unexplored, instead of the tree
    #[arg(long, conflicts_with_all = ["format", "counterexamples", "templates", "explain"])]
    coverage: bool,
    /// Also write the coverage as lcov (DA and BRDA records) to FILE, for editors' coverage views and genhtml
    #[arg(long, value_name = "FILE", conflicts_with = "templates")]
    lcov: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct ExecArgs {
    /// The minipy program (a .py file)
    file: PathBuf,
    /// Call FUNC with the inputs as its arguments after the module's top level ran (`import module; module.FUNC(...)`)
    #[arg(long, value_name = "FUNC")]
    entry: Option<String>,
    /// An input value as a Python literal: `x=3`, `x=-2`, `b=True`, `t=(1, 2)`, `t=()`
    #[arg(long = "input", value_name = "NAME=VALUE")]
    inputs: Vec<String>,
    /// Print the result as one JSON object
    #[arg(long)]
    json: bool,
    /// A precondition (repeatable), as for `run`: an input that violates it ends `infeasible`
    #[arg(long = "assume", value_name = "EXPR", allow_hyphen_values = true)]
    assume: Vec<String>,
    /// Exit with code 3 when the run ends in an uncaught exception (for scripts and tests)
    #[arg(long)]
    fail_on_exception: bool,
    /// Run every test of a `symdbg testgen --format jsonl` file and say which still behave as recorded (exit 3 if one differs)
    #[arg(long, value_name = "TESTS", conflicts_with_all = ["entry", "inputs", "json", "assume"])]
    replay: Option<PathBuf>,
}

/// Run the command line on the process arguments; returns the process exit code.
pub fn main() -> i32 {
    let args: Vec<OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == worker::WORKER_ARG) {
        return worker::serve();
    }
    // Hard Z3 queries in a process that can be killed (`solver/isolate.rs`).
    worker::enable();
    let fallback = args.clone();
    let spawned = std::thread::Builder::new()
        .name("symdbg".into())
        .stack_size(STACK_SIZE)
        // One Z3 watchdog for the whole run (time limits, see `solver/interrupt.rs`).
        .spawn(move || crate::session::solver_process::with_watchdog(|| run(args)));
    match spawned {
        // A panic has already printed its message; 101 is Rust's code for it.
        Ok(handle) => handle.join().unwrap_or(101),
        // No thread with a big stack (address-space limits): try on this one.
        Err(_) => run(fallback),
    }
}

/// Run the command line on `args` (the program name first) on the current thread.
pub fn run(args: Vec<OsString>) -> i32 {
    if let Some((message, note)) = command_name::unknown(&args) {
        eprint!("{}", Failure::plain(message, &[note]).0);
        return EXIT_USAGE;
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // Usage errors exit with 2; --help and --version print to stdout and exit 0
            // (2 when stdout cannot take them).
            let printed = e
                .print()
                .and_then(|()| std::io::Write::flush(&mut std::io::stdout()));
            if let Err(Failure(text)) = stdout_result(printed) {
                eprint!("{text}");
                return EXIT_USAGE;
            }
            return e.exit_code();
        }
    };
    // The terminal UI handles its own terminal: a lost stderr message is not its exit code.
    let tui = cli.command.is_none();
    let result = match cli.command {
        Some(Command::Exec(args)) => exec::exec(&args),
        Some(Command::Run(args)) => run::run(&args),
        Some(Command::Check(args)) if args.contracts => contracts::prove_all(&args),
        Some(Command::Check(args)) => check::check(&args),
        Some(Command::Testgen(args)) => testgen::testgen(&args),
        Some(Command::Diff(args)) => diff::diff(&args),
        Some(Command::Dap) => Ok(crate::dap::serve(
            Box::new(std::io::BufReader::new(std::io::stdin())),
            Box::new(std::io::stdout()),
        )),
        None => debug(&cli.debug),
    };
    let code = match result {
        Ok(code) => code,
        Err(Failure(text)) => {
            eprint!("{text}");
            EXIT_USAGE
        }
    };
    // A message stderr could not take (`2>/dev/full`): not a success (issue 22 item 7).
    // No message about it is possible.
    if code == 0 && !tui && crate::STDERR_LOST.load(std::sync::atomic::Ordering::Relaxed) {
        EXIT_USAGE
    } else {
        code
    }
}

/// `symdbg FILE`: read the file (clear errors for unreadable files), then the terminal UI.
fn debug(args: &DebugArgs) -> Result<i32, Failure> {
    let Some(file) = &args.file else {
        let mut cmd = <Cli as clap::CommandFactory>::command();
        let _ = cmd.print_help();
        return Ok(EXIT_USAGE);
    };
    // The stamp before the read: a write during the read shows as a change.
    let stamp = crate::files::program::Stamp::of(file);
    let mut source = source::read_source(file)?;
    let opts = &args.explore;
    // The preconditions travel with the source (the worker applies them, `a`/`A` edit them).
    source.assumptions = opts.assume.clone();
    let files = crate::tui::Files {
        program: Some(file.clone()),
        stamp,
        session: args.session.clone(),
    };
    let setup = crate::tui::Setup {
        source,
        entry: opts.entry.clone(),
        config: crate::session::Config {
            unroll: opts.unroll,
            recursion: opts.recursion,
            timeout_ms: (opts.timeout_ms > 0).then_some(opts.timeout_ms),
            loops: args.loops.into(),
            frames: true,
            fold: opts.fold.into(),
            calls: opts.calls.map(Into::into),
        },
        max_nodes: opts.max_nodes,
        theme: args.theme.clone(),
        colors: args.colors.depth(),
        bfs: args.bfs,
    };
    Ok(crate::tui::run(setup, files))
}

/// Write `text` to stdout and flush it. A write error (a full disk) is a failure: the
/// command says so and exits 2 instead of claiming success; a closed pipe (`| head`) is
/// not worth a message and ends the output quietly.
fn print(text: &[u8]) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    stdout_result(out.write_all(text).and_then(|()| out.flush()))
}

/// The result of writing to stdout as [`print`] judges it.
fn stdout_result(r: std::io::Result<()>) -> Result<(), Failure> {
    match r {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure::plain(
            format!("cannot write to standard output: {e}"),
            &[],
        )),
        _ => Ok(()),
    }
}

/// A failure to report on stderr (already rendered), exit code 2.
#[derive(Debug)]
struct Failure(String);

impl Failure {
    /// Located diagnostics about `source`.
    fn diagnostics(diags: &[Diagnostic], source: &SourceMap) -> Failure {
        Failure(render_all(diags, source, color()))
    }

    /// An error that is not about a place in a file.
    fn plain(message: impl Into<String>, notes: &[String]) -> Failure {
        let mut d = Diagnostic::global(message);
        d.notes = notes.to_vec();
        Failure::diagnostics(&[d], &SourceMap::new("", ""))
    }
}

/// Colour only for a terminal, and not when `NO_COLOR` is set.
fn color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}
