//! Resume (KeY SED's "resume", gdb's `continue` on every path): explore a node's subtree
//! depth-first (or breadth-first) and stop at the first node, on any path, that is about to
//! run a statement on a breakpoint line, or that is an exception leaf an exception
//! breakpoint asks for.
//!
//! The stop node is left as it is (open at a breakpoint line: the statement has not run);
//! resuming again with the hits reported so far in [`Stops::seen`] steps past it and finds
//! the next hit. Nodes already in the tree are walked too (a hit that was stepped by hand
//! is still a hit), so a search gives the same hits in the same order however much of the
//! subtree existed before.
//!
//! A breakpoint line may carry a condition (a minipy `bool` expression, read in the frame
//! of the statement): the node stops the search only where the condition can hold on its
//! path, asked of Z3 (path condition ∧ condition satisfiable, [`Session::condition_at`]). A
//! condition the solver cannot decide counts as "may hold" and stops, saying so; a
//! condition that does not type-check there stops too, with the error (as gdb does).

use std::collections::{HashSet, VecDeque};
use std::sync::atomic::Ordering;

use super::{CondHolds, Ended, Ran, Session, Stepped};
use crate::base::{ExcClass, Outcome};
use crate::engine::{Limits, NodeId};

/// Which exception leaves stop a resume.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExcStop {
    #[default]
    Off,
    /// Every exception leaf.
    Any,
    /// Exception leaves of this class or a subclass (as `except C:` would catch).
    Class(ExcClass),
}

impl ExcStop {
    /// Does a leaf with this outcome stop the search?
    pub fn stops(self, outcome: Option<Outcome>) -> bool {
        outcome
            .and_then(Outcome::exception)
            .is_some_and(|class| self.matches(class))
    }

    /// Does an exception of `class` stop the search?
    pub fn matches(self, class: ExcClass) -> bool {
        match self {
            ExcStop::Off => false,
            ExcStop::Any => true,
            ExcStop::Class(c) => class.is_subclass_of(c),
        }
    }
}

/// What stops [`Session::resume`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stops {
    /// 1-based breakpoint lines.
    pub lines: Vec<usize>,
    /// Conditions of some of those lines: (line, minipy condition).
    pub conditions: Vec<(usize, String)>,
    pub exceptions: ExcStop,
    /// Which exceptions stop the search where a handler catches them (gdb's `catch
    /// throw`): the node at the `except` line, before the handler runs.
    pub caught: ExcStop,
    /// Hits reported before: walked through, not reported again.
    pub seen: HashSet<NodeId>,
    /// Breadth-first instead of depth-first.
    pub bfs: bool,
}

/// Why a node is a hit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hit {
    Line(usize),
    /// A breakpoint line whose condition can hold on the path; `note`: why it stopped
    /// although that is not known (the solver's reason, or the condition's error).
    Conditional {
        line: usize,
        note: Option<String>,
    },
    Exception(ExcClass),
    /// A handler is about to run: an exception of this class raised on `raised` (a line)
    /// was caught ([`Stops::caught`]).
    Caught {
        class: ExcClass,
        raised: usize,
    },
}

impl Session {
    /// Is `id` a hit for `stops` (ignoring [`Stops::seen`])? A conditional breakpoint asks
    /// the solver.
    pub fn hit(&mut self, id: NodeId, stops: &Stops) -> Option<Hit> {
        let node = self.tree().node(id);
        if let Some(outcome) = node.outcome() {
            if stops.exceptions.stops(Some(outcome)) {
                return outcome.exception().map(Hit::Exception);
            }
            return None;
        }
        if let Some(c) = self
            .engine
            .caught(id)
            .filter(|c| stops.caught.matches(c.class))
        {
            let raised = self.source().line(c.raised.start);
            return Some(Hit::Caught {
                class: c.class,
                raised,
            });
        }
        let line = self.statement_line(id)?;
        if !stops.lines.contains(&line) {
            return None;
        }
        let Some((_, cond)) = stops.conditions.iter().find(|(l, _)| *l == line) else {
            return Some(Hit::Line(line));
        };
        let note = match self.condition_at(id, cond) {
            CondHolds::Holds => None,
            CondHolds::Never => return None,
            // Esc: not a hit; the search stops at its next step.
            CondHolds::Undecided(crate::solver::Unknown::Interrupted) => return None,
            CondHolds::Undecided(r) => Some(format!(
                "the solver could not decide the condition ({r}): it may hold"
            )),
            CondHolds::Error(m) => Some(format!("the condition is not valid here: {m}")),
        };
        Some(Hit::Conditional { line, note })
    }

