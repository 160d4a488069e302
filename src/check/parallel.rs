//! `symdbg check --jobs N`: step 1 of docs/PARALLEL.md. N worker threads, each with its
//! own [`Session`] (engine, Z3 context, watchdog) built from the source text: terms are
//! `Rc` and Z3 objects thread-local, so only `Send` data ([`super::merge`]: node ids,
//! behaviours and values, whose tuples are `Arc`s) crosses threads.
//!
//! 1. *Top.* Every worker explores the same top of the tree breadth-first, until
//!    [`FRONTIER_PER_WORKER`]·N nodes are open or the tree ends (a tree that never gets
//!    that wide, such as a linear search's comb, is explored whole by each worker). The
//!    exploration is deterministic, so every worker holds the same top tree with the same
//!    ids; the main thread checks that the shapes agree.
//! 2. *Units*, claimed from a shared counter: each frontier node's subtree (explored
//!    depth-first as the sequential run does, then its candidates and leaves tested), then
//!    chunks of the top tree's own leaves. A unit's node is named by its *route* (the child
//!    indices from the root, `Session::path_to`); `Session::walk` steps the route's nodes that are not in the worker's
//!    tree yet, with the engine's ordinary (solver-checked) steps, since the engine has no
//!    step without feasibility checks. Because each worker explored the top itself, a
//!    frontier route is always there already: the price of re-deriving is the top's
//!    exploration once per worker, in parallel.
//! 3. *Merge* ([`super::merge`]): sequential ids from the top's shape and the subtree sizes,
//!    then the sequential loops over the inputs and the leaves in id order.
//!
//! When the parallel result might differ from `--jobs 1`, it is not used ([`Redo`]) and the
//! caller checks on one thread: `--max-nodes` reached (which nodes the sequential run cuts
//! depends on its order), an `unknown` leaf other than an engine limit (Z3's answer may
//! depend on the solver's history, a timeout on the load), a leaf whose model run
//! disagrees (the counterexample prints a model, which may depend on the history too),
//! a solver call that took at least half its time limit (answered here, it may time out
//! on one thread: issue 31), workers that explored different tops, a worker that panicked
//! or could not start.
//!
//! Cancelling (the `cancel` flag) reaches every worker: the main thread relays it to each
//! worker's engine cancel flag until the workers stop (that also interrupts a Z3 check).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::merge::{self, Found, HitOut, IdMap, InputOut, TopShape};
use super::{Behaviour, InputRun, LeafCheck, Options, Report, Undecided};
use crate::base::SourceMap;
use crate::session::{Candidate, Config, Loaded, Model, NodeId, Session};

mod explore;

use explore::{explore_subtree, explore_top, has_solver_unknown, stopped};

/// The frontier the top exploration aims for, per worker (more units balance better; each
/// costs a little more top exploration in every worker).
pub const FRONTIER_PER_WORKER: usize = 8;

/// Trees up to this many nodes are checked on one thread: starting the workers (a Z3
/// context and a session each) costs more than they save (`examples/clamp.py`: 35 → 70 ms).
pub const SEQUENTIAL_BELOW: usize = 128;

/// Top leaves per chunk: the top's candidates are split into this many chunks per worker.
const CHUNKS_PER_WORKER: usize = 8;

/// What a worker needs to build its own session: plain data.
#[derive(Clone, Debug)]
pub struct Recipe {
    /// The program's text, with the `--assume` texts.
    pub source: SourceMap,
    pub entry: Option<String>,
    pub config: Config,
}

impl Recipe {
    /// The recipe of an (unexplored) session.
    pub fn of(session: &Session) -> Recipe {
        Recipe {
            source: session.source().clone(),
            entry: session.entry().map(str::to_string),
            config: session.config().clone(),
        }
    }

    /// A fresh session (the message of the first diagnostic if the program no longer
    /// loads, which cannot happen for a recipe of a session).
    pub fn session(&self) -> Result<Session, String> {
        let failed = |d: Vec<crate::diagnostics::Diagnostic>| {
            d.first().map_or_else(String::new, |d| d.message.clone())
        };
        let mut loaded = Loaded::new(self.source.clone()).map_err(failed)?;
        let texts = self.source.assumptions.clone();
        loaded
            .assume(self.entry.as_deref(), &texts)
            .map_err(failed)?;
        Session::new(loaded, self.entry.as_deref(), self.config.clone()).map_err(failed)
    }
}

