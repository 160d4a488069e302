//! Hostile input for the front-end and the terminal: input bursts and bracketed pastes,
//! fatal signals, control characters in sources and file names, form feeds, builtin names,
//! `--entry` on a predicate, broken themes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::tui_e2e::{Tui, TIMEOUT};

/// Write `bytes` to the program's terminal from another thread: a burst larger than the
/// pty's input buffer blocks the writer until the program reads it. Joining the thread
/// gives the writer back.
fn burst(tui: &mut Tui, bytes: Vec<u8>) -> std::thread::JoinHandle<Box<dyn Write + Send>> {
    let mut input = std::mem::replace(&mut tui.input, Box::new(std::io::sink()));
    std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
        let _ = input.flush();
        input
    })
}

/// Wait for the program to exit within `limit`; its exit code.
fn exits_within(tui: &mut Tui, limit: Duration) -> u32 {
    let start = Instant::now();
    loop {
        if let Some(status) = tui.child.try_wait().expect("wait") {
            let _ = status;
            break;
        }
        if start.elapsed() > limit {
            panic!(
                "symdbg still runs {:?} after the burst:\n{}",
                start.elapsed(),
                tui.text()
            );
        }
        tui.pump(Duration::from_millis(50));
    }
    tui.wait_exit()
}

/// 20,000 keys then `q` (more than the pty's 4 kB input buffer, and far more than the 1 kB
/// after which crossterm's default reader stopped): all are read, handled a burst per frame
/// (one frame per key took 11 s here), and `q` quits.
#[test]
fn a_burst_of_twenty_thousand_keys_then_q_quits() {
    let mut tui = Tui::spawn(&["examples/window_sum.py"]);
    tui.wait_for("the start screen", |s| s.contains("1 open"));
    let mut keys = vec![b'j'; 20_000];
    keys.push(b'q');
    let writer = burst(&mut tui, keys);
    let start = Instant::now();
    let code = exits_within(&mut tui, TIMEOUT);
    // `exits_within` is the hang guard; no bound on the speed (the load decides it).
    eprintln!("20,000 keys took {:?}", start.elapsed());
    writer.join().expect("writer");
    assert_eq!(code, 0, "{}", tui.text());
    tui.assert_restored();
}

/// A bracketed paste (5,000 characters, control characters and a `q` among them) is one
/// event: it is ignored with a message, it runs no command, and the next key still works.
#[test]
fn a_bracketed_paste_is_ignored_then_q_quits() {
    let mut tui = Tui::spawn(&["examples/window_sum.py"]);
    tui.wait_for("the start screen", |s| s.contains("1 open"));
    assert!(tui.screen().bracketed_paste(), "bracketed paste is on");
    let mut bytes = b"\x1b[200~".to_vec();
    for i in 0..5000 {
        bytes.push(b"jq\x1b]0;x\x07rs"[i % 10]);
    }
    bytes.extend_from_slice(b"\x1b[201~");
    let writer = burst(&mut tui, bytes);
    tui.wait_for("the paste message", |s| s.contains("paste ignored (5000"));
    tui.input = writer.join().expect("writer");
    assert!(
        tui.child.try_wait().expect("wait").is_none(),
        "the paste quit"
    );
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    tui.assert_restored();
    assert!(
        !tui.screen().bracketed_paste(),
        "bracketed paste is off again"
    );
}

/// `kill -NAME` the program after its first frame: the terminal is restored and the exit
/// status is 128 + the signal's number.
fn signal_restores_the_terminal(name: &str, number: u32) {
    let mut tui = Tui::spawn(&["examples/inversion.py"]);
    tui.wait_for("the start screen", |s| s.contains("1 open"));
    let pid = tui.child.process_id().expect("pid");
    let kill = Command::new("sh")
        .args(["-c", &format!("kill -{name} {pid}")])
        .status()
        .expect("run kill");
    assert!(kill.success(), "kill -{name}");
    let code = tui.wait_exit();
    assert_eq!(code, 128 + number, "exit status after SIG{name}");
    tui.assert_restored();
}

