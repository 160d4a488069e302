//! Issue 22 items 1, 7, 8, 10 and issue 23 item 2: the files symdbg writes, write errors,
//! user text in messages, and what CPython's compiler refuses. The command-line tests run
//! the real binary under an address-space limit (`ulimit -v`) and a generous wall-clock
//! guard (a hang guard only: nothing here depends on timing); the debugger's keys go
//! through the synchronous harness.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use symdbg::session::NodeId;

use symdbg::tui::harness::Harness;

use super::tui_reload::open_file;

/// Address space for a run (KiB), as in `hostile.rs`.
const MEMORY_KB: u64 = 3 << 20;
/// A run that takes longer than this hangs (the runs here take well under a second).
const HANG: Duration = Duration::from_secs(120);

/// `clamp.py`-like: two inputs, three leaves.
const PROGRAM: &str =
    "x: int\ny: int\nif x > y:\n    z = x - y\nelse:\n    z = y - x\nassert z != 3\n";

/// A fresh directory.
fn scratch(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("symdbg-files-{}-{tag}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Where a run's stdout or stderr goes.
#[derive(Clone, Copy)]
enum To {
    Pipe,
    /// `/dev/full`: every write fails with ENOSPC.
    Full,
}

fn stdio(to: To) -> Stdio {
    match to {
        To::Pipe => Stdio::piped(),
        To::Full => std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
            .into(),
    }
}

/// `symdbg ARGS` in `dir` under the address-space limit: (exit code, stdout, stderr). A
/// signal (an abort) or a panic's 101 fails the test here.
fn symdbg_in(dir: &Path, args: &[&str], out: To, err: To) -> (i32, String, String) {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_KB}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_symdbg"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(stdio(out))
        .stderr(stdio(err))
        .spawn()
        .expect("run symdbg");
    let read = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut s);
            }
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let o = read(child.stdout.take().map(|p| Box::new(p) as _));
    let e = read(child.stderr.take().map(|p| Box::new(p) as _));
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            panic!("symdbg {args:?} still runs after {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (stdout, stderr) = (o.join().unwrap(), e.join().unwrap());
    let code = status
        .code()
        .unwrap_or_else(|| panic!("symdbg {args:?} killed by a signal: {status:?}\n{stderr}"));
    assert_ne!(code, 101, "symdbg {args:?} panicked:\n{stderr}");
    (code, stdout, stderr)
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    symdbg_in(dir, args, To::Pipe, To::Pipe)
}

/// The names in `dir`, sorted (no temporary file may be left behind).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

fn chmod(p: &Path, m: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
}

/// `testgen p.py -o p.py` through every name of the program — itself, `./p.py`, its
/// absolute path, a symbolic link, a hard link — is refused, `--force` or not; the program
/// is untouched and no file is left behind.
#[test]
fn testgen_never_replaces_the_program_under_any_name() {
    let dir = scratch("program");
    let program = dir.join("p.py");
    std::fs::write(&program, PROGRAM).unwrap();
    std::os::unix::fs::symlink("p.py", dir.join("link.py")).unwrap();
    std::fs::hard_link(&program, dir.join("hard.py")).unwrap();
    let before = names(&dir);
    let absolute = program.to_str().unwrap().to_string();
    for out in ["p.py", "./p.py", absolute.as_str(), "link.py", "hard.py"] {
        for force in [false, true] {
            let mut args = vec!["testgen", "p.py", "-o", out];
            if force {
                args.push("--force");
            }
            let (code, _, stderr) = run(&dir, &args);
            assert_eq!(code, 2, "{args:?}: {stderr}");
            assert!(
                stderr.contains(&format!("not writing `{out}`")),
                "{args:?}: {stderr}"
            );
            assert!(
                stderr.contains("program itself") || stderr.contains("symbolic link"),
                "{args:?}: {stderr}"
            );
            assert!(stderr.contains("another file"), "{args:?}: {stderr}");
            assert_eq!(std::fs::read_to_string(&program).unwrap(), PROGRAM);
            assert_eq!(names(&dir), before);
        }
    }
    assert!(std::fs::symlink_metadata(dir.join("link.py"))
        .unwrap()
        .file_type()
        .is_symlink());
}

