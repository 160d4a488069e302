//! The UI state and everything that changes it, without a terminal.
//!
//! [`App`] takes key and mouse events ([`App::key`], [`App::mouse`], in `app/input.rs`)
//! and worker replies ([`App::apply`]); it queues [`Cmd`]s for the worker in an outbox
//! ([`App::take_commands`]). Drawing (`view`) reads it. Nothing here blocks, sleeps or
//! reads a clock, so tests feed keys and replies and look at the state and the frame.

mod assume;
mod breaks;
mod fold;
mod frames;
mod hscroll;
mod input;
mod messages;
mod nav;
mod origins;
mod prompt;
mod reload;
mod watch;
mod why;

pub use breaks::{Condition, Search};
pub use messages::MessageLog;
pub use prompt::PromptKind;
pub use reload::ReloadState;
pub use watch::{EvalKey, Watches};

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use ratatui::layout::Rect;
use ratatui::style::Style;

use super::highlight::Highlighter;
use super::protocol::{Cmd, ModelInfo, ReplayInfo, Reply};
use super::theme::{Palette, Themes};
use super::tree::Mirror;
use crate::base::SourceMap;
use crate::session::{Details, NoModel, NodeId, PrunedShown, TreeStats};

/// The panes, in Tab order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pane {
    Code,
    Tree,
    Path,
    Store,
    Stack,
    Model,
}

impl Pane {
    pub const ALL: [Pane; 6] = [
        Pane::Code,
        Pane::Tree,
        Pane::Path,
        Pane::Store,
        Pane::Stack,
        Pane::Model,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Pane::Code => "code",
            Pane::Tree => "tree",
            Pane::Path => "path condition",
            Pane::Store => "store",
            Pane::Stack => "call stack",
            Pane::Model => "model",
        }
    }

    fn index(self) -> usize {
        Pane::ALL.iter().position(|p| *p == self).unwrap_or(0)
    }
}

/// What the keyboard is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Normal,
    Help,
    /// Typing a search; the text so far.
    Search(String),
    /// The breakpoint list (`B`).
    Breakpoints,
    /// Typing at a prompt; the text so far.
    Prompt(PromptKind, String),
    /// The diagnostics of a reload that did not load (`App::reload`).
    Errors,
    /// The message log (`M`).
    Messages,
    /// The origins box (`O`).
    Origins,
}

/// Long work the worker is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Busy {
    pub what: &'static str,
    pub nodes: usize,
    /// Esc was pressed: the worker is stopping.
    pub interrupting: bool,
}

/// Where the panes were drawn last (for mouse clicks and page sizes).
#[derive(Clone, Debug, Default)]
pub struct Areas {
    pub panes: Vec<(Pane, Rect)>,
    /// Width of the code pane's gutter.
    pub gutter: u16,
}

