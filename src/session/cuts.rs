//! Bounds that may hide bugs: how many paths `--unroll` and `--recursion` cut (their
//! `bound` leaves, told apart by the leaf's tag), for `run`'s summary and the TUI's status
//! line. A cut path was not explored to its end, so an exception past the bound is not in
//! the tree.
//!
//! A path cut by `--recursion` is also replayed ([`Session::replay_cuts`]): its model run
//! concretely, with CPython's recursion limit (1,000 frames, as `python3` has it). A replay
//! that raises `RecursionError` is a real bug past the bound — the recursion does not end
//! for that input (or not within Python's limit) — and the summary names its input. A
//! larger `--recursion` cannot find it; a larger `--unroll` or `--fold` may reach what an
//! unrolling cut hides.

use std::collections::BTreeMap;

use super::Session;
use crate::base::ExcClass;
use crate::concrete;
use crate::engine::{Cut, NodeId, Outcome, Tag};

/// At most this many `--recursion` cuts are replayed per session (each needs a model).
pub const MAX_REPLAYS: usize = 8;

/// Work budget of one replay (a recursion 1,000 deep takes a few thousand steps).
const REPLAY_STEPS: u64 = 1_000_000;

/// The replays of `--recursion` cuts so far: per leaf, the inputs (`n = -1`) when the
/// replay raised `RecursionError`, `None` when it ended otherwise or had no model.
pub type Replays = BTreeMap<NodeId, Option<String>>;

/// `bound` leaves per bound.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cuts {
    pub unroll: usize,
    pub recursion: usize,
    /// Paths cut at [`crate::engine::CONCRETE_LOOP_LIMIT`] iterations of a loop whose
    /// guard is a constant (`while True:`).
    pub concrete: usize,
    /// Of the `--recursion` cuts, how many were replayed and how many of those raise
    /// `RecursionError` when run.
    pub replayed: usize,
    pub recursion_error: usize,
    /// The inputs of the first replay that raised `RecursionError` (`n = -1`).
    pub example: Option<String>,
}