/// `-o OUT`: a file symdbg did not write is refused (and named, with `--force` as the way
/// out); `--force` replaces it; a file symdbg wrote is replaced keeping its mode; a
/// read-only one needs `--force` and stays read-only. The same for JSON lines.
#[test]
fn testgen_replaces_only_its_own_files_and_keeps_their_mode() {
    let dir = scratch("own");
    std::fs::write(dir.join("p.py"), PROGRAM).unwrap();
    let out = dir.join("test_p.py");
    let mine = "def test_mine():\n    assert True\n";
    std::fs::write(&out, mine).unwrap();
    let (code, _, stderr) = run(&dir, &["testgen", "p.py", "-o", "test_p.py"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("not writing `test_p.py`"), "{stderr}");
    assert!(stderr.contains("--force"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), mine);

    let (code, _, stderr) = run(&dir, &["testgen", "p.py", "-o", "test_p.py", "--force"]);
    assert_eq!(code, 0, "{stderr}");
    let first = std::fs::read_to_string(&out).unwrap();
    assert!(first.starts_with("# Generated by symdbg"), "{first}");

    chmod(&out, 0o600);
    std::fs::write(&out, first.replace("def test_", "def test_old_")).unwrap();
    let (code, _, stderr) = run(&dir, &["testgen", "p.py", "-o", "test_p.py"]);
    assert_eq!(code, 0, "its own file is replaced: {stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
    assert_eq!(mode(&out), 0o600, "0600 is not widened");

    chmod(&out, 0o444);
    let (code, _, stderr) = run(&dir, &["testgen", "p.py", "-o", "test_p.py"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("read-only"), "{stderr}");
    let (code, _, stderr) = run(&dir, &["testgen", "p.py", "-o", "test_p.py", "--force"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(mode(&out), 0o444, "a replaced file keeps its mode");

    let jsonl = ["testgen", "p.py", "--format", "jsonl", "-o", "t.jsonl"];
    assert_eq!(run(&dir, &jsonl).0, 0);
    let (code, _, stderr) = run(&dir, &jsonl);
    assert_eq!(code, 0, "its own JSON lines are replaced: {stderr}");
    std::fs::write(dir.join("t.jsonl"), "{\"mine\": 1}\n").unwrap();
    let (code, _, stderr) = run(&dir, &jsonl);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.join("t.jsonl")).unwrap(),
        "{\"mine\": 1}\n"
    );
    let mut expected = vec!["p.py", "t.jsonl", "test_p.py"];
    expected.sort();
    assert_eq!(names(&dir), expected, "no temporary file left");
}

/// Issue 23 item 2 and issue 22 item 1 in the debugger: `T` keeps a hand-written
/// `test_p.py` and does not write through a link `test_p.py -> p.py`, saying which file and
/// what to do instead; without them it writes and says where; it replaces its own file.
#[test]
fn t_keeps_hand_written_tests_and_links_and_says_where_it_wrote() {
    let dir = scratch("key-t");
    let program = dir.join("p.py");
    std::fs::write(&program, PROGRAM).unwrap();
    let tests = dir.join("test_p.py");
    let mine = "def test_mine():\n    assert True\n";
    std::fs::write(&tests, mine).unwrap();
    let mut h = open_file(&program, None, None);
    h.keys("r");
    let write_all = |h: &mut Harness| {
        h.app.selected = NodeId(0);
        h.keys("T");
        h.app.message.clone()
    };
    let said = write_all(&mut h);
    assert!(said.contains("not writing"), "{said}");
    assert!(said.contains("test_p.py"), "{said}");
    assert!(said.contains("-o OUT"), "{said}");
    assert_eq!(std::fs::read_to_string(&tests).unwrap(), mine);

    std::fs::remove_file(&tests).unwrap();
    std::os::unix::fs::symlink("p.py", &tests).unwrap();
    let said = write_all(&mut h);
    assert!(said.contains("symbolic link"), "{said}");
    assert_eq!(std::fs::read_to_string(&program).unwrap(), PROGRAM);

    std::fs::remove_file(&tests).unwrap();
    let said = write_all(&mut h);
    assert!(
        // A test per leaf and the boundary tests (issue 31).
        said.starts_with(&format!("wrote 8 tests to {}", tests.display())),
        "{said}"
    );
    let first = std::fs::read_to_string(&tests).unwrap();
    chmod(&tests, 0o600);
    let said = write_all(&mut h);
    assert!(said.starts_with("wrote 8 tests"), "{said}");
    assert_eq!(std::fs::read_to_string(&tests).unwrap(), first);
    assert_eq!(mode(&tests), 0o600);
    assert_eq!(names(&dir), ["p.py", "test_p.py"]);
}

/// `S`: a session file keeps its mode (0600 stays 0600); a read-only one is not replaced;
/// a `--session` symbolic link is neither written through nor replaced by a regular file.
#[test]
fn s_keeps_modes_read_only_files_and_links() {
    let dir = scratch("key-s");
    let program = dir.join("p.py");
    std::fs::write(&program, PROGRAM).unwrap();
    let saved = dir.join("s.json");
    let mut h = open_file(&program, None, Some(&saved));
    h.keys("rS");
    assert!(h.app.message.contains("session saved"), "{}", h.app.message);
    chmod(&saved, 0o600);
    h.keys("S");
    assert!(h.app.message.contains("session saved"), "{}", h.app.message);
    assert_eq!(mode(&saved), 0o600);

    chmod(&saved, 0o444);
    let before = std::fs::read_to_string(&saved).unwrap();
    h.keys("jS");
    assert!(h.app.message.contains("read-only"), "{}", h.app.message);
    assert!(h.app.message.contains("--session"), "{}", h.app.message);
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), before);
    assert_eq!(mode(&saved), 0o444);

    let link = dir.join("link.json");
    let real = dir.join("real.json");
    std::fs::write(&real, "").unwrap();
    std::os::unix::fs::symlink("real.json", &link).unwrap();
    let mut h = open_file(&program, None, Some(&link));
    h.keys("S");
    assert!(h.app.message.contains("symbolic link"), "{}", h.app.message);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "");
}

