//! The key table: every key of the debugger, in the order the help overlay and the
//! README list them.

use ratatui::crossterm::event::KeyCode;

use super::Action::{self, *};
use super::Context::{Any, Breakpoints, Mouse, Normal, Overlay, Prompt};
use super::{Key, Row};
use crate::tui::app::Pane;

const fn ch(c: char) -> Key {
    Key::ch(c)
}

const fn of(code: KeyCode) -> Key {
    Key::of(code)
}

/// Every row, in the order the help and the README list them.
pub const ROWS: &[Row] = &[
    Row {
        context: Normal,
        keys: &[
            (ch('j'), Down),
            (ch('k'), Up),
            (of(KeyCode::Down), Down),
            (of(KeyCode::Up), Up),
        ],
        what: "move in the focused pane (tree: next/previous node; call stack: pick a frame, the store and code panes follow it)",
    },
    Row {
        context: Normal,
        keys: &[(ch('h'), CollapseOrParent), (of(KeyCode::Left), CollapseOrParent)],
        what: "tree: on a call's `→ f` row, fold its frame; again: collapse the subtree; on a collapsed node or a leaf: go to the parent",
    },
    Row {
        context: Normal,
        keys: &[(ch('l'), ExpandOrChild), (of(KeyCode::Right), ExpandOrChild)],
        what: "tree: unfold a folded or collapsed node, or go to the first child",
    },
    Row {
        context: Normal,
        keys: &[(ch('z'), ToggleFrames)],
        what: "tree: fold every call frame in the explored tree, or unfold them all",
    },
    Row {
        context: Normal,
        keys: &[
            (ch('<'), ScrollLeft),
            (ch('>'), ScrollRight),
            (Key::shift(KeyCode::Left), ScrollLeft),
            (Key::shift(KeyCode::Right), ScrollRight),
        ],
        what: "scroll long rows left/right: the tree's (its title says `from column N`), or the code pane's when it has the focus (the line numbers stay)",
    },
    Row {
        context: Normal,
        keys: &[
            (of(KeyCode::PageDown), PageDown),
            (of(KeyCode::PageUp), PageUp),
            (ch('g'), First),
            (ch('G'), Last),
            (of(KeyCode::Home), First),
            (of(KeyCode::End), Last),
        ],
        what: "page down/up, first/last row",
    },
    Row {
        context: Normal,
        keys: &[(ch('U'), FrameUp), (ch('D'), FrameDown)],
        what: "frame up (towards the caller) / down from any pane, as gdb's `up`/`down`; the frame stays picked while the selection moves inside it",
    },
    Row {
        context: Normal,
        keys: &[(of(KeyCode::Tab), FocusNext), (of(KeyCode::BackTab), FocusPrev)],
        what: "focus the next/previous pane",
    },
    Row {
        context: Normal,
        keys: &[
            (ch('1'), Focus(Pane::Code)),
            (ch('2'), Focus(Pane::Tree)),
            (ch('3'), Focus(Pane::Path)),
            (ch('4'), Focus(Pane::Store)),
            (ch('5'), Focus(Pane::Stack)),
            (ch('6'), Focus(Pane::Model)),
        ],
        what: "focus a pane (as in pudb): 1 code, 2 tree, 3 path condition, 4 store, 5 call stack, 6 model",
    },
    Row {
        context: Normal,
        keys: &[(ch('s'), Step), (of(KeyCode::Enter), Step)],
        what: "step the selected node (at a loop with invariants: apply the invariant)",
    },
    Row {
        context: Normal,
        keys: &[(ch('u'), Unroll)],
        what: "at a loop with invariants: unroll one iteration instead; the loop head then offers the choice again",
    },
    Row {
        context: Normal,
        keys: &[(ch('i'), Inline), (ch('o'), UseContract)],
        what: "at a call of a function with a contract (`requires`/`ensures`): `i` steps into its body, `o` uses the contract (precondition checked, a fresh result constrained by the postcondition); `s` takes `--calls`' default",
    },
    Row {
        context: Normal,
        keys: &[(ch('F'), Fold), (ch('='), Instantiate)],
        what: "at an open `while` head: fold the loop into one node with κ (with `--fold auto`: step it unfolded instead); `=` at a fold node or below one: asks n and shows the path condition and store with κ = n, or says n is outside κ's feasible range (at a two-parameter fold `n m` sets λ = m too)",
    },
    Row {
        context: Normal,
        keys: &[(ch('n'), StepOver)],
        what: "step over a call (run until back in this frame)",
    },
    Row {
        context: Normal,
        keys: &[(ch('f'), Finish)],
        what: "finish the frame (run until the paths leave it)",
    },
    Row {
        context: Normal,
        keys: &[(ch('c'), Continue)],
        what: "continue to the next breakpoint hit on any path (depth-first; `--bfs`: breadth-first); `c` again: the next hit",
    },
    Row {
        context: Normal,
        keys: &[(ch('r'), Run)],
        what: "run the subtree within the bounds (`--unroll`, `--recursion`, `--max-nodes`); stops at the first breakpoint hit",
    },
    Row {
        context: Normal,
        keys: &[(ch('H'), RunToCursor)],
        what: "run to the code cursor's line: the first node below the selected one, on any path, about to run it (breakpoints on the way stop too); no breakpoint is left behind",
    },
    Row {
        context: Normal,
        keys: &[(ch('C'), RunAll)],
        what: "run the subtree through every breakpoint",
    },
    Row {
        context: Normal,
        keys: &[(ch('m'), Model)],
        what: "model: inputs that reach the selected node (any node, not only leaves), each fold's κ; after `R`, `m` shows the model again",
    },
    Row {
        context: Normal,
        keys: &[(ch('R'), Replay)],
        what: "replay the model concretely: concrete value of every variable next to the symbolic one, and whether the run follows this path; the model's κ stays shown under it",
    },
    Row {
        context: Normal,
        keys: &[(ch('T'), Tests)],
        what: "write pytest tests beside the program: on a leaf, that leaf's test to `test_<name>_leaf<N>.py` (a leaf without a test, e.g. `bound`, writes nothing and the status line says why); on any other node one test per explored leaf to `test_<name>.py`",
    },
    Row {
        context: Normal,
        keys: &[(ch('b'), ToggleBreak)],
        what: "toggle a breakpoint on the code cursor's line (with the tree focused: the selected node's `▶` line)",
    },
    Row {
        context: Normal,
        keys: &[(ch('+'), BreakAt)],
        what: "break at a line number or a function's name typed at a prompt (gdb's `break 12`, `break f`: its first statement; a line without a statement: the next one)",
    },
    Row {
        context: Normal,
        keys: &[(ch('B'), BreakList)],
        what: "the breakpoint list (its keys are listed below)",
    },
    Row {
        context: Normal,
        keys: &[(ch('x'), ExcBreak), (ch('X'), ExcClass)],
        what: "exception breakpoint: stop at every exception leaf (on/off); `X`: type a class (its subclasses stop too)",
    },
    Row {
        context: Normal,
        keys: &[(ch('!'), Catch)],
        what: "catch: `c` and `r` also stop where a handler catches an exception, at the `except` line before the handler runs (gdb's `catch throw`); of the `X` class if one is set",
    },
    Row {
        context: Normal,
        keys: &[(ch('p'), Pruned)],
        what: "show / hide the pruned branches: greyed, selectable `✗` ghost rows under each stepped node in the tree (and in the path pane)",
    },
    Row {
        context: Normal,
        keys: &[(ch('w'), Why)],
        what: "why: explain the selected `✗` ghost row or infeasible/unknown leaf (on a stepped node: its next pruned branch; core conditions marked `✗`; Esc cancels)",
    },
    Row {
        context: Normal,
        keys: &[(ch('O'), Origins)],
        what: "origins: where each variable of the store got its value — the assignment's line, node and statement (`parameter`: the call; `return`: the call whose `return` gave it; `input`), then the origins of what that assignment read, back to the inputs; `j`/`k` pick one, `Enter` selects its node",
    },
    Row {
        context: Normal,
        keys: &[(ch('a'), Assume)],
        what: "assume: add a precondition (`--assume`) at a prompt; the tree starts again at the root under it (re-explored if it had been explored), breakpoints kept; the path pane's title lists the preconditions (`assuming #1 x > 0`) and its conditions from them say `A1`",
    },
    Row {
        context: Normal,
        keys: &[(ch('A'), Unassume)],
        what: "list the preconditions and remove one (type its number, or `all`)",
    },
    Row {
        context: Normal,
        keys: &[(ch(':'), Evaluate)],
        what: "evaluate a minipy expression at the selected node, in the frame the call stack pane picked: its symbolic value, whether it is always true / always false / can be either on the path (Z3), the exceptions it may raise, its value under the node's model",
    },
    Row {
        context: Normal,
        keys: &[(ch('W'), Watch)],
        what: "watch an expression: evaluated at every selected node, under the store; a watched expression typed again is removed, an empty prompt clears them all; one that does not parse, or that no scope of the program can evaluate (an unknown name), is refused with the message `:` gives",
    },
    Row {
        context: Normal,
        keys: &[(ch('e'), NextException), (ch('E'), PrevException)],
        what: "next / previous exception leaf; when the explored tree has none and open nodes are left, `e` searches for the first one (depth-first) without the paths before it that cannot raise (they stay open)",
    },
    Row {
        context: Normal,
        keys: &[(ch('/'), Search)],
        what: "search statements, conditions, labels and leaves; `/` Enter again: next match",
    },
    Row {
        context: Normal,
        keys: &[(ch('N'), PrevMatch)],
        what: "previous match of the last search",
    },
    Row {
        context: Normal,
        keys: &[(ch('L'), Reload)],
        what: "reload the program file (the status line says when it changed on disk); keeps breakpoints, watches, preconditions, the explored tree and the selection where they still exist, and says whether the behaviour on the explored paths changed (`behaviour changed on N paths` with witnesses; `M` shows them all)",
    },
    Row {
        context: Normal,
        keys: &[(ch('S'), Save)],
        what: "save the session (breakpoints, exception breakpoint, explored tree, loop choices, selection) to `FILE.symdbg-session`, or to the `--session` file",
    },
    Row {
        context: Normal,
        keys: &[(ch('t'), Theme)],
        what: "next theme",
    },
    Row {
        context: Normal,
        keys: &[(of(KeyCode::Esc), Interrupt)],
        what: "interrupt long work (also a running Z3 check), else clear the status line's message. While long work runs, a key that needs the worker (step, run, model, replay, tests, why, `:`, `W`, `a`, `A`, reload, save, fold, run to cursor `H`) is not queued: the status line says `busy — Esc cancels` and the key is dropped; moving around, panes, search and breakpoints keep working",
    },
    Row {
        context: Normal,
        keys: &[(ch('?'), Help)],
        what: "help (every key)",
    },
    Row {
        context: Normal,
        keys: &[(ch('M'), Messages)],
        what: "message log: every message of the session (restore notes, explanations, errors), newest first and whole — the status line cuts a long one short and ends it with `M: whole message`",
    },
    Row {
        context: Normal,
        keys: &[(ch('q'), Quit)],
        what: "quit",
    },
    Row {
        context: Any,
        keys: &[(Key::ctrl('c'), Quit)],
        what: "quit, whatever is open (a prompt, the help, the breakpoint list)",
    },
    Row {
        context: Mouse,
        keys: &[],
        what: "click a tree row or a code line (gutter: breakpoint); wheel scrolls",
    },
    // The breakpoint list (`B`); any other key closes it.
    Row {
        context: Breakpoints,
        keys: &[
            (ch('j'), ListDown),
            (ch('k'), ListUp),
            (of(KeyCode::Down), ListDown),
            (of(KeyCode::Up), ListUp),
        ],
        what: "move to the next/previous breakpoint",
    },
    Row {
        context: Breakpoints,
        keys: &[(ch(' '), ListToggle), (of(KeyCode::Enter), ListToggle)],
        what: "enable/disable the breakpoint",
    },
    Row {
        context: Breakpoints,
        keys: &[(ch('c'), ListCondition)],
        what: "condition: a minipy `bool` typed at a prompt (empty: none); `c` and `r` stop there only where it can hold",
    },
    Row {
        context: Breakpoints,
        keys: &[(ch('d'), ListDelete), (of(KeyCode::Delete), ListDelete)],
        what: "delete the breakpoint",
    },
    Row {
        context: Breakpoints,
        keys: &[(ch('x'), ExcBreak)],
        what: "exception breakpoint on/off (as `x` outside the list)",
    },
    // At a prompt in the hint line (`/`, `:`, `W`, `+`, `a`, `A`, `X`, `=`, a condition);
    // other printable keys are typed.
    Row {
        context: Prompt,
        keys: &[(of(KeyCode::Enter), Submit)],
        what: "apply what was typed (`/`: search; empty: the next match)",
    },
    Row {
        context: Prompt,
        keys: &[(of(KeyCode::Esc), Cancel)],
        what: "cancel",
    },
    Row {
        context: Prompt,
        keys: &[(of(KeyCode::Backspace), DeleteBack)],
        what: "delete the last character; on an empty prompt: cancel",
    },
    // The boxes over the panes that scroll (help, message log, reload errors, `=`, the
    // origins `O`); any
    // other key closes them.
    Row {
        context: Overlay,
        keys: &[
            (ch('j'), ScrollDown),
            (of(KeyCode::Down), ScrollDown),
            (of(KeyCode::PageDown), ScrollDown),
            (ch(' '), ScrollDown),
        ],
        what: "scroll down a line (the origins box `O`: pick the next origin)",
    },
    Row {
        context: Overlay,
        keys: &[
            (ch('k'), ScrollUp),
            (of(KeyCode::Up), ScrollUp),
            (of(KeyCode::PageUp), ScrollUp),
        ],
        what: "scroll up a line (the origins box `O`: pick the previous origin)",
    },
    Row {
        context: Overlay,
        keys: &[(of(KeyCode::Enter), OriginJump)],
        what: "origins box `O`: go to the picked origin's node",
    },
];

