//! The README's shown commands and outputs stay true (issue 23 item 21): every ```console
//! block is read as a terminal session — a line `$ COMMAND` and, up to the next `$ ` line
//! or the block's end, what it prints (standard output, then standard error) — and each
//! `symdbg` command is run with the built binary from the repository root and its output
//! compared, line by line (trailing spaces and trailing empty lines aside).
//!
//! `cargo run --release -- ARGS` is the binary with ARGS (after `scripts/setup && `, which
//! installs what is missing and is not run here). Not run: other programs
//! (`cargo test`, `scripts/setup`, pytest), the terminal debugger (`symdbg FILE`, no
//! subcommand), and shell pipelines or redirections. `-o FILE`, `--lcov FILE` and
//! `--pytest FILE` are written to a temporary directory instead (the output's mentions of
//! FILE are read as that path), and `cat FILE` of such a file shows what was written.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::util::triple;

/// One `$ ` line of a console block and the output shown under it.
#[derive(Debug)]
struct Shown {
    /// 1-based line of the README where the command is.
    line: usize,
    command: String,
    output: Vec<String>,
}

/// Every command of every ```console block, in order.
fn console_commands(readme: &str) -> Vec<Shown> {
    let mut out = Vec::new();
    let mut in_console = false;
    for (k, line) in readme.lines().enumerate() {
        let fence = line.trim_start();
        if fence.starts_with("```") {
            in_console = !in_console && fence.trim_start_matches('`').trim() == "console";
            continue;
        }
        if !in_console {
            continue;
        }
        match line.strip_prefix("$ ") {
            Some(command) => out.push(Shown {
                line: k + 1,
                command: command.to_string(),
                output: Vec::new(),
            }),
            None => {
                if let Some(last) = out.last_mut() {
                    last.output.push(line.to_string());
                }
            }
        }
    }
    out
}

/// Words of a command line: spaces separate, single and double quotes group.
fn words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, ' ') => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// Does `command` use a pipe, a redirection or a command separator (outside quotes)?
fn shell_syntax(command: &str) -> bool {
    let mut quote = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '|' | '>' | '<' | ';' | '&') => return true,
            (None, _) => {}
        }
    }
    false
}

/// The arguments of a `symdbg` command the test runs, or `None` (see the module docs).
fn symdbg_args(command: &str) -> Option<Vec<String>> {
    // The Quick start's first command sets up what is missing first (scripts/setup prints
    // nothing when nothing is).
    let command = command.strip_prefix("scripts/setup && ").unwrap_or(command);
    if shell_syntax(command) {
        return None;
    }
    let words = words(command);
    let args = match words.first().map(String::as_str) {
        Some("symdbg") => &words[1..],
        Some("cargo") if words[..4.min(words.len())] == ["cargo", "run", "--release", "--"] => {
            &words[4..]
        }
        _ => return None,
    };
    let subcommand = args.first().map(String::as_str);
    matches!(
        subcommand,
        Some("run" | "check" | "exec" | "testgen" | "diff")
    )
    .then(|| args.to_vec())
}

/// Lines without trailing spaces, without trailing empty lines.
fn normalised(lines: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = lines
        .into_iter()
        .map(|l| l.trim_end().to_string())
        .collect();
    while v.last().is_some_and(String::is_empty) {
        v.pop();
    }
    v
}

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md")
}

#[test]
fn the_console_blocks_are_read_as_commands_and_outputs() {
    let text = "intro\n```console\n$ symdbg run a.py\nout 1\n\nout 2\n$ cargo test\n```\n\
                ```text\n$ symdbg run not_a_console_block.py\n```\n";
    let shown = console_commands(text);
    assert_eq!(shown.len(), 2, "{shown:?}");
    assert_eq!(shown[0].command, "symdbg run a.py");
    assert_eq!(shown[0].line, 3);
    assert_eq!(shown[0].output, ["out 1", "", "out 2"]);
    assert_eq!(
        symdbg_args("cargo run --release -- run f.py --assume \"x > 0\""),
        Some(vec![
            "run".to_string(),
            "f.py".into(),
            "--assume".into(),
            "x > 0".into()
        ])
    );
    assert_eq!(symdbg_args("cargo test"), None);
    assert_eq!(
        symdbg_args("cargo run --release -- examples/inversion.py"),
        None
    );
    assert_eq!(
        symdbg_args("symdbg run f.py --dot | dot -Tsvg > f.svg"),
        None
    );
}

/// Every shown `symdbg` command prints what the README says it prints.
#[test]
fn readme_commands_print_what_the_readme_shows() {
    let readme = readme();
    let shown = console_commands(&readme);
    let tmp = std::env::temp_dir().join(format!("symdbg-readme-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temporary directory");
    let mut ran = 0;
    let mut failures = Vec::new();
    // The files the commands wrote so far: (as the README names them, where they are).
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    for s in &shown {
        let cat = s.command.strip_prefix("cat ").and_then(|f| {
            let (_, path) = files.iter().find(|(name, _)| name == f.trim())?;
            Some(std::fs::read_to_string(path).unwrap_or_default())
        });
        if let Some(text) = cat {
            let actual = normalised(text.lines().map(str::to_string));
            let expected = normalised(s.output.iter().cloned());
            ran += 1;
            if actual != expected {
                failures.push(format!(
                    "README.md:{}: $ {}\n--- the README shows:\n{}\n--- the file holds:\n{}\n",
                    s.line,
                    s.command,
                    expected.join("\n"),
                    actual.join("\n")
                ));
            }
            continue;
        }
        let Some(mut args) = symdbg_args(&s.command) else {
            continue;
        };
        // `-o FILE`, `--lcov FILE`, `--pytest FILE`: into the temporary directory.
        let mut written: Option<(String, PathBuf)> = None;
        if let Some(k) = args
            .iter()
            .position(|a| ["-o", "--lcov", "--pytest"].contains(&a.as_str()))
        {
            if let Some(file) = args.get(k + 1).cloned() {
                let path = tmp.join(Path::new(&file).file_name().expect("a file name"));
                let _ = std::fs::remove_file(&path);
                args[k + 1] = path.to_string_lossy().into_owned();
                files.push((file.clone(), path.clone()));
                written = Some((file, path));
            }
        }
        let out = Command::new(env!("CARGO_BIN_EXE_symdbg"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("NO_COLOR", "1")
            .output()
            .expect("run symdbg");
        let (_, stdout, stderr) = triple(out);
        let mut actual = format!("{stdout}{stderr}");
        if let Some((file, path)) = &written {
            actual = actual.replace(&*path.to_string_lossy(), file);
        }
        let actual = normalised(actual.lines().map(str::to_string));
        let expected = normalised(s.output.iter().cloned());
        ran += 1;
        if actual != expected {
            failures.push(format!(
                "README.md:{}: $ {}\n--- the README shows:\n{}\n--- it prints:\n{}\n",
                s.line,
                s.command,
                expected.join("\n"),
                actual.join("\n")
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(ran >= 5, "only {ran} README commands were run");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