/// How to run the workers.
#[derive(Clone, Copy, Debug)]
pub struct Jobs {
    /// Worker threads (at least 2 to be worth it; 1 works too).
    pub workers: usize,
    /// `--max-nodes`.
    pub max_nodes: usize,
    /// Each worker's stack (the interpreters recurse in Rust).
    pub stack_size: usize,
    /// Tests: the last worker panics once its session is built.
    pub panic_in_worker: bool,
}

/// Why the parallel result was not used: check on one thread instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Redo {
    /// `--max-nodes` was reached.
    NodeLimit,
    /// A solver `unknown` leaf (timeout or otherwise), or a leaf without a model.
    Unknown,
    /// A solver call took at least half its time limit (`SolverStats::close_calls`): one
    /// thread, with its own history and load, may time out on it.
    CloseCall,
    /// A leaf's model run disagrees with the leaf (the model may depend on Z3's history).
    Disagrees,
    /// The workers' top trees differ.
    Diverged,
    /// Two leaves' path conditions hold under one input, and the units stopped testing
    /// inputs too early to say which is first.
    Overlap,
    /// A worker panicked (its message) or could not start.
    Worker(String),
}

/// The result of [`check`].
#[derive(Clone, Debug)]
pub enum Parallel {
    /// The report `--jobs 1` gives.
    Done(Box<Report>),
    /// Check on one thread instead.
    Redo(Redo),
    /// Stopped through the cancel flag.
    Cancelled,
}

/// State the workers share.
struct Shared {
    /// The next unit to claim.
    next: AtomicUsize,
    /// The first input at which a unit found its leaf disagreeing with the run.
    first_failure: AtomicUsize,
    /// Nodes created below the frontier, all workers together.
    below: AtomicUsize,
    /// Stop: a limit was hit, a worker failed, or the caller cancelled.
    abort: AtomicBool,
    cancel: Arc<AtomicBool>,
    /// Every worker's engine cancel flag (the main thread relays `abort`/`cancel` to them).
    engines: Mutex<Vec<Arc<AtomicBool>>>,
}

impl Shared {
    fn stopped(&self) -> bool {
        self.abort.load(Ordering::Relaxed) || self.cancel.load(Ordering::Relaxed)
    }
}

/// Why a worker stopped early.
enum Halt {
    Redo(Redo),
    Cancelled,
    /// Another worker stopped everyone (its reason is the one reported).
    Stopped,
}

/// One unit's findings.
struct UnitOut {
    /// The inputs `0..inputs_done` were tested (the rest are past a failure).
    inputs_done: usize,
    hits: Vec<HitOut>,
    /// (input, some candidate undecided under it).
    undecided: Vec<usize>,
    leaves: Vec<(u32, LeafCheck)>,
}

/// One worker's findings.
struct WorkerOut {
    top: TopShape,
    /// Subtrees explored: (frontier index, first id, end, size with the frontier node).
    subtrees: Vec<(usize, u32, u32)>,
    units: Vec<UnitOut>,
    inputs: Option<Vec<InputOut>>,
}

