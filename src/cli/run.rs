//! `symdbg run FILE [--tree|--json|--dot] [--counterexamples [--first]] [options]`:
//! explore the whole SET within the bounds and print it.
//!
//! One exploration, four printers: [`tree_text`] (the default), [`json`] (DESIGN.md §3, a
//! public schema), [`dot`] (Graphviz) and [`counterexamples`] (one compiler-style line per
//! exception leaf). The printers only read the tree, except that `--json` and
//! `--counterexamples` ask the engine for models at leaves.

use std::io::Write;
use std::time::Instant;

use super::{Failure, RunArgs};
use crate::session::{
    Ended, Explained, Limits, Node, NodeId, Outcome, Policy, Session, Stop, Strategy,
};

mod counterexamples;
mod coverage;
mod dot;
mod json;
mod progress;
mod tree_text;

/// Exit code when `--fail-on-exception` is given and an exception leaf exists.
pub const EXIT_EXCEPTION: i32 = 3;

/// What `run` explored, for the printers.
pub(super) struct Explored {
    pub session: Session,
    pub stop: Stop,
    /// With `--first`: the exception leaf the exploration stopped at.
    pub first: Option<NodeId>,
    /// When the run started (engine construction included).
    pub started: Instant,
    /// With `--explain`: every explanation of the tree.
    pub explained: Option<Explained>,
}

impl Explored {
    /// Milliseconds since the run started.
    pub fn elapsed_ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }
}

pub(super) fn run(args: &RunArgs) -> Result<i32, Failure> {
    let loaded = super::load(&args.file)?;
    let started = Instant::now();
    // `--templates` lists every function's loops: no `--entry` is needed, none suggested.
    let hint = !args.templates;
    let mut session = args
        .explore
        .session_with(loaded, args.loops, !args.no_frames, hint)?;
    if args.templates {
        let file = args.file.display().to_string();
        let text = session.templates_text(&file);
        super::print(text.as_bytes())?;
        return Ok(0);
    }
    coverage::check(args)?;
    let limits = Limits {
        max_nodes: Some(args.explore.max_nodes),
        time: None,
        strategy: if args.bfs {
            Strategy::Bfs
        } else {
            Strategy::Dfs
        },
    };
    let root = session.tree().root();
    let policy = if args.first {
        Policy::FirstException
    } else {
        Policy::Subtree
    };
    let progress = progress::Progress::new(session.live(), args.quiet, args.json);
    let ran = session.run(root, policy, limits, &|nodes| {
        if let Some(p) = &progress {
            p.tick(nodes);
        }
    });
    // (erased before anything else is printed)
    drop(progress);
    let stop = match ran.ended {
        Ended::NodeLimit => Stop::NodeLimit,
        Ended::TimeLimit => Stop::TimeLimit,
        Ended::Cancelled => Stop::Cancelled,
        _ => Stop::Done,
    };
    let mut x = Explored {
        session,
        stop,
        first: if args.first { ran.select } else { None },
        started,
        explained: None,
    };
    if args.explain {
        x.explained = Some(x.session.explain_all());
    }
    // The summary says whether a --recursion cut's concrete run raises RecursionError.
    x.session.replay_cuts();
    // A write error is reported (exit 2); a closed pipe (`symdbg run f --json | head`) is
    // not an error worth a message (see `cli::print`).
    let mut stdout = std::io::stdout().lock();
    let mut printed_nothing = false;
    let written = if args.json {
        json::write(&mut x, &mut stdout)
    } else if args.coverage {
        let text = coverage::summary(&mut x, args);
        stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush())
    } else if !args.counterexamples && !args.dot {
        // Streamed: the text of a deep tree is far bigger than the tree.
        let mut out = FmtIo(std::io::BufWriter::new(&mut stdout), Ok(()));
        tree_text::write(&x, &mut out);
        let flushed = out.0.flush();
        out.1.and(flushed)
    } else {
        let text = if args.counterexamples {
            counterexamples::render(&mut x)
        } else {
            dot::render(&x)
        };
        printed_nothing = text.is_empty();
        stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush())
    };
    drop(stdout);
    super::stdout_result(written)?;
    coverage::write_lcov(&mut x, args)?;
    if stop == Stop::NodeLimit {
        eprintln!(
            "symdbg: stopped at --max-nodes {} (the tree has open nodes left)",
            args.explore.max_nodes
        );
    }
    // (the tree text's summary says it itself)
    if args.counterexamples || args.dot || args.json || args.coverage {
        if let Some(w) = x.session.cuts_warning() {
            eprintln!("symdbg: {w}");
        }
    }
    if args.counterexamples && printed_nothing {
        eprintln!("{}", counterexamples::none_found(&x));
    }
    let has_exception = x.session.tree().nodes().any(is_exception);
    // Everything is written and flushed (stdout above, the lcov file and stderr's lines are
    // unbuffered): the process exits next, so the tree is not freed (issue 30).
    let Explored {
        session, explained, ..
    } = x;
    session.leak_at_exit();
    std::mem::forget(explained);
    Ok(if args.fail_on_exception && has_exception {
        EXIT_EXCEPTION
    } else {
        0
    })
}

/// A `fmt::Write` over an `io::Write` (errors such as a closed pipe end the writing; the
/// first is kept for the caller).
struct FmtIo<W: Write>(W, std::io::Result<()>);

impl<W: Write> std::fmt::Write for FmtIo<W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.write_all(s.as_bytes()).map_err(|e| {
            if self.1.is_ok() {
                self.1 = Err(e);
            }
            std::fmt::Error
        })
    }
}

/// Is `node` an exception leaf?
pub(super) fn is_exception(node: &Node) -> bool {
    matches!(node.outcome(), Some(Outcome::Exception(_)))
}