    /// Explore `from`'s subtree (`from` itself is never a hit) until a node that is a hit
    /// and not in `stops.seen`: `Ended::Breakpoint(line)` or, for an exception leaf,
    /// `Ended::Done` with the leaf selected; `Ended::Done` without a selection when the
    /// subtree is explored and has no new hit. `limits.time` is not read (the session has
    /// no clock): the caller's cancel flag and the node limit bound the search.
    pub fn resume(
        &mut self,
        from: NodeId,
        stops: &Stops,
        limits: Limits,
        progress: &dyn Fn(usize),
    ) -> (Ran, Option<Hit>) {
        let cancel = self.engine.cancel_handle();
        cancel.store(false, Ordering::Relaxed);
        let mut work: VecDeque<NodeId> = VecDeque::new();
        work.push_back(from);
        let stop = |ended| {
            (
                Ran {
                    ended,
                    select: None,
                },
                None,
            )
        };
        while let Some(cur) = if stops.bfs {
            work.pop_front()
        } else {
            work.pop_back()
        } {
            if cur != from && !stops.seen.contains(&cur) {
                if let Some(hit) = self.hit(cur, stops) {
                    let ended = match &hit {
                        Hit::Line(l) | Hit::Conditional { line: l, .. } => Ended::Breakpoint(*l),
                        Hit::Exception(_) => Ended::Done,
                        Hit::Caught { .. } => {
                            Ended::Breakpoint(self.statement_line(cur).unwrap_or_default())
                        }
                    };
                    let ran = Ran {
                        ended,
                        select: Some(cur),
                    };
                    return (ran, Some(hit));
                }
            }
            let node = self.tree().node(cur);
            if node.is_open() {
                if cancel.load(Ordering::Relaxed) {
                    return stop(Ended::Cancelled);
                }
                if limits.max_nodes.is_some_and(|m| self.tree().len() >= m) {
                    return stop(Ended::NodeLimit);
                }
                if self.step(cur, None) == Stepped::Cancelled {
                    return stop(Ended::Cancelled);
                }
                progress(self.tree().len());
            }
            let children = &self.tree().node(cur).children;
            if stops.bfs {
                work.extend(children.iter().copied());
            } else {
                work.extend(children.iter().rev().copied());
            }
        }
        stop(Ended::Done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::SourceMap;
    use crate::engine::Config;

    fn open(src: &str) -> Session {
        Session::open(SourceMap::new("t.py", src), None, Config::default()).unwrap()
    }

    /// Two branches each reaching line 7 (the join), line 4 only on the then-branch, a
    /// ZeroDivisionError on one path and an AssertionError on another.
    const SRC: &str = "\
x: int
y: int
if x > 0:
    z = 1
else:
    z = 2
w = z + y
if y == 3:
    q = 1 // (x - x)
assert w != 100
";

    fn all(s: &mut Session, stops: &mut Stops) -> Vec<(NodeId, Hit)> {
        let root = s.tree().root();
        let mut hits = Vec::new();
        loop {
            let (ran, hit) = s.resume(root, stops, Limits::default(), &|_| {});
            let Some(hit) = hit else {
                assert_eq!(ran.ended, Ended::Done);
                return hits;
            };
            let at = ran.select.unwrap();
            assert!(stops.seen.insert(at), "a hit is reported once");
            hits.push((at, hit));
        }
    }

    #[test]
    fn resume_stops_at_a_breakpoint_on_every_path() {
        let mut s = open(SRC);
        let mut stops = Stops {
            lines: vec![7],
            ..Stops::default()
        };
        let hits = all(&mut s, &mut stops);
        assert_eq!(
            hits.len(),
            2,
            "line 7 on the then- and the else-path: {hits:?}"
        );
        for (at, hit) in &hits {
            assert_eq!(*hit, Hit::Line(7));
            assert_eq!(s.statement_line(*at), Some(7));
        }
        // Depth-first: the first hit is on the first branch (x > 0), whose path condition
        // the second hit's does not share.
        let pc0 = s.engine.path_condition(hits[0].0).len();
        assert!(pc0 >= 1);
        // After the last hit the subtree is explored: no open node remains.
        assert!(s
            .tree()
            .subtree(s.tree().root())
            .iter()
            .all(|&n| !s.tree().node(n).is_open()));
    }

    #[test]
    fn the_first_hit_is_the_first_breakpoint_reached_not_the_first_branch() {
        // Line 6 is on the else-branch only: resume passes the branch point (where the
        // one-path continue stops) and finds it on the second branch.
        let mut s = open(SRC);
        let root = s.tree().root();
        let stops = Stops {
            lines: vec![6],
            ..Stops::default()
        };
        let (ran, hit) = s.resume(root, &stops, Limits::default(), &|_| {});
        assert_eq!(hit, Some(Hit::Line(6)));
        assert_eq!(ran.ended, Ended::Breakpoint(6));
        assert!(
            s.tree().node(ran.select.unwrap()).is_open(),
            "the statement has not run"
        );
    }

    #[test]
    fn exception_breakpoints_any_or_a_class() {
        for (exc, want) in [
            (
                ExcStop::Any,
                vec![ExcClass::ZeroDivisionError, ExcClass::AssertionError],
            ),
            (
                ExcStop::Class(ExcClass::ArithmeticError),
                vec![ExcClass::ZeroDivisionError],
            ),
            (
                ExcStop::Class(ExcClass::AssertionError),
                vec![ExcClass::AssertionError],
            ),
            (ExcStop::Class(ExcClass::IndexError), vec![]),
            (ExcStop::Off, vec![]),
        ] {
            let mut s = open(SRC);
            let mut stops = Stops {
                exceptions: exc,
                ..Stops::default()
            };
            let mut got: Vec<ExcClass> = all(&mut s, &mut stops)
                .into_iter()
                .map(|(at, hit)| {
                    assert!(s.tree().node(at).is_leaf());
                    match hit {
                        Hit::Exception(c) => c,
                        h => panic!("{h:?}"),
                    }
                })
                .collect();
            got.sort_by_key(|c| c.name());
            got.dedup();
            let mut want = want;
            want.sort_by_key(|c| c.name());
            assert_eq!(got, want, "{exc:?}");
        }
    }

    #[test]
    fn caught_exceptions_stop_at_their_handler_only_when_asked() {
        let src = "\
x: int
try:
    q = 10 // x
except ZeroDivisionError:
    q = 0
assert q != 5
";
        // Off (the default): a caught exception is no hit; the leaf is.
        let mut s = open(src);
        let mut stops = Stops {
            exceptions: ExcStop::Any,
            ..Stops::default()
        };
        let hits = all(&mut s, &mut stops);
        assert!(
            hits.iter().all(|(_, h)| matches!(h, Hit::Exception(_))),
            "{hits:?}"
        );
        for (caught, want) in [
            (ExcStop::Any, true),
            (ExcStop::Class(ExcClass::ArithmeticError), true),
            (ExcStop::Class(ExcClass::IndexError), false),
        ] {
            let mut s = open(src);
            let mut stops = Stops {
                caught,
                ..Stops::default()
            };
            let hits = all(&mut s, &mut stops);
            let found: Vec<_> = hits
                .iter()
                .filter(|(_, h)| matches!(h, Hit::Caught { .. }))
                .collect();
            assert_eq!(found.len(), usize::from(want), "{caught:?}: {hits:?}");
            if let Some((at, hit)) = found.first() {
                assert_eq!(
                    *hit,
                    Hit::Caught {
                        class: ExcClass::ZeroDivisionError,
                        raised: 3
                    }
                );
                assert_eq!(s.statement_line(*at), Some(4), "the except line");
                assert!(!s.tree().node(*at).is_leaf());
            }
        }
    }

    #[test]
    fn bfs_and_dfs_find_the_same_hits_and_limits_stop() {
        let mut a = open(SRC);
        let mut b = open(SRC);
        let mut sa = Stops {
            lines: vec![9, 10],
            ..Stops::default()
        };
        let mut sb = Stops {
            bfs: true,
            ..sa.clone()
        };
        let mut ha: Vec<_> = all(&mut a, &mut sa).into_iter().map(|(_, h)| h).collect();
        let mut hb: Vec<_> = all(&mut b, &mut sb).into_iter().map(|(_, h)| h).collect();
        assert_eq!(ha.len(), hb.len());
        ha.sort_by_key(|h| format!("{h:?}"));
        hb.sort_by_key(|h| format!("{h:?}"));
        assert_eq!(ha, hb);
        // The node limit stops the search with nothing selected.
        let mut s = open(SRC);
        let root = s.tree().root();
        let limits = Limits {
            max_nodes: Some(3),
            ..Limits::default()
        };
        let (ran, hit) = s.resume(root, &Stops::default(), limits, &|_| {});
        assert_eq!((ran.ended, hit), (Ended::NodeLimit, None));
    }
}
