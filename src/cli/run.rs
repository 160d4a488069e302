//! `symdbg run FILE [--tree|--json|--dot] [--counterexamples [--first]] [options]`:
//! explore the whole SET within the bounds and print it.
//!
//! One exploration, four printers: [`tree_text`] (the default), [`json`] (DESIGN.md §3, a
//! public schema), [`dot`] (Graphviz) and [`counterexamples`] (one compiler-style line per
//! exception leaf). The printers only read the tree, except that `--json` and
//! `--counterexamples` ask the engine for models at leaves.

use std::io::Write;
use std::time::Instant;

use super::{Failure, Loaded, RunArgs};
use crate::base::SourceMap;
use crate::engine::{Engine, Limits, Node, NodeId, Outcome, Stop, Strategy};

mod counterexamples;
mod dot;
mod fold_text;
mod json;
mod tree_text;

/// Exit code when `--fail-on-exception` is given and an exception leaf exists.
pub const EXIT_EXCEPTION: i32 = 3;

/// What `run` explored, for the printers.
pub(super) struct Explored {
    pub engine: Engine,
    pub source: SourceMap,
    /// The checked program (for replaying counterexamples concretely).
    pub program: crate::lang::Program,
    pub types: crate::lang::TypeInfo,
    pub stop: Stop,
    /// With `--first`: the exception leaf the exploration stopped at.
    pub first: Option<NodeId>,
    /// When the run started (engine construction included).
    pub started: Instant,
}

impl Explored {
    /// Milliseconds since the run started.
    pub fn elapsed_ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }
}

pub(super) fn run(args: &RunArgs) -> Result<i32, Failure> {
    let loaded = Loaded::read(&args.file)?;
    let started = Instant::now();
    let mut engine = args.explore.engine(&loaded, args.loops, !args.no_frames)?;
    if args.templates {
        let file = args.file.display().to_string();
        print!("{}", fold_text::templates(&file, &loaded.source, &engine));
        return Ok(0);
    }
    let limits = Limits {
        max_nodes: Some(args.explore.max_nodes),
        time: None,
        strategy: if args.bfs {
            Strategy::Bfs
        } else {
            Strategy::Dfs
        },
    };
    let root = engine.tree().root();
    let (stop, first) = if args.first {
        match engine.run_to(root, limits, &is_exception) {
            Ok(leaf) => (Stop::Done, Some(leaf)),
            Err(stop) => (stop, None),
        }
    } else {
        (engine.run(root, limits), None)
    };
    let mut x = Explored {
        engine,
        source: loaded.source,
        program: loaded.program,
        types: loaded.types,
        stop,
        first,
        started,
    };
    // A closed pipe (`symdbg run f --json | head`) is not an error worth a message.
    let mut stdout = std::io::stdout().lock();
    let mut printed_nothing = false;
    if args.json {
        let _ = json::write(&mut x, &mut stdout);
    } else if !args.counterexamples && !args.dot {
        // Streamed: the text of a deep tree is far bigger than the tree.
        let mut out = FmtIo(std::io::BufWriter::new(&mut stdout));
        tree_text::write(&x, &mut out);
        let _ = out.0.flush();
    } else {
        let text = if args.counterexamples {
            counterexamples::render(&mut x)
        } else {
            dot::render(&x)
        };
        printed_nothing = text.is_empty();
        let _ = stdout.write_all(text.as_bytes());
    }
    drop(stdout);
    if stop == Stop::NodeLimit {
        eprintln!(
            "symdbg: stopped at --max-nodes {} (the tree has open nodes left)",
            args.explore.max_nodes
        );
    }
    if args.counterexamples && printed_nothing {
        eprintln!("{}", counterexamples::none_found(&x));
    }
    let has_exception = x.engine.tree().nodes().any(is_exception);
    Ok(if args.fail_on_exception && has_exception {
        EXIT_EXCEPTION
    } else {
        0
    })
}

/// A `fmt::Write` over an `io::Write` (errors such as a closed pipe end the writing).
struct FmtIo<W: Write>(W);

impl<W: Write> std::fmt::Write for FmtIo<W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.write_all(s.as_bytes()).map_err(|_| std::fmt::Error)
    }
}

/// Is `node` an exception leaf?
pub(super) fn is_exception(node: &Node) -> bool {
    matches!(node.outcome(), Some(Outcome::Exception(_)))
}

/// The 1-based line of a node's statement (or of its exception).
pub(super) fn node_line(x: &Explored, id: NodeId) -> Option<usize> {
    x.engine.node_span(id).map(|s| x.source.line(s.start))
}

/// The 1-based line of the statement a node is about to run (`None` at leaves).
pub(super) fn statement_line(x: &Explored, id: NodeId) -> Option<usize> {
    x.engine.tree().node(id).at.map(|s| x.source.line(s.start))
}

/// The text of a 1-based line, trimmed (comments included, control characters escaped).
pub(super) fn line_text(x: &Explored, line: usize) -> String {
    x.source.shown_line(line).trim().to_string()
}