/// (signal numbers as on Linux)
#[cfg(target_os = "linux")]
#[test]
fn sigquit_and_sigusr1_restore_the_terminal() {
    signal_restores_the_terminal("QUIT", 3);
    signal_restores_the_terminal("USR1", 10);
}

#[cfg(target_os = "linux")]
#[test]
fn every_catchable_fatal_signal_restores_the_terminal() {
    for (name, number) in [
        ("USR2", 12),
        ("ALRM", 14),
        ("VTALRM", 26),
        ("PROF", 27),
        ("XCPU", 24),
        ("XFSZ", 25),
        ("IO", 29),
        ("ABRT", 6),
    ] {
        signal_restores_the_terminal(name, number);
    }
}

/// An escape sequence cut short (Alt+[ sends `ESC [`) leaves crossterm's reader waiting for
/// its end: the program must not take that for a dead terminal.
#[test]
fn an_unfinished_escape_sequence_is_not_a_dead_terminal() {
    let mut tui = Tui::spawn(&["examples/inversion.py"]);
    tui.wait_for("the start screen", |s| s.contains("1 open"));
    tui.press("\x1b[");
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        tui.pump(Duration::from_millis(100));
    }
    assert!(
        tui.child.try_wait().expect("wait").is_none(),
        "symdbg ended after an unfinished escape sequence:\n{}",
        tui.text()
    );
    tui.press("qq");
    assert_eq!(tui.wait_exit(), 0, "{}", tui.text());
    tui.assert_restored();
}

/// While crossterm's reader waits for the end of a cut escape sequence, the event loop is
/// free: a signal ends the program at once (not after the watchdog's 3 s).
#[cfg(target_os = "linux")]
#[test]
fn a_signal_ends_the_program_promptly_while_the_reader_waits() {
    let mut tui = Tui::spawn(&["examples/inversion.py"]);
    tui.wait_for("the start screen", |s| s.contains("1 open"));
    tui.press("\x1b[");
    std::thread::sleep(Duration::from_millis(500));
    let pid = tui.child.process_id().expect("pid");
    let start = Instant::now();
    let kill = Command::new("sh")
        .args(["-c", &format!("kill -USR1 {pid}")])
        .status()
        .expect("run kill");
    assert!(kill.success());
    loop {
        if tui.child.try_wait().expect("wait").is_some() {
            break;
        }
        // A hang guard: the program must end on the signal, however loaded the machine.
        assert!(
            start.elapsed() < TIMEOUT,
            "still running {:?} after SIGUSR1",
            start.elapsed()
        );
        tui.pump(Duration::from_millis(20));
    }
    assert_eq!(tui.wait_exit(), 138);
    tui.assert_restored();
}

// ---- Control characters, form feeds, builtin names, --entry, themes: the CLI ----

