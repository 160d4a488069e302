//! Diagnostics as plain data, rendered rustc-style (file:line:col, the source line, a caret).
//!
//! Every stage reports user mistakes as [`Diagnostic`]s, never as panics. Rendering happens
//! at the edge (the CLI) through `codespan-reporting`.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};

use crate::lang::{SourceMap, Span};

/// One error about the program or the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The headline, e.g. "expected an expression".
    pub message: String,
    /// Where; `None` for errors that are not about a place in the source.
    pub span: Option<Span>,
    /// Text under the caret, e.g. "expected `:` here". May be empty.
    pub label: String,
    /// Extra lines: "help: declare the input with `x: int`".
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span: Some(span),
            label: String::new(),
            notes: Vec::new(),
        }
    }

    /// An error without a source position.
    pub fn global(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span: None,
            label: String::new(),
            notes: Vec::new(),
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Render for a terminal (or a test): `error: ...` / `--> file:line:col` / source / caret.
    pub fn render(&self, source: &SourceMap, color: bool) -> String {
        render_all(std::slice::from_ref(self), source, color)
    }
}

/// Render several diagnostics, one after the other.
pub fn render_all(diags: &[Diagnostic], source: &SourceMap, color: bool) -> String {
    let file = SimpleFile::new(source.name.as_str(), source.text.as_str());
    let config = term::Config {
        chars: term::Chars::ascii(),
        ..term::Config::default()
    };
    let mut buf = if color {
        termcolor::Buffer::ansi()
    } else {
        termcolor::Buffer::no_color()
    };
    for d in diags {
        let mut cs = CsDiagnostic::error().with_message(&d.message);
        if let Some(span) = d.span {
            let end = span.end.max(span.start).min(source.text.len());
            let start = span.start.min(end);
            cs = cs.with_labels(vec![
                Label::primary((), start..end).with_message(d.label.as_str())
            ]);
        }
        cs = cs.with_notes(d.notes.clone());
        if term::emit(&mut buf, &config, &file, &cs).is_err() {
            // codespan only fails on bad spans; fall back to a plain line.
            let (l, c) = d.span.map_or((0, 0), |s| source.line_col(s.start));
            return format!("error: {}\n --> {}:{}:{}\n", d.message, source.name, l, c);
        }
    }
    String::from_utf8_lossy(buf.as_slice()).into_owned()
}
