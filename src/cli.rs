//! The command line: argument parsing (clap), reading files, printing results.
//!
//! The only stage that does IO. Every failure the user can cause (bad options, unreadable
//! or malformed files, bad inputs) becomes a message on stderr and exit code 2; a run that
//! ends in a program exception is a result (exit code 0). Subcommands:
//! - `exec` ([`exec`]): run the concrete interpreter on one input.

mod exec;
mod source;

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::diagnostics::{render_all, Diagnostic};
use crate::lang::SourceMap;

/// Everything runs on a thread with this much stack: the interpreters recurse in Rust,
/// once per minipy call and per nesting level of an expression.
const STACK_SIZE: usize = 512 << 20;

/// Exit code for a bad program or bad usage.
pub const EXIT_USAGE: i32 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "symdbg",
    version,
    about = "An interactive symbolic debugger for minipy, a statically typed subset of Python"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run a program concretely on one input, with CPython's semantics
    Exec(ExecArgs),
}

#[derive(Debug, Args)]
struct ExecArgs {
    /// The minipy program (a .py file)
    file: PathBuf,
    /// Run function FUNC alone (only the module's `def`s run) with its parameters as the inputs
    #[arg(long, value_name = "FUNC")]
    entry: Option<String>,
    /// An input value as a Python literal: `x=3`, `x=-2`, `b=True`, `t=(1, 2)`, `t=()`
    #[arg(long = "input", value_name = "NAME=VALUE")]
    inputs: Vec<String>,
    /// Print the result as one JSON object
    #[arg(long)]
    json: bool,
}

/// Run the command line on the process arguments; returns the process exit code.
pub fn main() -> i32 {
    let args: Vec<OsString> = std::env::args_os().collect();
    let fallback = args.clone();
    let spawned = std::thread::Builder::new()
        .name("symdbg".into())
        .stack_size(STACK_SIZE)
        .spawn(move || run(args));
    match spawned {
        // A panic has already printed its message; 101 is Rust's code for it.
        Ok(handle) => handle.join().unwrap_or(101),
        // No thread with a big stack (address-space limits): try on this one.
        Err(_) => run(fallback),
    }
}

/// Run the command line on `args` (the program name first) on the current thread.
pub fn run(args: Vec<OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // Usage errors exit with 2; --help and --version print to stdout and exit 0.
            let _ = e.print();
            return e.exit_code();
        }
    };
    let result = match cli.command {
        Command::Exec(args) => exec::exec(&args),
    };
    match result {
        Ok(code) => code,
        Err(Failure(text)) => {
            eprint!("{text}");
            EXIT_USAGE
        }
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