/// The hint line's keys (normal mode), most wanted first: help and quit must show in the
/// narrowest terminal, then the bug-finding recipe (`r e m R`), so an 80-column terminal
/// shows it. `u` shows at a loop with invariants only, where `s` says "invariant".
pub const HINTS: &[(&[Action], &str)] = &[
    (&[Help], "help"),
    (&[Quit], "quit"),
    (&[Step], "step"),
    (&[Unroll], "unroll"),
    (&[Inline], "inline"),
    (&[UseContract], "contract"),
    (&[Run], "run"),
    (&[NextException], "exception"),
    (&[Model], "model"),
    (&[Replay], "replay"),
    (&[StepOver], "over"),
    (&[Finish], "finish"),
    (&[Continue], "continue"),
    (&[ToggleBreak], "break"),
    (&[Search], "search"),
    (&[FocusNext], "pane"),
];

/// The breakpoint list's hints (the hint line and the list's last line).
pub const BREAKS_HINTS: &[(&[Action], &str)] = &[
    (&[ListDown, ListUp], "move"),
    (&[ListToggle], "enable/disable"),
    (&[ListCondition], "condition"),
    (&[ListDelete], "delete"),
    (&[ExcBreak], "exceptions"),
];

/// The hints over a box that scrolls (the help, the message log, …).
pub const OVERLAY_HINTS: &[(&[Action], &str)] = &[(&[ScrollDown, ScrollUp], "scroll")];
