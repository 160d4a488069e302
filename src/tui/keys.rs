//! The key reference: one table that the help overlay shows (and the README copies).

/// (keys, what they do), in the order the help overlay lists them.
pub const KEYS: &[(&str, &str)] = &[
    (
        "j k  ↓ ↑",
        "move in the focused pane (tree: next/previous node)",
    ),
    (
        "h  ←",
        "tree: fold a call's frame (→ row), collapse the subtree, or go to the parent",
    ),
    (
        "l  →",
        "tree: unfold a folded node, or go to the first child",
    ),
    ("z", "tree: fold / unfold every call frame"),
    ("PgDn PgUp g G", "page down/up, first/last row"),
    ("Tab  S-Tab", "focus the next/previous pane"),
    (
        "s  Enter",
        "step the selected node (at an annotated loop: apply the invariant)",
    ),
    (
        "u",
        "at an annotated loop: unroll one iteration instead (then the choice again)",
    ),
    ("n", "step over a call (run until back in this frame)"),
    ("f", "finish the frame (run until the paths leave it)"),
    (
        "c",
        "continue along the path to the next branch point or breakpoint",
    ),
    (
        "r",
        "run the whole subtree within the bounds (--unroll, --recursion)",
    ),
    ("m", "model: inputs that reach the selected node"),
    (
        "R",
        "replay the model concretely and compare with the symbolic values",
    ),
    (
        "T",
        "write pytest tests beside the program: this leaf's, or every explored leaf's",
    ),
    (
        "b",
        "toggle a breakpoint on the code line under the code cursor",
    ),
    (
        "p",
        "show / hide the selected node's pruned branches (✗ rows in the path pane)",
    ),
    (
        "w",
        "why: explain an infeasible/unknown leaf, or the next pruned branch (Esc cancels)",
    ),
    ("e  E", "next / previous exception leaf"),
    (
        "/",
        "search statements, conditions and leaves; / Enter: next match",
    ),
    ("N", "previous match of the last search"),
    ("t", "next theme"),
    (
        "Esc",
        "interrupt long work; close this help or the search prompt",
    ),
    ("?", "this help"),
    ("q  Ctrl-C", "quit"),
    (
        "mouse",
        "click a tree row or a code line (gutter: breakpoint); wheel scrolls",
    ),
];