impl Cuts {
    /// "3 paths cut by --unroll 8: try a larger bound or --fold; 1 path cut by --recursion
    /// 5 raises RecursionError when run (n = -1)", or `None` when no path was cut.
    /// `unroll`, `recursion`: the bounds in force; `fold`: `--fold` is on already.
    pub fn warning(&self, unroll: u32, recursion: u32, fold: bool) -> Option<String> {
        let paths = |n: usize| if n == 1 { "path" } else { "paths" };
        let mut parts = Vec::new();
        if self.unroll > 0 {
            let n = self.unroll;
            let more = if fold { "" } else { " or --fold" };
            parts.push(format!(
                "{n} {} cut by --unroll {unroll}: try a larger bound{more}",
                paths(n)
            ));
        }
        if self.recursion > 0 {
            let n = self.recursion;
            let mut text = format!("{n} {} cut by --recursion {recursion}", paths(n));
            let e = self.recursion_error;
            if e == 0 {
                text.push_str(": try a larger bound");
            } else {
                let verb = if e == 1 { "raises" } else { "raise" };
                let who = if n == 1 {
                    " raises".to_string()
                } else if e == n {
                    " all raise".to_string()
                } else if self.replayed == n {
                    format!(", {e} of which {verb}")
                } else {
                    format!(", {e} of the {} replayed {verb}", self.replayed)
                };
                let example = self
                    .example
                    .as_ref()
                    .map_or(String::new(), |x| format!(" ({x})"));
                text = format!("{text}{who} RecursionError when run{example}");
            }
            parts.push(text);
        }
        if self.concrete > 0 {
            let n = self.concrete;
            parts.push(format!(
                "{n} {} cut after {} iterations of a loop whose condition is a constant \
                 (it may never end)",
                paths(n),
                crate::diagnostics::thousands(crate::engine::CONCRETE_LOOP_LIMIT.into())
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

impl Session {
    /// The `bound` leaves cut by `--recursion`, in node order.
    fn recursion_cuts(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.tree()
            .nodes()
            .filter(|n| {
                n.outcome() == Some(Outcome::Bound)
                    && matches!(n.tag, Some(Tag::Bound(Cut::Recursion)))
            })
            .map(|n| n.id)
    }

    /// Count the `bound` leaves of the tree by the bound that cut them, with what the
    /// replays so far ([`Session::replay_cuts`]) found.
    pub fn cuts(&self) -> Cuts {
        let mut cuts = Cuts::default();
        for node in self.tree().nodes() {
            if node.outcome() != Some(Outcome::Bound) {
                continue;
            }
            match node.tag {
                Some(Tag::Bound(Cut::Recursion)) => cuts.recursion += 1,
                Some(Tag::Bound(Cut::Concrete)) => cuts.concrete += 1,
                // (every other bound leaf is a loop's unrolling bound)
                _ => cuts.unroll += 1,
            }
        }
        for id in self.recursion_cuts() {
            if let Some(found) = self.cut_replays.get(&id) {
                cuts.replayed += 1;
                if let Some(inputs) = found {
                    cuts.recursion_error += 1;
                    cuts.example.get_or_insert_with(|| inputs.clone());
                }
            }
        }
        cuts
    }

    /// Replay the `--recursion` cuts not replayed yet (at most [`MAX_REPLAYS`] in all): run
    /// each one's model concretely and keep whether it raises `RecursionError` (a replay
    /// recurses up to 1,000 frames deep: the CLI's and the TUI worker's threads have big
    /// stacks; 512 KiB sufficed in a debug build).
    pub fn replay_cuts(&mut self) {
        let todo: Vec<NodeId> = self
            .recursion_cuts()
            .filter(|id| !self.cut_replays.contains_key(id))
            .take(MAX_REPLAYS.saturating_sub(self.cut_replays.len()))
            .collect();
        let config = concrete::Config {
            max_steps: REPLAY_STEPS,
            ..concrete::Config::default()
        };
        for id in todo {
            let found = match self.replay(id, None, &config) {
                Ok(r) if r.run.outcome == Outcome::Exception(ExcClass::RecursionError) => {
                    Some(crate::base::bindings::bindings(&r.inputs))
                }
                _ => None,
            };
            self.cut_replays.insert(id, found);
        }
    }

    /// [`Cuts::warning`] with this session's bounds.
    pub fn cuts_warning(&self) -> Option<String> {
        let config = self.engine.config();
        self.cuts().warning(
            config.unroll,
            config.recursion,
            config.fold != crate::engine::fold::FoldMode::Off,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::SourceMap;
    use crate::engine::{Config, Limits};
    use crate::session::Policy;

    fn explored(src: &str, config: Config) -> Session {
        let mut s = Session::open(SourceMap::new("t.py", src), None, config).unwrap();
        let root = s.tree().root();
        s.run(root, Policy::Subtree, Limits::default(), &|_| {});
        s
    }

    /// Run `f` on a thread with a big stack (a replay may recurse 1,000 frames deep).
    fn big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap()
    }

    #[test]
    fn bound_leaves_are_counted_by_the_bound_that_cut_them() {
        let lp = "n: int\ni = 0\nwhile i < n:\n    i = i + 1\nassert i != 7\n";
        let config = Config {
            unroll: 3,
            ..Config::default()
        };
        let s = explored(lp, config);
        assert_eq!((s.cuts().unroll, s.cuts().recursion), (1, 0));
        assert_eq!(
            s.cuts_warning().as_deref(),
            Some("1 path cut by --unroll 3: try a larger bound or --fold")
        );
        // The bug at i == 7 is past the bound: the warning is what tells the user.
        assert!(s
            .tree()
            .nodes()
            .all(|n| n.outcome().and_then(Outcome::exception).is_none()));
        let rec = "def f(k: int) -> int:\n    if k <= 0:\n        return 0\n    return f(k - 1)\nn: int\nr = f(n)\n";
        let config = Config {
            recursion: 2,
            ..Config::default()
        };
        let s = explored(rec, config);
        let cuts = s.cuts();
        assert_eq!((cuts.unroll, cuts.recursion), (0, 1), "{cuts:?}");
        assert_eq!(
            s.cuts_warning().as_deref(),
            Some("1 path cut by --recursion 2: try a larger bound")
        );
        // No bound leaf: no warning.
        let s = explored("x: int\nif x > 0:\n    x = 1\n", Config::default());
        assert_eq!(s.cuts_warning(), None);
    }

    #[test]
    fn the_warning_names_each_bound_and_what_replays_found() {
        let cuts = |unroll, recursion, replayed, recursion_error, example: Option<&str>| Cuts {
            unroll,
            recursion,
            replayed,
            recursion_error,
            example: example.map(str::to_string),
            concrete: 0,
        };
        assert_eq!(
            cuts(2, 3, 3, 0, None).warning(8, 5, false).as_deref(),
            Some(
                "2 paths cut by --unroll 8: try a larger bound or --fold; \
                 3 paths cut by --recursion 5: try a larger bound"
            )
        );
        // With --fold on already, only the larger bound is left to try.
        assert_eq!(
            cuts(1, 0, 0, 0, None).warning(3, 5, true).as_deref(),
            Some("1 path cut by --unroll 3: try a larger bound")
        );
        assert_eq!(
            cuts(0, 1, 1, 1, Some("n = -1"))
                .warning(3, 5, false)
                .as_deref(),
            Some("1 path cut by --recursion 5 raises RecursionError when run (n = -1)")
        );
        assert_eq!(
            cuts(0, 3, 3, 1, Some("n = -1"))
                .warning(3, 5, false)
                .as_deref(),
            Some(
                "3 paths cut by --recursion 5, 1 of which raises RecursionError when run (n = -1)"
            )
        );
        assert_eq!(
            cuts(0, 2, 2, 2, Some("n = -1"))
                .warning(3, 5, false)
                .as_deref(),
            Some("2 paths cut by --recursion 5 all raise RecursionError when run (n = -1)")
        );
        assert_eq!(
            cuts(0, 20, 8, 2, Some("n = -1"))
                .warning(3, 5, false)
                .as_deref(),
            Some(
                "20 paths cut by --recursion 5, 2 of the 8 replayed raise RecursionError \
                 when run (n = -1)"
            )
        );
        assert_eq!(Cuts::default().warning(3, 5, false), None);
    }

    #[test]
    fn a_recursion_cut_whose_replay_never_ends_is_named_with_its_input() {
        big_stack(|| {
            // f(k) ends only at k == 0: any negative n recurses past Python's limit.
            let src = "def f(k: int) -> int:\n    if k == 0:\n        return 0\n    \
                       return 1 + f(k - 1)\nn: int\nr = f(n)\n";
            let config = Config {
                recursion: 3,
                ..Config::default()
            };
            let mut s = explored(src, config);
            assert_eq!(s.cuts().recursion, 1);
            // Not replayed yet: the plain count.
            assert_eq!(s.cuts().replayed, 0);
            s.replay_cuts();
            let cuts = s.cuts();
            assert_eq!((cuts.replayed, cuts.recursion_error), (1, 1), "{cuts:?}");
            // The cut path needs n, n - 1, n - 2 nonzero; the minimal model (smallest |n|)
            // is n = -1, which counts down forever.
            let example = cuts.example.clone().unwrap();
            let n: i64 = example.strip_prefix("n = ").unwrap().parse().unwrap();
            assert!(n < 0, "{example}");
            // CPython agrees: f(n) for that n raises RecursionError (the interpreter's limit
            // is CPython's 1,000 frames).
            let w = s.cuts_warning().unwrap();
            assert!(w.contains("raises RecursionError when run (n = "), "{w}");
            // A second call replays nothing new.
            s.replay_cuts();
            assert_eq!(s.cuts(), cuts);
        });
    }

    #[test]
    fn a_recursion_cut_whose_replay_ends_is_only_counted() {
        big_stack(|| {
            // f(k) ends for every k: the cut hides no RecursionError.
            let src = "def f(k: int) -> int:\n    if k <= 0:\n        return 0\n    \
                       return f(k - 1)\nn: int\nr = f(n)\n";
            let config = Config {
                recursion: 3,
                ..Config::default()
            };
            let mut s = explored(src, config);
            s.replay_cuts();
            let cuts = s.cuts();
            assert_eq!(
                (cuts.recursion, cuts.replayed, cuts.recursion_error),
                (1, 1, 0)
            );
            assert_eq!(
                s.cuts_warning().as_deref(),
                Some("1 path cut by --recursion 3: try a larger bound")
            );
        });
    }
}
