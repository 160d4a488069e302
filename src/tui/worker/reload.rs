//! Reload (`L`), save (`S`) and restore (`--session`): the worker's side.
//!
//! All three carry the explored tree as the session's frontier (`session::saved`) and the
//! selection as a path of child indices, and finish the same way ([`Worker::replay`]):
//! replay the steps that still apply, select the node at the end of the path (or the
//! deepest node along it that exists), and say in the status line what did not apply.
//! A reload whose new text does not load answers with its diagnostics and keeps the old
//! session as it was.

use std::path::PathBuf;

use super::{Progress, Worker};
use crate::diagnostics::{count, render_all};
use crate::session::diff;
use crate::session::{FrontierStep, NodeId, Session};
use crate::tui::carry::{self, Carry};
use crate::tui::program_file::{display_name, read_program, Stamp};
use crate::tui::protocol::Reply;
use crate::tui::session_file;

/// A reload compares the old and new program's behaviour (`L`) on at most this many
/// pairs of leaves.
pub const MAX_PAIRS: usize = 2_000;

/// At most this many witnesses in the message (`M` shows it whole).
const WITNESSES_SHOWN: usize = 5;

impl Worker {
    /// `L`: read the program again; a new session if it loads.
    pub(super) fn reload(&mut self, selected: NodeId, mut carry: Carry, emit: &dyn Fn(Reply)) {
        let done = |message: String| {
            emit(Reply::Done {
                select: None,
                message,
            })
        };
        let Some(path) = self.files.program.clone() else {
            return done("reload: the program was not read from a file".to_string());
        };
        // Taken before reading: a write during the read shows as a change again.
        let stamp = Stamp::of(&path);
        // (A FIFO or a device would block the worker; a directory has its own message.)
        if std::fs::metadata(&path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            return done(format!(
                "reload failed: `{}` is not a regular file; the old program stays loaded",
                self.session.source().name
            ));
        }
        let mut source = match read_program(&path) {
            Ok(s) => s,
            Err(e) => {
                return done(format!(
                    "reload failed: {}; the old program stays loaded",
                    e.message
                ))
            }
        };
        source.name = self.session.source().name.clone();
        let session = match self.rebuild(source.clone(), &carry) {
            Ok(s) => s,
            Err(diags) => {
                emit(Reply::LoadErrors(render_all(&diags, &source, false)));
                return done(format!(
                    "reload failed: {} in the program on disk; the old program stays loaded",
                    count(diags.len(), "error")
                ));
            }
        };
        let old = self.session.source().clone();
        let frontier = self.session.frontier();
        let path_to = self.selected_path(selected);
        let texts = carry
            .breakpoints
            .iter()
            .map(|b| Some(old.line_text(b.line).to_string()))
            .collect();
        let mut notes = Vec::new();
        carry.breakpoints = remap(&mut carry, texts, &source, &mut notes);
        let unchanged = old.text == source.text;
        let previous = std::mem::replace(&mut self.session, session);
        self.sent = 0;
        self.open_sent.clear();
        emit(Reply::Reloaded {
            text: source.text.clone(),
            stamp,
            carry,
            delta: self.delta(),
        });
        let what = if unchanged {
            "reloaded (the text is unchanged)"
        } else {
            "reloaded"
        };
        // (the same text behaves the same: nothing to compare)
        let previous = (!unchanged).then_some(previous);
        self.replay(what, &frontier, &path_to, notes, previous, emit);
    }

    /// A session on a new text of the program with this session's entry and options and
    /// the carried preconditions (`carry.assumptions`).
    fn rebuild(
        &self,
        source: crate::base::SourceMap,
        carry: &Carry,
    ) -> Result<Session, Vec<crate::diagnostics::Diagnostic>> {
        let entry = self.session.entry().map(str::to_string);
        let config = self.session.config().clone();
        super::assume::open(source, entry.as_deref(), config, &carry.assumptions)
    }

    /// `S`: write the session file (`--session S`, else beside the program).
    pub(super) fn save(&mut self, selected: NodeId, carry: Carry, emit: &dyn Fn(Reply)) {
        let message = match self.session_path() {
            None => "no session file: the program was not read from a file".to_string(),
            Some(path) => {
                let frontier = self.session.frontier();
                let file = session_file::build(
                    self.session.source(),
                    self.session.config(),
                    self.session.entry(),
                    self.session.call_mode(),
                    &carry,
                    &frontier,
                    self.selected_path(selected),
                );
                match session_file::write(&path, &file, self.files.program.as_deref()) {
                    Ok(()) => format!(
                        "session saved to {} ({}, {}; --session reopens it)",
                        display_name(&path),
                        count(frontier.len(), "step"),
                        count(carry.breakpoints.len(), "breakpoint")
                    ),
                    Err(e) => {
                        format!("session not saved: {e}; `--session OTHER` saves to another file")
                    }
                }
            }
        };
        emit(Reply::Done {
            select: None,
            message,
        });
    }