pub struct App {
    pub source: SourceMap,
    pub themes: Themes,
    pub theme: usize,
    pub palette: Palette,
    /// Styled spans per source line.
    pub code: Vec<Vec<(Style, String)>>,
    pub tree: Mirror,
    pub selected: NodeId,
    pub focus: Pane,
    /// The detail pane shown in the narrow layout (the last focused of path/store/stack/model).
    pub detail: Pane,
    pub mode: Mode,
    /// 1-based line under the code cursor.
    pub code_cursor: usize,
    /// First visible row per pane.
    pub scroll: HashMap<Pane, usize>,
    /// First visible column of the tree's and the code's rows (`<` `>`).
    pub hscroll: HashMap<Pane, usize>,
    /// Breakpoint lines, each enabled or not.
    pub breakpoints: BTreeMap<usize, bool>,
    /// Conditions of breakpoints (`B`, then `c`): stop only where they can hold.
    pub conditions: BTreeMap<usize, Condition>,
    /// Which exception leaves stop `c` and `r`.
    pub exc_break: crate::session::ExcStop,
    /// `!`: caught exceptions stop `c` and `r` too, at their handler ([`App::caught_stop`]).
    pub catch_caught: bool,
    /// `c` and `r` search breadth-first (`--bfs`).
    pub bfs: bool,
    /// The search `c` continues (its last hit is the selected node).
    pub search: Option<Search>,
    /// A resume sent and not answered yet.
    resuming: Option<Search>,
    /// Row of the breakpoint list.
    pub breaks_cursor: usize,
    /// The frame picked in the call stack pane, counted from the innermost (0).
    pub frame_up: usize,
    pub details: HashMap<NodeId, Details>,
    pub models: HashMap<NodeId, Result<ModelInfo, NoModel>>,
    pub replays: HashMap<NodeId, Result<ReplayInfo, String>>,
    /// Requests sent and not answered yet: (kind, node).
    pending: HashSet<(char, NodeId)>,
    pub busy: Option<Busy>,
    /// What the status line says (the last key's or reply's news).
    pub message: String,
    /// Every message of the session (`M` lists them).
    pub log: MessageLog,
    pub last_search: Option<String>,
    pub stats: TreeStats,
    /// Show the solver time in the status line (off in tests: it varies).
    pub show_timing: bool,
    /// Animation frame of the spinner.
    pub tick: usize,
    pub quit: bool,
    pub areas: Areas,
    /// The terminal's colour depth: the frame's 24-bit colours are mapped to it.
    pub colors: super::color::ColorDepth,
    /// First line of the help overlay shown, and the most it can scroll (set when drawn).
    pub help_scroll: usize,
    pub help_max_scroll: usize,
    outbox: Vec<Cmd>,
    cancel: Option<Arc<AtomicBool>>,
    /// `p`: the path pane lists the selected node's pruned branches.
    pub show_pruned: bool,
    /// Explanations received, per (node, pruned branch or `None`: the leaf).
    pub whys: HashMap<(NodeId, Option<usize>), super::protocol::WhyInfo>,
    /// The explanation the path pane shows (for its node).
    pub why_shown: Option<(NodeId, Option<usize>)>,
    /// The selected row is ghost `k` (a pruned branch) under the selected node, not the
    /// node itself (`p`).
    pub ghost: Option<usize>,
    /// The pruned branches known per stepped node (the ghost rows' text).
    pub pruned: HashMap<NodeId, Vec<PrunedShown>>,
    /// `:` and the watches (`W`): expressions evaluated at nodes.
    pub watch: Watches,
    /// The origins box (`O`), while it is open.
    pub origins: Option<origins::OriginsBox>,
    /// The program file: changed on disk? the errors of a failed reload (`L`).
    pub reload: ReloadState,
    /// `F` and `=` (issue 15).
    pub fold: fold::FoldUi,
}

impl App {
    /// A new UI for `source`; `theme`: a theme name (unknown names fall back to the first).
    pub fn new(source: SourceMap, theme: Option<&str>) -> App {
        let themes = Themes::load();
        let idx = theme.and_then(|t| themes.get(t)).unwrap_or(0);
        let code = Highlighter::new(&themes, idx).highlight(&source.text);
        let message = match themes.warnings() {
            [] => String::new(),
            [w] => format!("warning: {w}"),
            [w, rest @ ..] => format!("warning: {w} (and {} more)", rest.len()),
        };
        let mut app = App {
            palette: themes.palette(idx),
            themes,
            theme: idx,
            code,
            source,
            tree: Mirror::default(),
            selected: NodeId(0),
            focus: Pane::Tree,
            detail: Pane::Path,
            mode: Mode::Normal,
            code_cursor: 1,
            scroll: HashMap::new(),
            hscroll: HashMap::new(),
            breakpoints: BTreeMap::new(),
            conditions: BTreeMap::new(),
            exc_break: Default::default(),
            catch_caught: false,
            bfs: false,
            search: None,
            resuming: None,
            breaks_cursor: 0,
            frame_up: 0,
            details: HashMap::new(),
            models: HashMap::new(),
            replays: HashMap::new(),
            pending: HashSet::new(),
            busy: None,
            log: MessageLog::default(),
            message,
            last_search: None,
            stats: TreeStats::default(),
            show_timing: true,
            tick: 0,
            quit: false,
            areas: Areas::default(),
            colors: Default::default(),
            help_scroll: 0,
            help_max_scroll: 0,
            outbox: Vec::new(),
            cancel: None,
            show_pruned: false,
            whys: HashMap::new(),
            why_shown: None,
            ghost: None,
            pruned: HashMap::new(),
            watch: Watches::default(),
            origins: None,
            reload: ReloadState::default(),
            fold: Default::default(),
        };
        app.log_message();
        app
    }