/// A fresh directory for one test's files.
fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "symdbg-hostile-front-{}-{tag}-{n}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `symdbg ARGS` run in `dir` (10 s at most): exit code, stdout, stderr.
fn symdbg_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new("timeout")
        .arg("10")
        .arg(env!("CARGO_BIN_EXE_symdbg"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run symdbg");
    super::util::triple(out)
}

/// `python3 FILE` in `dir`: exit code and the last line of stderr.
fn python_in(dir: &Path, file: &str) -> (i32, String) {
    let out = Command::new("python3")
        .arg(file)
        .current_dir(dir)
        .output()
        .expect("cannot start python3");
    let err = String::from_utf8_lossy(&out.stderr);
    (
        out.status.code().unwrap_or(-1),
        err.lines().last().unwrap_or("").to_string(),
    )
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write program");
}

/// No raw control character (ESC, BEL, CSI, ...) in what symdbg printed.
fn assert_no_raw_controls(what: &str, text: &str) {
    let bad: Vec<char> = text
        .chars()
        .filter(|c| c.is_control() && !matches!(c, '\n' | '\t'))
        .collect();
    assert!(bad.is_empty(), "{what} printed raw {bad:?}:\n{text}");
}

/// Characters CPython refuses outside comments, with a few it accepts in comments.
const NON_PRINTABLE: &[char] = &[
    '\x1b',
    '\x07',
    '\x0b',
    '\x1c',
    '\x7f',
    '\u{85}',
    '\u{9b}',
    '\u{a0}',
    '\u{ad}',
    '\u{200b}',
    '\u{202e}',
    '\u{2028}',
    '\u{3000}',
    '\u{feff}',
    '\u{e000}',
    '\u{e0001}',
];

#[test]
fn non_printable_characters_in_code_are_refused_as_cpython_refuses_them() {
    let dir = temp_dir("nonprint");
    for (i, &c) in NON_PRINTABLE.iter().enumerate() {
        let expected = format!("invalid non-printable character U+{:04X}", c as u32);
        for (j, program) in [
            format!("x = 1 {c}\nassert x == 1\n"),
            format!("{c}x = 1\n"),
            format!("x = 1\nif x > 0:\n    y = (x,{c} 2)\n"),
        ]
        .iter()
        .enumerate()
        {
            let file = format!("p{i}_{j}.py");
            write(&dir, &file, program);
            let (py, py_err) = python_in(&dir, &file);
            if c == '\u{feff}' && j == 1 {
                // A byte-order mark at the very start is no character of the program.
                assert_eq!(py, 0, "python3 on a leading BOM: {py_err}");
                assert_eq!(symdbg_in(&dir, &["exec", &file]).0, 0, "leading BOM");
                continue;
            }
            assert_eq!(py, 1, "python3 accepted {program:?}");
            assert!(py_err.ends_with(&expected), "python3: {py_err}");
            let cmds: &[&str] = if j == 0 { &["run", "exec"] } else { &["run"] };
            for &cmd in cmds {
                let (code, out, err) = symdbg_in(&dir, &[cmd, &file]);
                assert_eq!(code, 2, "symdbg {cmd} {program:?}:\n{out}{err}");
                assert!(
                    err.contains(&format!("error: {expected}")),
                    "{cmd} {program:?}:\n{err}"
                );
                assert_no_raw_controls(cmd, &err);
            }
        }
        // In a comment both accept it.
        let file = format!("c{i}.py");
        write(&dir, &file, &format!("x = 1  # a {c} b\nassert x == 1\n"));
        assert_eq!(python_in(&dir, &file).0, 0, "python3 on a comment {c:?}");
        let (code, out, err) = symdbg_in(&dir, &["exec", &file]);
        assert_eq!(code, 0, "comment {c:?}:\n{out}{err}");
        assert!(out.contains("outcome: normal"), "{out}");
    }
    // A NUL byte is refused anywhere, comments included.
    for (k, program) in ["x = 1  # \0\n", "x = \x001\n"].iter().enumerate() {
        let file = format!("nul{k}.py");
        write(&dir, &file, program);
        let (_, py_err) = python_in(&dir, &file);
        assert!(py_err.ends_with("source code cannot contain null bytes"));
        let (code, _, err) = symdbg_in(&dir, &["run", &file]);
        assert_eq!(code, 2);
        assert!(
            err.contains("error: source code cannot contain null bytes"),
            "{err}"
        );
        assert_no_raw_controls("run", &err);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An OSC "set title" sequence (ESC ] 0 ; title BEL) in comments and in the file name never
/// reaches the terminal raw: every output shows it escaped.
#[test]
fn an_osc_sequence_in_comments_and_file_names_is_printed_escaped() {
    let dir = temp_dir("osc");
    let osc = "\x1b]0;pwned\x07";
    let shown = "\\x1b]0;pwned\\x07";
    let name = format!("bad{osc}.py");
    write(
        &dir,
        &name,
        &format!("x: int  # {osc}\nif x > 1:  # {osc}\n    assert x < 5  # {osc}\n"),
    );
    for args in [
        vec!["run", name.as_str()],
        vec!["run", "--tree", &name],
        vec!["run", "--counterexamples", &name],
        vec!["run", "--dot", &name],
        vec!["check", &name],
        vec!["exec", &name, "--input", "x=7"],
    ] {
        let (code, out, err) = symdbg_in(&dir, &args);
        assert!(code == 0 || code == 1, "{args:?}: {code}\n{out}{err}");
        assert_no_raw_controls(&format!("{args:?}"), &out);
        assert_no_raw_controls(&format!("{args:?}"), &err);
        // (DOT doubles the backslashes of its labels)
        let dot = shown.replace('\\', "\\\\");
        assert!(
            out.contains(shown) || out.contains(&dot) || args[0] == "check",
            "{args:?} shows the escaped text:\n{out}"
        );
    }
    let (_, out, _) = symdbg_in(&dir, &["exec", &name, "--input", "x=7"]);
    assert!(out.contains(&format!("bad{shown}.py:3:")), "{out}");
    // A diagnostic on a line with the sequence, in a file named with it.
    write(&dir, &name, &format!("x: int\ny = z  # {osc}\n"));
    let (code, out, err) = symdbg_in(&dir, &["run", &name]);
    assert_eq!(code, 2, "{out}{err}");
    assert_no_raw_controls("diagnostic", &err);
    assert!(err.contains(&format!("--> bad{shown}.py:2:5")), "{err}");
    assert!(err.contains(&format!("y = z  # {shown}")), "{err}");
    // The caret still points at `z`.
    let code_line = err.lines().find(|l| l.contains("y = z")).unwrap();
    let caret_line = err.lines().find(|l| l.contains('^')).unwrap();
    let col = caret_line.find('^').unwrap();
    assert_eq!(&code_line[col..col + 1], "z", "{err}");
    // A file that cannot be read, named with it.
    let (code, _, err) = symdbg_in(&dir, &["run", &format!("missing{osc}.py")]);
    assert_eq!(code, 2);
    assert_no_raw_controls("missing file", &err);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The debugger shows the sequence escaped in its code and tree panes.
#[test]
fn the_debugger_shows_control_characters_escaped() {
    let file = std::env::temp_dir().join(format!("symdbg-osc-tui-{}.py", std::process::id()));
    std::fs::write(
        &file,
        "x: int  # \x1b]0;pwned\x07\nassert x != 3  # \x1b[2J\n",
    )
    .unwrap();
    let path = file.to_str().unwrap().to_string();
    let mut tui = Tui::spawn(&[&path]);
    tui.wait_for("the escaped comments", |s| {
        s.contains("# \\x1b]0;pwned\\x07") && s.contains("# \\x1b[2J")
    });
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    let _ = std::fs::remove_file(&file);
}

/// Form feeds: CPython resets the indentation count at one; the same programs give the
/// same results (outcome, or refusal) under `symdbg exec`.
#[test]
fn form_feeds_are_read_as_cpython_reads_them() {
    let dir = temp_dir("formfeed");
    let programs = [
        "x = 1\n\x0cy = 2\nassert x + y == 3\n",
        "\x0c\x0cx = 1\nassert x == 1\n",
        "    \x0cx = 1\nassert x == 1\n",
        "if True:\n\x0c    x = 1\n    \x0cy = 2\nassert y == 2\n",
        "if True:\n    x = 1\n\x0c    y = 2\nassert x + y == 3\n",
        "if True:\n    x = 1\n\x0cy = 2\nassert x + y == 4\n",
        "x = 1 \x0c+ 2\nassert x == 3\n",
        "\x0c\n# c\n\x0c   \nx = 1\nassert x == 2\n",
        "def f(a: int) -> int:\n\x0c    if a > 0:\n\x0c        return a\n\x0c    return 0\n\nassert f(2) == 2\n",
        // Refused by both: a form feed in the middle of the indentation that leaves a
        // partial one, and a tab/space mix after it.
        "if True:\n    x = 1\n  \x0c  y = 2\n",
        "if True:\n\tx = 1\n\x0c        y = 2\n",
        "\x0c  x = 1\n",
    ];
    same_as_python(&dir, "ff", &programs);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each program ends the same way under `python3` and `symdbg exec`: normally, with an
/// AssertionError, or refused (a syntax or indentation error; exit status 2 for symdbg).
fn same_as_python(dir: &Path, tag: &str, programs: &[&str]) {
    for (i, program) in programs.iter().enumerate() {
        let file = format!("{tag}{i}.py");
        write(dir, &file, program);
        let (py, py_err) = python_in(dir, &file);
        let (code, out, err) = symdbg_in(dir, &["exec", &file]);
        let theirs = match py {
            0 => "normal".to_string(),
            _ if py_err.starts_with("AssertionError") => "AssertionError".to_string(),
            _ => "refused".to_string(),
        };
        let ours = match code {
            2 => "refused".to_string(),
            _ if out.contains("outcome: normal") => "normal".to_string(),
            _ if out.contains("exception AssertionError") => "AssertionError".to_string(),
            _ => format!("exit {code}: {out}{err}"),
        };
        assert_eq!(
            ours, theirs,
            "{program:?}\npython3: {py_err}\nsymdbg: {out}{err}"
        );
    }
}

/// Line ends: `\n`, `\r\n` and a lone `\r` (which CPython reads as a line end: code after
/// it in a "comment" runs).
#[test]
fn line_ends_are_read_as_cpython_reads_them() {
    let dir = temp_dir("lineends");
    let programs = [
        "x = 1  # c\rassert x == 2\n",
        "x = 1\rassert x == 1\r",
        "x = 1\r\nif x > 0:\r    x = 2\r\nassert x == 2\n",
        "def f(a: int) -> int:\r    return a + 1\r\rassert f(1) == 3\r",
        "x = (1 +\r 2)\rassert x == 3\n",
        "x = 1 + \\\r2\rassert x == 3\n",
        "if True:\r    x = 1\r  y = 2\r",
    ];
    same_as_python(&dir, "cr", &programs);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every builtin or reserved name is refused at its `def`, with one message, whether or not
/// a call of it comes later; other names of Python's builtins are ordinary names (as in
/// CPython, where a definition shadows the builtin).
#[test]
fn builtin_names_are_refused_one_way() {
    let dir = temp_dir("builtins");
    for name in [
        "len", "abs", "min", "max", "all", "any", "range", "tuple", "int", "bool", "print",
    ] {
        for (k, program) in [
            format!("def {name}(n: int) -> int:\n    return n + 1\n\nx: int\ny = {name}(x)\n"),
            format!("def {name}(n: int) -> int:\n    return n + 1\n"),
            format!("def g(n: int) -> int:\n    return n\n\ndef {name}(n: int) -> int:\n    return g(n)\n"),
        ]
        .iter()
        .enumerate()
        {
            let file = format!("{name}{k}.py");
            write(&dir, &file, program);
            for cmd in ["run", "exec", "check"] {
                let (code, out, err) = symdbg_in(&dir, &[cmd, &file]);
                assert_eq!(code, 2, "{cmd} {program:?}\n{out}{err}");
                assert!(
                    err.contains(&format!("`{name}` is a builtin name and cannot be redefined")),
                    "{cmd} {program:?}:\n{err}"
                );
            }
        }
        let file = format!("{name}_var.py");
        write(&dir, &file, &format!("{name} = 3\n"));
        let (code, _, err) = symdbg_in(&dir, &["run", &file]);
        assert_eq!(code, 2);
        assert!(
            err.contains(&format!("`{name}` is a builtin name")),
            "{err}"
        );
    }
    // (`print(...)` is minipy's print statement since issue 25: reserved like the above)
    for name in ["sum", "pow", "sorted", "divmod"] {
        let file = format!("{name}.py");
        write(
            &dir,
            &file,
            &format!("def {name}(a: int, b: int) -> int:\n    return a + b\n\nassert {name}(1, 2) == 3\n"),
        );
        assert_eq!(python_in(&dir, &file).0, 0);
        let (code, out, err) = symdbg_in(&dir, &["exec", &file]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("outcome: normal"), "{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--entry` on a @predicate: refused by run, check, exec with the same message; an unknown
/// name gets one message too.
#[test]
fn entry_on_a_predicate_is_refused_everywhere_alike() {
    let dir = temp_dir("entry");
    write(
        &dir,
        "p.py",
        "@predicate\ndef pos(n: int) -> bool:\n    return n > 0\n\ndef f(n: int) -> int:\n    assert pos(n)\n    return n\n",
    );
    for (entry, message) in [
        (
            "pos",
            "error: `pos` is a @predicate: --entry analyses a function, not a predicate",
        ),
        ("nope", "error: there is no function `nope` to analyse"),
    ] {
        let mut firsts = Vec::new();
        for cmd in [&["run"][..], &["check"], &["exec", "--input", "n=3"]] {
            let mut args = cmd.to_vec();
            args.extend(["p.py", "--entry", entry]);
            let (code, out, err) = symdbg_in(&dir, &args);
            assert_eq!(code, 2, "{args:?}:\n{out}{err}");
            assert!(err.contains(message), "{args:?}:\n{err}");
            assert!(err.contains("`f`") && !err.contains("`pos`,"), "{err}");
            firsts.push(err.lines().next().unwrap_or("").to_string());
        }
        assert!(firsts.windows(2).all(|w| w[0] == w[1]), "{firsts:?}");
    }
    let (code, out, _) = symdbg_in(&dir, &["exec", "p.py", "--entry", "f", "--input", "n=3"]);
    assert_eq!(code, 0);
    assert!(out.contains("return value: 3"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A theme file that does not parse is named, with the reason, before the screen opens.
#[test]
fn a_broken_theme_is_reported_by_name() {
    let dir = temp_dir("themes");
    std::fs::create_dir_all(dir.join("themes")).unwrap();
    std::fs::write(dir.join("themes/broken.tmTheme"), "<plist><dict>").unwrap();
    std::fs::write(dir.join("themes/half\x1b[31m.tmTheme"), "not xml at all").unwrap();
    write(&dir, "p.py", "x: int\nassert x != 3\n");
    // (no terminal: the UI refuses to start, after the warnings)
    let (code, _, err) = symdbg_in(&dir, &["p.py"]);
    assert_eq!(code, 2, "{err}");
    let warnings: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("warning: theme"))
        .collect();
    assert_eq!(warnings.len(), 2, "{err}");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("themes/broken.tmTheme skipped: ")),
        "{err}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("half\\x1b[31m.tmTheme skipped: ")),
        "{err}"
    );
    assert_no_raw_controls("theme warnings", &err);
    // In a terminal: the first status line says it too, and the screen opens.
    let mut tui = Tui::spawn_in(&dir, &["p.py"], &[("COLORTERM", Some("truecolor"))]);
    tui.wait_for("the theme warning in the status line", |s| {
        s.contains("1 open") && s.contains("warning: theme themes/broken.tmTheme skipped")
    });
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A paste in the app: ignored (with a message) outside the search prompt, typed into it
/// (control characters dropped, length capped) inside.
#[test]
fn a_paste_runs_no_command_and_fills_the_search_prompt() {
    use symdbg::tui::app::Mode;
    let mut h = super::tui::open("inversion.py", None, 120, 32);
    h.app.paste("qrsss\x1b]0;x\x07q");
    assert!(!h.app.quit, "a paste is not typed as keys");
    assert_eq!(h.app.tree.len(), 1, "nothing was stepped");
    assert!(
        h.app.message.starts_with("paste ignored (12 characters)"),
        "{}",
        h.app.message
    );
    h.keys("/");
    h.app.paste("x >\x1b[2J\u{202e} 1\n");
    assert_eq!(h.app.mode, Mode::Search("x >[2J 1".to_string()));
    h.app.paste(&"9".repeat(10_000));
    match &h.app.mode {
        Mode::Search(text) => assert_eq!(text.chars().count(), 256),
        other => panic!("the prompt closed: {other:?}"),
    }
    h.keys("<Esc>q");
    assert!(h.app.quit);
}