    /// `--session S` at the start: restore what the file says, or start fresh.
    pub(super) fn restore(&mut self, emit: &dyn Fn(Reply)) {
        let done = |message: String| {
            emit(Reply::Done {
                select: None,
                message,
            })
        };
        let Some(path) = self.files.session.clone() else {
            return done("no session file was given (--session)".to_string());
        };
        let name = display_name(&path);
        if !path.exists() {
            return done(format!(
                "no session file {name} yet: S saves the session there"
            ));
        }
        // (the session resolves the `--calls` default: not given means none for the file)
        let mut config = self.session.config().clone();
        if !self.calls_given {
            config.calls = None;
        }
        let read = session_file::read(&path, self.session.source(), &config, self.session.entry());
        let r = match read {
            Ok(r) => r,
            Err(e) => return done(format!("session file {name}: {e}; starting fresh")),
        };
        let mut notes = Vec::new();
        if r.changed {
            notes.push("the program changed since it was saved: restored what applies".into());
        }
        if r.ignored > 0 {
            notes.push(match r.ignored {
                1 => "1 unknown entry ignored".to_string(),
                n => format!("{n} unknown entries ignored"),
            });
        }
        if let Some(mode) = r.calls.filter(|&m| m != self.session.call_mode()) {
            // The saved `--calls` (issue 28): the steps at calls replay as they were taken.
            let mut config = self.session.config().clone();
            config.calls = Some(mode);
            let source = self.session.source().clone();
            let assumptions = source.assumptions.clone();
            if let Ok(session) =
                super::assume::open(source, self.session.entry(), config, &assumptions)
            {
                self.session = session;
                self.sent = 0;
                self.open_sent.clear();
                // A new session (as under new assumptions): the UI starts its mirror afresh.
                emit(Reply::Assumed(Ok(assumptions_now(&self.session))));
                emit(Reply::Ready(self.delta()));
                notes.push(format!(
                    "calls {} as saved (--calls {} overrides)",
                    session_file::call_name(mode),
                    match mode {
                        crate::session::CallMode::Inline => "contract",
                        crate::session::CallMode::Contract => "inline",
                    }
                ));
            }
        }
        let mut carry = r.carry;
        // (a watch that does not parse or type-check in any scope, from a hand-edited file
        // or a program that changed, is refused as `W` refuses it)
        let bad: Vec<String> = carry
            .watches
            .iter()
            .filter(|w| self.session.compiles_somewhere(w).is_err())
            .cloned()
            .collect();
        if !bad.is_empty() {
            carry.watches.retain(|w| !bad.contains(w));
            notes.push(format!(
                "watches that make sense in no scope dropped: {}",
                bad.iter()
                    .map(|w| format!("`{}`", crate::base::escape::escape_text(w)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if carry.assumptions != self.session.source().assumptions {
            // The saved preconditions replace the command line's: a new session under them.
            match super::assume::reopen(&self.session, &carry.assumptions) {
                Ok(session) => {
                    self.session = session;
                    self.sent = 0;
                    self.open_sent.clear();
                    emit(Reply::Assumed(Ok(carry.assumptions.clone())));
                    emit(Reply::Ready(self.delta()));
                }
                Err(_) => {
                    notes.push(
                        "its assumptions do not apply to this program: the command line's are kept"
                            .to_string(),
                    );
                    carry.assumptions = self.session.source().assumptions.clone();
                }
            }
        }
        let source = self.session.source().clone();
        carry.breakpoints = remap(&mut carry, r.texts, &source, &mut notes);
        emit(Reply::Carry(carry));
        // Other options (another `--entry`) can leave little of the tree: said first, so
        // the status line never cuts it off.
        let what = if r.other_options.is_empty() {
            format!("session restored from {name}")
        } else {
            format!(
                "session saved with {} (reopen so to restore all of it) from {name}",
                r.other_options.join(" ")
            )
        };
        self.replay(&what, &r.frontier, &r.selected, notes, None, emit);
    }

    /// Replay `frontier`, select the node `path` names (or its deepest existing ancestor)
    /// and finish with a message: `what`, how the behaviour compares with `previous`'s
    /// (a reload's old session, [`Worker::compare`]), what did not apply, `notes`.
    fn replay(
        &mut self,
        what: &str,
        frontier: &[FrontierStep],
        path: &[u32],
        notes: Vec<String>,
        previous: Option<Session>,
        emit: &dyn Fn(Reply),
    ) {
        let progress = Progress::new(emit);
        let r = self
            .session
            .replay_frontier(frontier, self.max_nodes, &|n| progress.tick(n));
        let (node, followed) = self.session.follow(path);
        let mut parts = vec![format!("{what}: {} replayed", count(r.stepped, "step"))];
        if let Some(mut previous) = previous {
            parts.push(self.compare(&mut previous));
        }
        if r.cancelled {
            parts.push("the replay was interrupted (Esc)".to_string());
        }
        if r.limited {
            parts.push(format!(
                "the replay stopped at the node limit ({}; --max-nodes)",
                self.max_nodes
            ));
        }
        if r.missing + r.skipped > 0 {
            parts.push(format!(
                "{} no longer apply",
                count(r.missing + r.skipped, "step")
            ));
        }
        if followed < path.len() {
            parts.push("the selected node is gone: its nearest ancestor is selected".into());
        }
        parts.extend(notes);
        self.finish(emit, Some(node), parts.join("; "));
    }

    /// How the reloaded program behaves on the explored paths against the previous one
    /// (`session::diff` over the two trees, the old one as explored, the new one as
    /// replayed): `behaviour changed on N paths: WITNESS; ...`, `behaviour unchanged on
    /// the explored paths`, or why they were not compared (trees over [`MAX_PAIRS`]
    /// pairs of leaves: the work is a solver query per pair).
    fn compare(&mut self, previous: &mut Session) -> String {
        let pairs = diff::leaf_pairs(previous, &self.session);
        if pairs > MAX_PAIRS {
            return format!(
                "behaviour not compared: tree too large ({pairs} pairs of leaves, over {MAX_PAIRS})"
            );
        }
        let report = match diff::diff(previous, &mut self.session) {
            Ok(r) => r,
            Err(_) => return "behaviour not compared: the inputs changed".to_string(),
        };
        let n = report.differences.len();
        // (an interrupted or hard query leaves a pair undecided: said, not hidden)
        let undecided = match report.undecided {
            0 => String::new(),
            k => format!(" ({} the solver did not decide)", count(k, "pair")),
        };
        if n == 0 {
            return format!("behaviour unchanged on the explored paths{undecided}");
        }
        let name = self.session.source().name.clone();
        let mut witnesses: Vec<String> = report
            .differences
            .iter()
            .take(WITNESSES_SHOWN)
            .map(|d| diff::difference_line(d, &name, &name))
            .collect();
        if n > WITNESSES_SHOWN {
            witnesses.push(format!("{} more", n - WITNESSES_SHOWN));
        }
        format!(
            "behaviour changed on {}: {}{undecided}",
            count(n, "path"),
            witnesses.join("; ")
        )
    }

    /// The path of child indices to a node the UI names (the root if it does not exist).
    fn selected_path(&self, id: NodeId) -> Vec<u32> {
        if id.index() < self.session.tree().len() {
            self.session.path_to(id)
        } else {
            Vec::new()
        }
    }

    /// Where `S` writes: the `--session` file, else `PROGRAM.symdbg-session`.
    fn session_path(&self) -> Option<PathBuf> {
        self.files.session.clone().or_else(|| {
            self.files
                .program
                .as_deref()
                .map(session_file::default_path)
        })
    }
}

/// The carried breakpoints (with their old line texts) on `source`; a note when any moved
/// or was dropped.
fn remap(
    carry: &mut Carry,
    texts: Vec<Option<String>>,
    source: &crate::base::SourceMap,
    notes: &mut Vec<String>,
) -> Vec<carry::Breakpoint> {
    let old = std::mem::take(&mut carry.breakpoints)
        .into_iter()
        .zip(texts.into_iter().chain(std::iter::repeat(None)))
        .collect();
    let (kept, note) = carry::remap(old, source);
    notes.extend(note);
    kept
}

/// The session's preconditions (`--assume`), as the UI keeps them.
fn assumptions_now(session: &Session) -> Vec<String> {
    session.source().assumptions.clone()
}
