//! Hostile input for the front-end and the terminal: input bursts and bracketed pastes,
//! fatal signals, control characters in sources and file names, form feeds, builtin names,
//! `--entry` on a predicate, broken themes.

use std::io::Write;
use std::process::Command;
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

#[test]
fn a_burst_of_five_thousand_keys_then_q_quits() {
    let mut tui = Tui::spawn(&["examples/window_sum.py"]);
    tui.wait_for("the start screen", |s| s.contains("1 open"));
    let mut keys = vec![b'j'; 5000];
    keys.push(b'q');
    let writer = burst(&mut tui, keys);
    let start = Instant::now();
    let code = exits_within(&mut tui, TIMEOUT);
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "5,000 keys took {:?}",
        start.elapsed()
    );
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
