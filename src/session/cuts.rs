//! Bounds that may hide bugs: how many paths `--unroll` and `--recursion` cut (their
//! `bound` leaves, told apart by the leaf's tag), for `run`'s summary and the TUI's status
//! line. A cut path was not explored to its end, so an exception past the bound is not in
//! the tree.

use super::Session;
use crate::engine::{Cut, Outcome, Tag};

/// `bound` leaves per bound.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cuts {
    pub unroll: usize,
    pub recursion: usize,
}

impl Cuts {
    /// "3 paths cut by --unroll 8; 1 path cut by --recursion 5: try a larger bound", or
    /// `None` when no path was cut. `unroll`, `recursion`: the bounds in force.
    pub fn warning(&self, unroll: u32, recursion: u32) -> Option<String> {
        let mut parts = Vec::new();
        for (n, flag, bound) in [
            (self.unroll, "--unroll", unroll),
            (self.recursion, "--recursion", recursion),
        ] {
            if n > 0 {
                let paths = if n == 1 { "path" } else { "paths" };
                parts.push(format!("{n} {paths} cut by {flag} {bound}"));
            }
        }
        (!parts.is_empty()).then(|| format!("{}: try a larger bound", parts.join("; ")))
    }
}

impl Session {
    /// Count the `bound` leaves of the tree by the bound that cut them.
    pub fn cuts(&self) -> Cuts {
        let mut cuts = Cuts::default();
        for node in self.tree().nodes() {
            if node.outcome() != Some(Outcome::Bound) {
                continue;
            }
            match node.tag {
                Some(Tag::Bound(Cut::Recursion)) => cuts.recursion += 1,
                // (every other bound leaf is a loop's unrolling bound)
                _ => cuts.unroll += 1,
            }
        }
        cuts
    }

    /// [`Cuts::warning`] with this session's bounds.
    pub fn cuts_warning(&self) -> Option<String> {
        let config = self.engine().config();
        self.cuts().warning(config.unroll, config.recursion)
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

    #[test]
    fn bound_leaves_are_counted_by_the_bound_that_cut_them() {
        let lp = "n: int\ni = 0\nwhile i < n:\n    i = i + 1\nassert i != 7\n";
        let config = Config {
            unroll: 3,
            ..Config::default()
        };
        let s = explored(lp, config);
        assert_eq!(
            s.cuts(),
            Cuts {
                unroll: 1,
                recursion: 0
            }
        );
        assert_eq!(
            s.cuts_warning().as_deref(),
            Some("1 path cut by --unroll 3: try a larger bound")
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
        assert!(s
            .cuts_warning()
            .unwrap()
            .contains("1 path cut by --recursion 2"));
        // No bound leaf: no warning.
        let s = explored("x: int\nif x > 0:\n    x = 1\n", Config::default());
        assert_eq!(s.cuts_warning(), None);
        assert_eq!(
            Cuts {
                unroll: 2,
                recursion: 3
            }
            .warning(8, 5)
            .as_deref(),
            Some("2 paths cut by --unroll 8; 3 paths cut by --recursion 5: try a larger bound")
        );
    }
}
