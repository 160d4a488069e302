//! The book's results for its examples (chapters 000 and 003), as the engine must reproduce
//! them: which leaves, with which results, and that the callee's body is visible.

use std::collections::BTreeSet;

use symdbg::concrete::Value;
use symdbg::engine::{Config, Engine, Limits, NodeKind, Outcome};
use symdbg::transform;

const FIND: &str = "\
def find(needle: int, haystack: tuple) -> int:
    i = 0
    while i < len(haystack):
        if haystack[i] == needle:
            return i
        i = i + 1
    return -1

";

fn explore(src: &str, entry: Option<&str>, config: Config) -> Engine {
    let (program, types, ir) = transform::load(src).unwrap_or_else(|d| panic!("{d:?}"));
    let mut engine = Engine::new(&program, types, ir, entry, config).unwrap();
    let root = engine.tree().root();
    engine.run(root, Limits::default());
    engine
}

fn leaves(engine: &Engine) -> Vec<(Outcome, usize)> {
    engine
        .tree()
        .nodes()
        .filter_map(|n| n.outcome().map(|o| (o, n.id.index())))
        .collect()
}

fn unroll(n: u32) -> Config {
    let mut c = Config::default();
    c.unroll = n;
    c
}

/// `r = find(x, (1, 2, 3, 4))` with symbolic `x`: five leaves, r = 0, 1, 2, 3 and -1, each
/// with a model that really gives that result.
#[test]
fn find_in_a_concrete_tuple_has_five_leaves() {
    let src = format!("{FIND}x: int\nr = find(x, (1, 2, 3, 4))\n");
    let mut engine = explore(&src, None, unroll(5));
    let leaf_ids: Vec<_> = engine
        .tree()
        .nodes()
        .filter(|n| n.is_leaf())
        .map(|n| n.id)
        .collect();
    assert_eq!(leaf_ids.len(), 5, "{:?}", leaves(&engine));
    let mut results = BTreeSet::new();
    for id in leaf_ids {
        assert_eq!(engine.tree().node(id).outcome(), Some(Outcome::Normal));
        let m = engine.model(id).expect("a model for every leaf");
        let Value::Int(r) = &m.store["r"] else {
            panic!("r is not an int")
        };
        let Value::Int(x) = &m.inputs["x"] else {
            panic!("x is not an int")
        };
        // The model's x really leads to r in the concrete world.
        let expected = [1, 2, 3, 4]
            .iter()
            .position(|v| num_bigint::BigInt::from(*v) == *x)
            .map_or(-1, |p| p as i64);
        assert_eq!(*r, num_bigint::BigInt::from(expected));
        results.insert(expected);
    }
    assert_eq!(results, BTreeSet::from([-1, 0, 1, 2, 3]));
}

/// The loop over the concrete tuple is decided without the solver (`i < len(haystack)` is
/// `0 < 4`, `1 < 4`, ...), so its iterations do not count against `--unroll` (issue 23 item
/// 16): at unroll 1 all four elements are reached, no `bound` leaf. (The book's prototype
/// needed an unroll of 4 here; at unroll 3 symdbg used to cut the fourth element off in a
/// `bound` leaf.)
#[test]
fn concrete_loop_guards_do_not_count_against_unroll() {
    let src = format!("{FIND}x: int\nr = find(x, (1, 2, 3, 4))\n");
    for n in [1, 3] {
        let engine = explore(&src, None, unroll(n));
        let outcomes: Vec<Outcome> = leaves(&engine).into_iter().map(|(o, _)| o).collect();
        assert_eq!(outcomes, [Outcome::Normal; 5], "--unroll {n}");
    }
}

/// A loop whose guard the solver decides is still cut by `--unroll`: the cut-off path is a
/// visible `bound` leaf, not silently dropped (where the book drops it).
#[test]
fn unrolling_bound_is_a_visible_leaf() {
    let src = format!("{FIND}x: int\nt: tuple\nr = find(x, t)\n");
    let engine = explore(&src, None, unroll(3));
    let outcomes: Vec<Outcome> = leaves(&engine).into_iter().map(|(o, _)| o).collect();
    assert_eq!(outcomes.iter().filter(|o| **o == Outcome::Bound).count(), 1);
    // Found at 0, 1 or 2; not found in a tuple of 0 to 3 elements.
    assert_eq!(
        outcomes.iter().filter(|o| **o == Outcome::Normal).count(),
        7
    );
}

/// Symbolic haystack, unroll 2: found at 0, found at 1, not found in an empty, one- or
/// two-element tuple — the book's leaves — plus our `bound` leaf for longer tuples.
#[test]
fn find_with_symbolic_haystack_unroll_two() {
    let mut engine = explore(FIND, Some("find"), unroll(2));
    let mut returns = Vec::new();
    let mut bounds = 0;
    let ids: Vec<_> = engine
        .tree()
        .nodes()
        .filter(|n| n.is_leaf())
        .map(|n| n.id)
        .collect();
    for id in ids {
        match engine.tree().node(id).outcome().unwrap() {
            Outcome::Return => {
                let m = engine.model(id).unwrap();
                let Some(Value::Int(r)) = m.return_value else {
                    panic!("no return value")
                };
                let Value::Tuple(t) = &m.inputs["haystack"] else {
                    panic!()
                };
                returns.push((r.to_string(), t.len()));
            }
            Outcome::Bound => bounds += 1,
            o => panic!("unexpected leaf {o:?}"),
        }
    }
    returns.sort();
    assert_eq!(bounds, 1, "{returns:?}");
    let found: Vec<&str> = returns
        .iter()
        .map(|(r, _)| r.as_str())
        .filter(|r| *r != "-1")
        .collect();
    assert_eq!(found, ["0", "1"]);
    let mut not_found_lengths: Vec<usize> = returns
        .iter()
        .filter(|(r, _)| r == "-1")
        .map(|(_, n)| *n)
        .collect();
    not_found_lengths.sort();
    assert_eq!(not_found_lengths, [0, 1, 2]);
}

/// Transparent calls: the callee's statements are nodes of the tree, in a frame of their own
/// (with their own `i`); with --no-frames... the call is still explored but the caller's `i`
/// is untouched either way.
#[test]
fn callee_statements_appear_in_their_own_frame() {
    let src = format!("{FIND}x: int\ni = 7\nr = find(x, (5,))\n");
    let engine = explore(&src, None, unroll(3));
    let in_callee: Vec<_> = engine
        .tree()
        .nodes()
        .filter(|n| {
            matches!(n.kind, NodeKind::Inner) && engine.frames(n.id) == ["<module>", "find"]
        })
        .collect();
    assert!(in_callee.len() >= 3, "the body of find is stepped through");
    for leaf in engine.tree().nodes().filter(|n| n.is_leaf()) {
        let store = engine.store(leaf.id);
        let i = store.iter().find(|(k, _)| k == "i").unwrap();
        assert_eq!(i.1.to_string(), "7", "the callee's i is its own");
    }
}
