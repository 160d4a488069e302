//! The first word of the command line when it is neither a subcommand nor a file:
//! `symdbg runn gcd.py` is a misspelt command, not a program named `runn` (clap alone would
//! read `runn` as the debugger's FILE and complain about `gcd.py`).

use std::ffi::OsString;
use std::path::Path;

/// The subcommands, as the user types them.
const COMMANDS: [&str; 7] = ["run", "check", "exec", "testgen", "diff", "dap", "help"];

/// How similar (Jaro, as clap's own suggestions measure it) a word must be to a command to
/// be suggested.
const SIMILAR: f64 = 0.7;

/// The message for `args` (the program name first) when its first word is an unknown
/// command, `None` when clap should parse it: the word is a command, an option, an
/// existing path, or looks like a file name (`prog.py`, `dir/prog`) and is like no
/// command: then "cannot read" is the right message.
/// Returns the message and a note listing the commands.
pub(super) fn unknown(args: &[OsString]) -> Option<(String, String)> {
    let first = args.get(1)?.to_str()?;
    if first.starts_with('-') || COMMANDS.contains(&first) || Path::new(first).exists() {
        return None;
    }
    let guess = suggestion(first);
    let looks_like_file = first.contains(['.', '/', std::path::MAIN_SEPARATOR]);
    if guess.is_none() && looks_like_file {
        return None;
    }
    let shown = crate::base::escape::escape(first);
    let message = match guess {
        Some(c) => format!("unknown command `{shown}`; did you mean `{c}`?"),
        None => format!("unknown command `{shown}`, and no file of that name"),
    };
    let note = "the commands are run, check, exec, testgen, diff and dap; `symdbg FILE` opens the \
                debugger on a program";
    Some((message, note.to_string()))
}

/// The command most similar to `word`, if similar enough.
fn suggestion(word: &str) -> Option<&'static str> {
    COMMANDS
        .iter()
        .map(|c| (strsim::jaro(word, c), *c))
        .filter(|(score, _)| *score > SIMILAR)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<OsString> {
        std::iter::once("symdbg")
            .chain(words.iter().copied())
            .map(OsString::from)
            .collect()
    }

    #[test]
    fn misspelt_commands_are_named_with_a_suggestion() {
        let (m, _) = unknown(&args(&["runn", "gcd.py"])).expect("unknown command");
        assert!(
            m.starts_with("unknown command `runn`; did you mean `run`?"),
            "{m}"
        );
        let (m, _) = unknown(&args(&["chek", "gcd.py"])).expect("unknown command");
        assert!(m.contains("did you mean `check`?"), "{m}");
        let (m, _) = unknown(&args(&["tstgen"])).expect("unknown command");
        assert!(m.contains("did you mean `testgen`?"), "{m}");
        // Unlike any command, but followed by a file: still not a program name.
        let (m, _) = unknown(&args(&["frobnicate", "gcd.py"])).expect("unknown command");
        assert!(
            m.starts_with("unknown command `frobnicate`, and no file"),
            "{m}"
        );
    }

    #[test]
    fn commands_options_and_file_names_are_left_to_clap() {
        assert_eq!(unknown(&args(&["run", "gcd.py"])), None);
        assert_eq!(unknown(&args(&["--help"])), None);
        assert_eq!(unknown(&args(&[])), None);
        // A missing program file: "cannot read" says it better.
        assert_eq!(unknown(&args(&["missing.py"])), None);
        assert_eq!(unknown(&args(&["dir/prog", "--unroll", "4"])), None);
        // An existing file named like a command's misspelling is the debugger's FILE.
        assert_eq!(unknown(&args(&["Cargo.toml"])), None);
    }
}
