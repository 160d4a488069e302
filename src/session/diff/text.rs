//! How a difference reads (the command line's `symdbg diff` and the debugger's `L`).

use std::collections::BTreeMap;

use super::{Behaviour, Difference};
use crate::concrete::Value;

/// Printed output longer than this (characters) is cut in a description.
const STDOUT_SHOWN: usize = 60;

/// `x = -1, t = (1, 2)`, or `(no inputs)`.
pub fn inputs_text(inputs: &BTreeMap<String, Value>) -> String {
    if inputs.is_empty() {
        return "(no inputs)".to_string();
    }
    let v: Vec<String> = inputs.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    v.join(", ")
}

/// `returns 1`, `raises ZeroDivisionError at new.py:7`, `ends with y = 2`, each followed
/// by `, printing "1\n"` when the printed output is among what differs (`what`);
/// `prints "1\n"` for a normal end that differs in nothing else shown.
pub fn describe(b: &Behaviour, file: &str, what: &[String]) -> String {
    let mut out = match (b.outcome, &b.exception) {
        (_, Some(class)) => match b.line {
            Some(l) => format!("raises {class} at {file}:{l}"),
            None => format!("raises {class}"),
        },
        ("return", _) => match &b.return_value {
            Some(v) => format!("returns {v}"),
            None => "returns None".to_string(),
        },
        ("step_limit", _) => "runs past the interpreter's step limit".to_string(),
        _ => {
            let vars: Vec<String> = b
                .store
                .iter()
                .filter(|(k, _)| what.contains(k))
                .map(|(k, v)| format!("{k} = {v}"))
                .collect();
            if vars.is_empty() {
                "ends normally".to_string()
            } else {
                format!("ends with {}", vars.join(", "))
            }
        }
    };
    if what.iter().any(|w| w == "stdout") {
        let printed = stdout_text(&b.stdout);
        if out == "ends normally" {
            out = format!("prints {printed}");
        } else {
            out.push_str(&format!(", printing {printed}"));
        }
    }
    out
}

/// Printed output as a quoted one-line text: `"1\n2\n"` (line breaks as `\n`, other
/// controls escaped, cut after [`STDOUT_SHOWN`] characters), `nothing` when empty.
pub fn stdout_text(stdout: &str) -> String {
    if stdout.is_empty() {
        return "nothing".to_string();
    }
    let mut shown: String = stdout.chars().take(STDOUT_SHOWN).collect();
    let cut = shown.len() < stdout.len();
    shown = shown
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n");
    let shown = crate::base::escape::escape(&shown);
    format!("\"{shown}{}\"", if cut { "..." } else { "" })
}

/// One line per difference: `x = -1: old returns 1, new raises ZeroDivisionError at
/// new.py:7`.
pub fn difference_line(d: &Difference, old: &str, new: &str) -> String {
    format!(
        "{}: old {}, new {}",
        inputs_text(&d.inputs),
        describe(&d.old, old, &d.what),
        describe(&d.new, new, &d.what)
    )
}