/// Issue 22 item 7: with stdout on a full device every command says so on stderr and exits
/// 2 (`testgen` does not claim it wrote its tests); with stderr full nothing panics, and a
/// file written meanwhile is complete.
#[test]
fn write_errors_are_reported_and_never_panic() {
    let dir = scratch("full");
    std::fs::write(dir.join("p.py"), PROGRAM).unwrap();
    assert_eq!(
        run(
            &dir,
            &["testgen", "p.py", "--format", "jsonl", "-o", "t.jsonl"]
        )
        .0,
        0
    );
    let commands: &[&[&str]] = &[
        &["run", "p.py"],
        &["run", "p.py", "--json"],
        &["run", "p.py", "--dot"],
        &["run", "p.py", "--counterexamples"],
        &["run", "p.py", "--templates"],
        &["exec", "p.py", "--input", "x=1", "--input", "y=4"],
        &["exec", "p.py", "--replay", "t.jsonl"],
        &["check", "p.py"],
        &["testgen", "p.py"],
        &["--help"],
    ];
    for args in commands {
        let (code, _, stderr) = symdbg_in(&dir, args, To::Full, To::Pipe);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write to standard output"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("wrote"), "{args:?}: {stderr}");
    }
    // stderr full: the warnings, the summary and the errors are lost, nothing panics, and
    // a command that lost a message exits 2, not 0 (the file is still written whole).
    let (code, _, _) = symdbg_in(
        &dir,
        &["testgen", "p.py", "-o", "test_p.py"],
        To::Pipe,
        To::Full,
    );
    assert_eq!(code, 2, "testgen's summary was lost");
    let tests = std::fs::read_to_string(dir.join("test_p.py")).unwrap();
    assert_eq!(tests.matches("\ndef test_").count(), 8, "{tests}");
    // A module with only definitions: `run` notes that on stderr, which cannot take it.
    std::fs::write(dir.join("defs.py"), "def f(x: int) -> int:\n    return x\n").unwrap();
    let (code, _, stderr) = run(&dir, &["run", "defs.py"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("no code runs at module level"), "{stderr}");
    let (code, _, _) = symdbg_in(&dir, &["run", "defs.py"], To::Pipe, To::Full);
    assert_eq!(code, 2, "run's note was lost");
    // Nothing written to stderr: nothing lost, the exit code is the command's own.
    let (code, _, stderr) = run(&dir, &["run", "p.py"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let (code, _, _) = symdbg_in(&dir, &["run", "p.py"], To::Pipe, To::Full);
    assert_eq!(code, 0);
    for args in [
        &["run", "p.py", "--max-nodes", "2"][..],
        &["run", "missing.py"],
        &["runn", "p.py"],
    ] {
        let (code, _, _) = symdbg_in(&dir, args, To::Pipe, To::Full);
        assert!(code == 0 || code == 2, "{args:?}: exit {code}");
    }
}

/// `symdbg ARGS` in `dir` with files limited to `blocks` × 512 bytes (`ulimit -f`, SIGXFSZ
/// ignored so that a write past it fails with EFBIG, as on a full disk).
fn symdbg_small_files(dir: &Path, blocks: u64, args: &str) -> (i32, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -v {MEMORY_KB}; ulimit -f {blocks}; exec \"$0\" {args}"
        ))
        .arg(env!("CARGO_BIN_EXE_symdbg"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run symdbg");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let code = out.status.code().expect("no signal");
    assert_ne!(code, 101, "{args}: {stderr}");
    (code, stderr)
}

/// Issue 22 item 7: a file that cannot be written whole (here: past `ulimit -f`) is not
/// left half-written: a new one is absent, an earlier one is as it was, no temporary
/// file remains, and the command says so and exits 2 instead of "wrote N tests".
#[test]
fn a_file_that_cannot_be_written_whole_is_complete_or_absent() {
    let dir = scratch("efbig");
    std::fs::write(dir.join("p.py"), PROGRAM).unwrap();
    assert_eq!(run(&dir, &["testgen", "p.py", "-o", "full.py"]).0, 0);
    let size = std::fs::metadata(dir.join("full.py")).unwrap().len();
    let blocks = size / 512 / 2;
    assert!(blocks >= 1, "the test file is {size} bytes");
    let (code, stderr) = symdbg_small_files(&dir, blocks, "testgen p.py -o new.py");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("cannot write `new.py`"), "{stderr}");
    assert!(!stderr.contains("wrote"), "{stderr}");
    // An earlier file of symdbg's is kept whole when its replacement cannot be written.
    let old = "# Generated by symdbg 0.0.1: an older version\n";
    std::fs::write(dir.join("old.py"), old).unwrap();
    let (code, stderr) = symdbg_small_files(&dir, blocks, "testgen p.py -o old.py");
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(std::fs::read_to_string(dir.join("old.py")).unwrap(), old);
    assert_eq!(names(&dir), ["full.py", "old.py", "p.py"]);
    // To stdout (a file past the limit): an error, not a claim of success.
    let (code, stderr) = symdbg_small_files(&dir, blocks, "testgen p.py > out.py");
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("cannot write to standard output"),
        "{stderr}"
    );
}

/// Issue 22 item 8: user text from a `.jsonl` file (test names, exception classes), from
/// `--entry` and from `--theme` reaches the terminal escaped (`\x1b`), never raw.
#[test]
fn user_text_in_messages_is_escaped() {
    let dir = scratch("escape");
    std::fs::write(dir.join("p.py"), PROGRAM).unwrap();
    let line = serde_json::json!({
        "test": "test_\u{1b}]0;pwned\u{7}",
        "leaf": 1,
        "entry": null,
        "inputs": {"x": 1, "y": 4},
        "outcome": "exception",
        "exception": "\u{1b}[31mAssertionError",
        "line": 7,
        "store": {},
        "return_value": null,
    });
    std::fs::write(dir.join("t.jsonl"), format!("{line}\n")).unwrap();
    let (code, stdout, stderr) = run(&dir, &["exec", "p.py", "--replay", "t.jsonl"]);
    assert_eq!(code, 3, "{stdout}{stderr}");
    assert!(
        !stdout.contains('\u{1b}') && !stdout.contains('\u{7}'),
        "{stdout:?}"
    );
    assert!(stdout.contains("test_\\x1b]0;pwned\\x07"), "{stdout}");
    assert!(stdout.contains("\\x1b[31mAssertionError"), "{stdout}");

    let reads_input = "x: int\ny = x\ndef f(a: int) -> int:\n    return a\n";
    std::fs::write(dir.join("q.py"), reads_input).unwrap();
    for args in [
        &["run", "q.py", "--entry", "\u{1b}[31mf"][..],
        &["exec", "q.py", "--entry", "\u{1b}[31mf"],
        &["q.py", "--theme", "\u{1b}[31m"],
    ] {
        let (code, _, stderr) = run(&dir, args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(!stderr.contains('\u{1b}'), "{args:?}: {stderr:?}");
        assert!(stderr.contains("\\x1b[31m"), "{args:?}: {stderr}");
    }
}

/// Issue 22 item 8: a watch holding an escape character (from a session file, say) is
/// shown escaped in the watch pane, not with the character dropped.
#[test]
fn the_watch_pane_shows_control_characters_escaped() {
    let dir = scratch("watch");
    let program = dir.join("p.py");
    std::fs::write(&program, PROGRAM).unwrap();
    let mut h = open_file(&program, None, None);
    h.app.watch.list.push("x\u{1b}[31m + 1".to_string());
    h.keys("s");
    let screen = h.screen();
    assert!(screen.contains("x\\x1b[31m + 1"), "{screen}");
}

mod cpython;