/// Test `session`'s program as [`super::check_with`] does after exploring the whole tree,
/// on `jobs.workers` threads. `recipe` builds each worker's session.
pub fn check(
    recipe: &Recipe,
    options: &Options,
    jobs: &Jobs,
    cancel: &Arc<AtomicBool>,
) -> Parallel {
    let workers = jobs.workers.max(1);
    let shared = Shared {
        next: AtomicUsize::new(0),
        first_failure: AtomicUsize::new(usize::MAX),
        below: AtomicUsize::new(0),
        abort: AtomicBool::new(false),
        cancel: cancel.clone(),
        engines: Mutex::new(Vec::new()),
    };
    let results: Vec<Result<WorkerOut, Halt>> = std::thread::scope(|s| {
        let mut handles = Vec::new();
        for w in 0..workers {
            let shared = &shared;
            let spawned = std::thread::Builder::new()
                .name(format!("symdbg-check-{w}"))
                .stack_size(jobs.stack_size)
                .spawn_scoped(s, move || {
                    let panic = jobs.panic_in_worker && w + 1 == workers;
                    let run = || {
                        crate::session::solver_process::with_watchdog(|| {
                            worker(w, workers, shared, recipe, options, jobs, panic)
                        })
                    };
                    catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|p| {
                        shared.abort.store(true, Ordering::Relaxed);
                        let msg = p
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| p.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "no message".to_string());
                        Err(Halt::Redo(Redo::Worker(format!(
                            "worker {w} panicked: {msg}"
                        ))))
                    })
                });
            match spawned {
                Ok(h) => handles.push(h),
                Err(e) => {
                    shared.abort.store(true, Ordering::Relaxed);
                    return vec![Err(Halt::Redo(Redo::Worker(format!(
                        "cannot start a worker thread: {e}"
                    ))))];
                }
            }
        }
        // Relay a stop to every engine (a step or a Z3 check in progress) until all end.
        while !handles.iter().all(|h| h.is_finished()) {
            if shared.stopped() {
                for flag in shared
                    .engines
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .iter()
                {
                    flag.store(true, Ordering::Relaxed);
                }
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(Halt::Redo(Redo::Worker("a worker panicked".to_string())))
                })
            })
            .collect()
    });
    if cancel.load(Ordering::Relaxed) {
        return Parallel::Cancelled;
    }
    match gather(results, workers) {
        Ok(outs) => merge_outs(options, jobs, outs),
        Err(p) => p,
    }
}

/// Every worker's output, or why there is none. A failed worker is the reason whatever
/// the others say: its failure stops them (the `abort` flag), and a worker stopped in
/// the middle of a subtree reports that as a node limit. Which of them stops first
/// depends on the scheduling, the reason must not.
fn gather(
    results: Vec<Result<WorkerOut, Halt>>,
    workers: usize,
) -> Result<Vec<WorkerOut>, Parallel> {
    let mut outs = Vec::new();
    let mut why: Option<Redo> = None;
    for r in results {
        match r {
            Ok(out) => outs.push(out),
            Err(Halt::Cancelled) => return Err(Parallel::Cancelled),
            Err(Halt::Redo(w)) => {
                if why.is_none()
                    || matches!(w, Redo::Worker(_)) && !matches!(why, Some(Redo::Worker(_)))
                {
                    why = Some(w);
                }
            }
            Err(Halt::Stopped) => {}
        }
    }
    if outs.len() < workers {
        let why = why.unwrap_or(Redo::Worker("a worker stopped".to_string()));
        return Err(Parallel::Redo(why));
    }
    Ok(outs)
}

fn merge_outs(options: &Options, jobs: &Jobs, outs: Vec<WorkerOut>) -> Parallel {
    let top = &outs[0].top;
    if outs.iter().any(|o| o.top != *top) {
        return Parallel::Redo(Redo::Diverged);
    }
    let mut sizes = vec![0usize; top.frontier.len()];
    for o in &outs {
        for &(j, start, end) in &o.subtrees {
            sizes[j] = (end - start) as usize + 1;
        }
    }
    if sizes.contains(&0) {
        return Parallel::Redo(Redo::Diverged);
    }
    // The sequential run completes (and the trees are the same) if the whole tree stays
    // under --max-nodes; otherwise which nodes it cuts depends on its order.
    let total = top.children.len() + sizes.iter().map(|s| s - 1).sum::<usize>();
    if total >= jobs.max_nodes {
        return Parallel::Redo(Redo::NodeLimit);
    }
    let (top_ids, base) = merge::sequential_ids(top, &sizes);
    let Some(inputs) = outs.iter().find_map(|o| o.inputs.clone()) else {
        return Parallel::Redo(Redo::Diverged);
    };
    let complete = outs
        .iter()
        .flat_map(|o| &o.units)
        .map(|u| u.inputs_done)
        .min()
        .unwrap_or(inputs.len());
    let mut found = Found {
        hits: vec![(Vec::new(), false); inputs.len()],
        inputs,
        complete,
        leaves: Vec::new(),
    };
    for o in &outs {
        let map = IdMap {
            top: &top_ids,
            base: &base,
            subtrees: &o.subtrees,
        };
        for u in &o.units {
            for h in &u.hits {
                found.hits[h.input]
                    .0
                    .push((map.get(h.node), h.undecided, h.symbolic.clone()));
            }
            for &i in &u.undecided {
                found.hits[i].1 = true;
            }
            for (l, c) in &u.leaves {
                found.leaves.push((map.get(*l), c.clone()));
            }
        }
    }
    // A claiming leaf is satisfiable: no model means the solver gave up (a timeout),
    // which depends on the load and the solver's history.
    if found
        .leaves
        .iter()
        .any(|(_, c)| matches!(c, LeafCheck::NoModel))
    {
        return Parallel::Redo(Redo::Unknown);
    }
    let Some(report) = merge::report(options, found) else {
        return Parallel::Redo(Redo::Overlap);
    };
    if report.precise.is_some() {
        return Parallel::Redo(Redo::Disagrees);
    }
    Parallel::Done(Box::new(report))
}

