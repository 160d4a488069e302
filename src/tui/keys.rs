//! The key reference: one table that the help overlay shows (and the README copies).

/// (keys, what they do), in the order the help overlay lists them.
pub const KEYS: &[(&str, &str)] = &[
    (
        "j k  ↓ ↑",
        "move in the focused pane (tree: next/previous node; call stack: frame up/down)",
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
    (
        "PgDn PgUp g G  < >",
        "page down/up, first/last row; < > (S-← S-→): scroll long rows sideways",
    ),
    (
        "U  D",
        "frame up (caller) / down from any pane, as gdb's up/down; kept while in that frame",
    ),
    ("Tab  S-Tab", "focus the next/previous pane"),
    (
        "1-6",
        "focus a pane: 1 code, 2 tree, 3 path, 4 store, 5 call stack, 6 model",
    ),
    (
        "s  Enter",
        "step the selected node (at an annotated loop: apply the invariant)",
    ),
    (
        "u",
        "at an annotated loop: unroll one iteration instead (then the choice again)",
    ),
    (
        "F  =",
        "fold / unfold the open loop head (--fold); =: a node below a fold with κ = n",
    ),
    ("n", "step over a call (run until back in this frame)"),
    ("f", "finish the frame (run until the paths leave it)"),
    (
        "c",
        "continue to the next breakpoint hit on any path (depth-first; --bfs)",
    ),
    (
        "r",
        "run the subtree within the bounds (--unroll, --recursion); stops at breakpoints",
    ),
    (
        "H",
        "run to the code cursor's line (first node on any path there; breakpoints stop too)",
    ),
    ("C", "run the subtree through every breakpoint"),
    ("m", "model: inputs that reach the selected node"),
    (
        "R",
        "replay the model concretely and compare with the symbolic values",
    ),
    (
        "T",
        "pytest tests beside the program: a leaf's (or why it has none), else every leaf's",
    ),
    (
        "b",
        "toggle a breakpoint on the code cursor's line (tree focused: the ▶ line)",
    ),
    (
        "+",
        "break at a line number or function typed at a prompt (gdb's break 12, break f)",
    ),
    (
        "B",
        "breakpoint list: Space enable/disable, c condition (stop where it can hold), d delete",
    ),
    (
        "x  X",
        "exception breakpoint: every exception leaf on/off; X: one class",
    ),
    (
        "!",
        "catch: c and r also stop where a handler catches an exception (gdb's catch throw)",
    ),
    (
        "p",
        "show / hide pruned branches (greyed ✗ rows under each stepped node in the tree)",
    ),
    (
        "w",
        "why: explain an infeasible/unknown leaf or the selected ✗ row (Esc cancels)",
    ),
    (
        "a  A",
        "assume a precondition (prompt; the tree restarts at the root); A: list, remove one",
    ),
    (
        ":",
        "evaluate a minipy expression at the node (call stack's frame): value, verdict, model",
    ),
    (
        "W",
        "watch an expression at every selected node (under the store); again: unwatch",
    ),
    ("e  E", "next / previous exception leaf"),
    (
        "/",
        "search statements, conditions and leaves; / Enter: next match",
    ),
    ("N", "previous match of the last search"),
    (
        "L",
        "reload the program file, keeping breakpoints, explored tree, selection",
    ),
    (
        "S",
        "save the session (breakpoints, tree, selection); --session reopens it",
    ),
    ("t", "next theme"),
    (
        "Esc",
        "interrupt long work; close this help or the search prompt",
    ),
    (
        "?  M",
        "this help; M: the message log (every message, newest first, whole)",
    ),
    ("q  Ctrl-C", "quit"),
    (
        "mouse",
        "click a tree row or a code line (gutter: breakpoint); wheel scrolls",
    ),
];
