//! `symdbg run FILE [--tree|--json|--dot] [--counterexamples [--first]] [options]`:
//! explore the whole SET within the bounds and print it.

use std::io::Write;
use std::rc::Rc;
use std::time::Instant;

use super::source::read_source;
use super::{Failure, RunArgs};
use crate::engine::{Config, Engine, Limits, NodeId, Outcome, Stop, Strategy};
use crate::lang::SourceMap;
use crate::transform;

mod tree_text;

/// What `run` explored, for the printers.
pub(super) struct Explored {
    pub engine: Engine,
    pub source: SourceMap,
    pub stop: Stop,
    pub total_ms: f64,
}

pub(super) fn run(args: &RunArgs) -> Result<i32, Failure> {
    let source = read_source(&args.file)?;
    let (program, types, ir) =
        transform::load(&source.text).map_err(|d| Failure::diagnostics(&d, &source))?;
    let mut config = Config::default();
    config.unroll = args.unroll;
    config.recursion = args.recursion;
    config.timeout_ms = (args.timeout_ms > 0).then_some(args.timeout_ms);
    config.frames = !args.no_frames;
    let started = Instant::now();
    let mut engine = Engine::new(
        &program,
        types,
        Rc::clone(&ir),
        args.entry.as_deref(),
        config,
    )
    .map_err(|d| Failure::diagnostics(&[d], &source))?;
    let limits = Limits {
        max_nodes: Some(args.max_nodes),
        time: None,
        strategy: if args.bfs {
            Strategy::Bfs
        } else {
            Strategy::Dfs
        },
    };
    let root = engine.tree().root();
    let stop = if args.first {
        engine.run_until(root, limits, &|_| false);
        Stop::Done
    } else {
        engine.run(root, limits)
    };
    let explored = Explored {
        engine,
        source,
        stop,
        total_ms: started.elapsed().as_secs_f64() * 1000.0,
    };
    let text = tree_text::render(&explored);
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    if stop == Stop::NodeLimit {
        eprintln!(
            "symdbg: stopped at --max-nodes {} (the tree has open nodes left)",
            args.max_nodes
        );
    }
    let has_exception = explored
        .engine
        .tree()
        .nodes()
        .any(|n| matches!(n.outcome(), Some(Outcome::Exception(_))));
    Ok(if args.fail_on_exception && has_exception {
        3
    } else {
        0
    })
}

/// The 1-based line of a node's statement (or of its exception).
pub(super) fn node_line(x: &Explored, id: NodeId) -> Option<usize> {
    x.engine.node_span(id).map(|s| x.source.line(s.start))
}