/// The per-input data of one worker: the inputs, their runs and models (made once).
struct Inputs {
    sent: Vec<InputOut>,
    runs: Vec<Option<(u64, Model, Behaviour)>>,
}

fn inputs_of(session: &Session, options: &Options) -> Inputs {
    let mut sent = Vec::new();
    let mut runs = Vec::new();
    for inputs in super::random_inputs(session, options.runs, options.seed) {
        let (run, data) = match super::input_run(session, &inputs) {
            InputRun::Skipped => (None, None),
            InputRun::Unfinished => (Some(None), None),
            InputRun::Ran(b, limit) => (
                Some(Some(b.clone())),
                Some((limit, session.input_model(&inputs), b)),
            ),
        };
        sent.push(InputOut { inputs, run });
        runs.push(data);
    }
    Inputs { sent, runs }
}

fn worker(
    w: usize,
    workers: usize,
    shared: &Shared,
    recipe: &Recipe,
    options: &Options,
    jobs: &Jobs,
    panic: bool,
) -> Result<WorkerOut, Halt> {
    let mut session = recipe.session().map_err(|e| Halt::Redo(Redo::Worker(e)))?;
    let engine_cancel = session.cancel_handle();
    shared
        .engines
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(engine_cancel.clone());
    if panic {
        panic!("SYMDBG_TEST_WORKER_PANIC is set");
    }
    let top = explore_top(&mut session, shared, workers, jobs.max_nodes)?;
    close_call(&session, shared)?;
    let top_len = top.children.len() as u32;
    let routes: Vec<Vec<u32>> = top
        .frontier
        .iter()
        .map(|&f| session.path_to(NodeId(f)))
        .collect();
    let frontier: std::collections::BTreeSet<u32> = top.frontier.iter().copied().collect();
    // The top's own candidates: its leaves (the frontier is explored by the units).
    let is_top = |id: NodeId| id.0 < top_len && !frontier.contains(&id.0);
    let top_candidates = super::candidates(&session, is_top);
    let chunk = top_candidates
        .len()
        .div_ceil(CHUNKS_PER_WORKER * workers)
        .max(1);
    let chunks: Vec<&[Candidate]> = top_candidates.chunks(chunk).collect();
    let units = routes.len() + chunks.len();
    let mut inputs: Option<Inputs> = None;
    let mut out = WorkerOut {
        top,
        subtrees: Vec::new(),
        units: Vec::new(),
        inputs: None,
    };
    loop {
        if shared.cancel.load(Ordering::Relaxed) {
            return Err(Halt::Cancelled);
        }
        if shared.abort.load(Ordering::Relaxed) {
            return Err(Halt::Stopped);
        }
        let u = shared.next.fetch_add(1, Ordering::Relaxed);
        if u >= units {
            break;
        }
        let (candidates, leaves) = if u < routes.len() {
            let f = session.walk(&routes[u]).ok_or(Halt::Redo(Redo::Diverged))?;
            let start = session.tree().len() as u32;
            explore_subtree(&mut session, f, shared, jobs.max_nodes, &engine_cancel)?;
            let end = session.tree().len() as u32;
            out.subtrees.push((u, start, end));
            let inside = |id: NodeId| id.0 >= start && id.0 < end;
            if has_solver_unknown(&session, start..end) {
                shared.abort.store(true, Ordering::Relaxed);
                return Err(Halt::Redo(Redo::Unknown));
            }
            (
                super::candidates(&session, inside),
                super::claiming_leaves(&session, inside),
            )
        } else {
            let c = chunks[u - routes.len()].to_vec();
            let ids: std::collections::BTreeSet<NodeId> = c.iter().map(|c| c.id).collect();
            let leaves = super::claiming_leaves(&session, |id| ids.contains(&id));
            (c, leaves)
        };
        let inputs = inputs.get_or_insert_with(|| inputs_of(&session, options));
        out.units.push(test_unit(
            &mut session,
            &candidates,
            &leaves,
            inputs,
            options,
            shared,
        )?);
        close_call(&session, shared)?;
    }
    out.subtrees.sort_by_key(|s| s.1);
    if w == 0 && inputs.is_none() {
        inputs = Some(inputs_of(&session, options));
    }
    out.inputs = inputs.map(|i| i.sent);
    Ok(out)
}

