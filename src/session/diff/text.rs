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

#[cfg(test)]
mod tests {
    use super::*;

    fn normal(stdout: &str) -> Behaviour {
        Behaviour {
            outcome: "normal",
            exception: None,
            line: None,
            return_value: None,
            store: BTreeMap::new(),
            stdout: stdout.to_string(),
        }
    }

    #[test]
    fn printed_output_reads_on_one_line_escaped_and_cut() {
        assert_eq!(stdout_text(""), "nothing");
        assert_eq!(stdout_text("1 True\n(1, 2)\n"), "\"1 True\\n(1, 2)\\n\"");
        let long = "7\n".repeat(100);
        let shown = stdout_text(&long);
        assert!(shown.ends_with("...\""), "{shown}");
        assert_eq!(shown.matches("7").count(), STDOUT_SHOWN / 2);
        // A control character never reaches the terminal raw.
        assert!(!stdout_text("a\x1b[2Jb").contains('\x1b'));
    }

    #[test]
    fn a_normal_end_that_differs_in_its_output_says_prints() {
        let what = vec!["stdout".to_string()];
        assert_eq!(describe(&normal("1\n"), "p.py", &what), "prints \"1\\n\"");
        assert_eq!(describe(&normal("1\n"), "p.py", &[]), "ends normally");
        let mut raised = normal("");
        raised.outcome = "exception";
        raised.exception = Some("IndexError".into());
        raised.line = Some(4);
        assert_eq!(
            describe(&raised, "p.py", &what),
            "raises IndexError at p.py:4, printing nothing"
        );
    }
}
