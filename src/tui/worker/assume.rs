//! `a` / `A`: start again from the root under other `--assume` preconditions.

use super::{Progress, Worker};
use crate::base::SourceMap;
use crate::diagnostics::Diagnostic;
use crate::session::{Config, Loaded, NodeId, Policy, Session};
use crate::tui::protocol::Reply;

/// The session on `source` under the preconditions `texts`.
pub(super) fn open(
    source: SourceMap,
    entry: Option<&str>,
    config: Config,
    texts: &[String],
) -> Result<Session, Vec<Diagnostic>> {
    let mut loaded = Loaded::new(source)?;
    loaded.assume(entry, texts)?;
    Session::new(loaded, entry, config)
}

/// The session on the program as it is now (after any reload) under `texts`.
pub(super) fn reopen(session: &Session, texts: &[String]) -> Result<Session, Vec<Diagnostic>> {
    open(
        session.source().clone(),
        session.entry(),
        session.config().clone(),
        texts,
    )
}

/// One line for the status line: the first diagnostic, located in its `--assume`.
fn refusal(diags: &[Diagnostic], session: &Session, texts: &[String]) -> String {
    let Some(d) = diags.first() else {
        return "the assumption was refused".to_string();
    };
    let mut source = session.source().clone();
    source.assumptions = texts.to_vec();
    let place = d.span.map(|s| {
        let (line, col) = source.line_col(s.start);
        format!("{}, column {col}: ", crate::base::span::line_name(line))
    });
    let label = if d.label.is_empty() {
        String::new()
    } else {
        format!(" ({})", d.label)
    };
    crate::base::escape::escape_text(&format!(
        "not assumed: {}{}{label}",
        place.unwrap_or_default(),
        d.message
    ))
    .into_owned()
}

impl Worker {
    /// Rebuild the session under `texts` (the old one stays when they are refused).
    pub(super) fn assume(&mut self, texts: Vec<String>, rerun: bool, emit: &dyn Fn(Reply)) {
        let session = match reopen(&self.session, &texts) {
            Ok(s) => s,
            Err(d) => {
                let message = refusal(&d, &self.session, &texts);
                emit(Reply::Assumed(Err(message.clone())));
                emit(Reply::Done {
                    select: None,
                    message,
                });
                return;
            }
        };
        self.session = session;
        self.sent = 0;
        self.open_sent.clear();
        emit(Reply::Assumed(Ok(texts.clone())));
        emit(Reply::Ready(self.delta()));
        let what = match texts.len() {
            0 => "no assumptions".to_string(),
            n => format!("{} in force", crate::diagnostics::count(n, "assumption")),
        };
        let mut message = format!("{what}: the tree starts again at the root (breakpoints kept)");
        if rerun {
            let progress = Progress::new(emit);
            let ran = self
                .session
                .run(NodeId(0), Policy::Subtree, self.limits(), &|n| {
                    progress.tick(n)
                });
            message = format!(
                "{what}: re-explored from the root; {}",
                self.message(ran.ended, "the subtree is explored")
            );
            emit(Reply::Delta(self.delta()));
        }
        emit(Reply::Done {
            select: Some(NodeId(0)),
            message,
        });
    }
}