/// A solver call of this worker came close to its time limit (issue 31): its answer, and
/// so the report, may differ on one thread: stop every worker, check on one thread.
fn close_call(session: &Session, shared: &Shared) -> Result<(), Halt> {
    if session.stats().solver.close_calls > 0 {
        shared.abort.store(true, Ordering::Relaxed);
        return Err(Halt::Redo(Redo::CloseCall));
    }
    Ok(())
}

/// Both tests on one unit's candidates and claiming leaves.
fn test_unit(
    session: &mut Session,
    candidates: &[Candidate],
    leaves: &[NodeId],
    inputs: &Inputs,
    options: &Options,
    shared: &Shared,
) -> Result<UnitOut, Halt> {
    let is_entry = session.entry().is_some();
    let mut out = UnitOut {
        inputs_done: 0,
        hits: Vec::new(),
        undecided: Vec::new(),
        leaves: Vec::new(),
    };
    for (i, run) in inputs.runs.iter().enumerate() {
        if candidates.is_empty() {
            break;
        }
        // Past an input where some unit's leaf disagrees with the run, the sequential
        // test has stopped (unless another unit's earlier leaf also holds there: the
        // merge then finds this unit's inputs missing and the check is re-done).
        if i > shared.first_failure.load(Ordering::Relaxed) {
            break;
        }
        out.inputs_done = i + 1;
        let Some((limit, model, concrete)) = run else {
            continue;
        };
        let hits = super::holding(session, candidates, model, *limit);
        if hits.any_undecided {
            out.undecided.push(i);
        }
        for (id, m) in hits.all {
            let undecided = super::undecided_leaf(session, id);
            let symbolic = super::leaf_behaviour(session, id, &m, is_entry);
            let skipped = undecided && options.undecided == Undecided::Skip;
            if !skipped && symbolic.as_ref().is_some_and(|b| b != concrete) {
                shared.first_failure.fetch_min(i, Ordering::Relaxed);
            }
            out.hits.push(HitOut {
                input: i,
                node: id.0,
                undecided,
                symbolic,
            });
        }
    }
    if candidates.is_empty() {
        out.inputs_done = inputs.runs.len();
    }
    for &leaf in leaves {
        if shared.stopped() {
            return Err(stopped(shared));
        }
        let verdict = super::precision(session, leaf, is_entry);
        // (a model query close to its time limit: stop everyone now)
        close_call(session, shared)?;
        out.leaves.push((leaf.0, verdict));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panicked worker is the reason even when another worker, stopped by it in the
    /// middle of a subtree, comes first with a node limit (a loaded machine's scheduling).
    #[test]
    fn a_failed_worker_is_the_reason_whoever_stops_first() {
        let panicked = || Err(Halt::Redo(Redo::Worker("worker 1 panicked".into())));
        for results in [
            vec![Err(Halt::Redo(Redo::NodeLimit)), panicked()],
            vec![Err(Halt::Stopped), panicked()],
            vec![panicked(), Err(Halt::Redo(Redo::Unknown))],
        ] {
            match gather(results, 2) {
                Err(Parallel::Redo(Redo::Worker(w))) => assert!(w.contains("panicked"), "{w}"),
                Err(other) => panic!("{other:?}"),
                Ok(_) => panic!("outputs"),
            }
        }
        // Without a failed worker the first reason stands.
        let results = vec![
            Err(Halt::Redo(Redo::Unknown)),
            Err(Halt::Redo(Redo::NodeLimit)),
        ];
        assert!(matches!(
            gather(results, 2),
            Err(Parallel::Redo(Redo::Unknown))
        ));
    }
}