    /// The flag Esc sets to interrupt the worker.
    pub fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }

    /// Commands for the worker, oldest first.
    pub fn take_commands(&mut self) -> Vec<Cmd> {
        std::mem::take(&mut self.outbox)
    }

    /// Is the worker doing something the user waits for?
    pub fn waiting(&self) -> bool {
        self.busy.is_some() || !self.pending.is_empty() || self.watch.has_pending()
    }

    /// Ask for details, a model or a replay (once per node until answered).
    fn request(&mut self, cmd: Cmd) {
        let key = match cmd {
            Cmd::Details(id) => ('d', id),
            Cmd::Model(id) => ('m', id),
            Cmd::Replay(id) => ('r', id),
            _ => return self.outbox.push(cmd),
        };
        if self.pending.insert(key) {
            self.outbox.push(cmd);
        }
    }

    /// Is a model or replay for `id` on its way?
    pub fn pending(&self, kind: char, id: NodeId) -> bool {
        self.pending.contains(&(kind, id))
    }

    /// Send a tree command unless one is running.
    pub(super) fn send_work(&mut self, what: &'static str, cmd: Cmd) {
        if self.busy.is_some() {
            self.message = BUSY.to_string();
            return;
        }
        // (the message it clears stays in the log)
        self.log_message();
        self.busy = Some(Busy {
            what,
            nodes: 0,
            interrupting: false,
        });
        self.message.clear();
        self.outbox.push(cmd);
    }

    /// Interrupt long work (Esc).
    pub fn interrupt(&mut self) {
        if let Some(flag) = &self.cancel {
            flag.store(true, Ordering::Relaxed);
        }
        if let Some(b) = &mut self.busy {
            b.interrupting = true;
        }
        self.message = "interrupting…".to_string();
    }

    /// Apply a worker reply.
    pub fn apply(&mut self, reply: Reply) {
        self.log_message();
        self.apply_reply(reply);
        self.log_message();
    }

    fn apply_reply(&mut self, reply: Reply) {
        match reply {
            Reply::Ready(delta) => {
                self.tree.apply(&delta);
                self.stats = delta.stats;
                self.select(NodeId(0));
            }
            Reply::Delta(delta) => {
                self.tree.apply(&delta);
                // A node just stepped has pruned branches now: forget what was fetched
                // while it was open.
                for (id, _) in &delta.changed {
                    self.pruned.remove(id);
                    if self.details.remove(id).is_some() && *id == self.selected {
                        self.request(Cmd::Details(*id));
                    }
                }
                self.stats = delta.stats;
                // A selected way out of a folded frame that has just been stepped is
                // inside the frame now: unfold so the selection keeps its row.
                if self.tree.row_of(self.selected).is_none() {
                    self.tree.reveal(self.selected);
                }
                if self.show_pruned {
                    self.fetch_pruned();
                }
            }
            Reply::Progress { nodes } => {
                if let Some(b) = &mut self.busy {
                    b.nodes = nodes;
                }
            }
            Reply::Done { select, message } => {
                self.busy = None;
                self.resumed(select);
                self.message = message;
                if let Some(id) = select {
                    self.select(id);
                }
            }
            Reply::Details(d) => {
                self.pending.remove(&('d', d.id));
                if self
                    .tree
                    .get(d.id)
                    .is_some_and(|n| !self.tree.is_open(n.info.id()))
                {
                    self.tree.set_ghosts(d.id, d.pruned.len());
                    self.pruned.insert(d.id, d.pruned.clone());
                }
                self.details.insert(d.id, d);
            }
            Reply::Model(id, m) => {
                self.pending.remove(&('m', id));
                if let Err(why) = &m {
                    self.message = format!("no model for node {}: {}", id.0, no_model(why));
                }
                self.models.insert(id, m);
            }
            Reply::Why { node, pruned, info } => {
                self.whys.insert((node, pruned), info);
                self.why_shown = Some((node, pruned));
            }
            Reply::Origins(node, chains) => self.origins_answered(node, chains),
            Reply::Pruned(list) => {
                for (id, p) in list {
                    self.pending.remove(&('g', id));
                    self.tree.set_ghosts(id, p.len());
                    self.pruned.insert(id, p);
                }
            }
            Reply::Assumed(Ok(texts)) => self.assumed(texts),
            // (the `Done` that follows says why)
            Reply::Assumed(Err(_)) => {}
            Reply::Evaluated { node, up, results } => self.evaluated(node, up, results),
            Reply::Condition { line, text, error } => self.condition_checked(line, text, error),
            Reply::WatchChecked { text, error } => self.watch_checked(text, error),
            Reply::Reloaded {
                text,
                stamp,
                carry,
                delta,
            } => self.reloaded(text, stamp, carry, delta),
            Reply::Carry(carry) => self.apply_carry(carry),
            Reply::LoadErrors(text) => self.load_errors(text),
            Reply::Replay(id, r) => {
                self.pending.remove(&('r', id));
                self.message = match &r {
                    Ok(r) => format!("replay: {}", r.verdict),
                    Err(e) => e.clone(),
                };
                self.replays.insert(id, r);
            }
            Reply::Instance(id, info) => self.show_instance(id, info),
            Reply::Located(at) => self.located(at),
        }
    }

    /// Select a node: reveal it, fetch its details, put the code cursor on its line.
    /// A new tree replaces the old one (`a`, `L`): forget everything fetched about the old
    /// tree's nodes, which the new ids would otherwise pick up.
    pub(super) fn forget_answers(&mut self) {
        self.details.clear();
        self.models.clear();
        self.replays.clear();
        self.pending.clear();
        self.whys.clear();
        self.why_shown = None;
        self.pruned.clear();
        self.resuming = None;
        self.watch.forget_answers();
        self.fold.shown = None;
    }

    pub fn select(&mut self, id: NodeId) {
        if self.tree.get(id).is_none() {
            return;
        }
        self.frame_up = self.kept_frame(id);
        self.selected = id;
        self.ghost = None;
        self.tree.reveal(id);
        if !self.details.contains_key(&id) {
            self.request(Cmd::Details(id));
        }
        // (an `--assume` precondition is in no line of the file)
        if let Some(line) = self
            .tree
            .node(id)
            .info
            .place()
            .filter(|&l| l <= self.line_count())
        {
            self.code_cursor = line;
        }
        for p in [Pane::Path, Pane::Store, Pane::Stack, Pane::Model] {
            self.scroll.insert(p, 0);
        }
        self.request_watches();
    }

    pub fn scroll_of(&self, pane: Pane) -> usize {
        self.scroll.get(&pane).copied().unwrap_or(0)
    }

    /// The rectangle a pane was drawn in last.
    pub fn area(&self, pane: Pane) -> Option<Rect> {
        self.areas
            .panes
            .iter()
            .find(|(p, _)| *p == pane)
            .map(|(_, r)| *r)
    }

    /// Switch to the next theme.
    pub fn next_theme(&mut self) {
        let n = self.themes.names().len().max(1);
        self.set_theme((self.theme + 1) % n);
    }

    pub fn set_theme(&mut self, idx: usize) {
        self.theme = idx;
        self.palette = self.themes.palette(idx);
        self.code = Highlighter::new(&self.themes, idx).highlight(&self.source.text);
        let name = self
            .themes
            .names()
            .get(idx)
            .copied()
            .unwrap_or("?")
            .to_string();
        self.message = format!("theme: {name}");
    }

    /// Text of a 1-based source line.
    pub fn line_text(&self, line: usize) -> &str {
        self.source.line_text(line)
    }

    pub fn line_count(&self) -> usize {
        self.source.text.lines().count().max(1)
    }
}

/// What a key that needs the worker says while it is busy (the key is dropped).
pub const BUSY: &str = "busy — Esc cancels";

/// Why a node has no model, in words: the path is infeasible, or the solver gave up (its
/// reason, e.g. `timeout`), never "no inputs" for a path the solver could not decide.
pub fn no_model(reason: &NoModel) -> String {
    match reason {
        NoModel::Infeasible => "the path is infeasible (no inputs reach it)".to_string(),
        // (a value too long to materialise: shown by its length, not replaced)
        NoModel::TooLarge(r) => r.to_string(),
        NoModel::Unknown(r) => format!("the solver gave up on this path ({r}); it may be feasible"),
    }
}
