//! End to end: the real `symdbg FILE` binary in a pseudo-terminal (portable-pty), its screen
//! parsed by a terminal emulator (vt100). No tmux, no dependence on the CI's terminal: the
//! pty has a fixed size and TERM.
//!
//! The other tests check the ways out: a panic (forced with `SYMDBG_TEST_PANIC`) and
//! SIGTERM restore the terminal (main screen, cursor, mouse reporting off, `stty` shows the
//! pty out of raw mode), and a terminal without 24-bit colour gets 256 colours.
//!
//! Scenario on examples/window_sum.py (a call whose frame raises IndexError, then an
//! assert): step into the call, run the tree to its leaves, jump to an exception leaf, show
//! its model, switch theme, quit. Every wait polls the screen until the expected text shows
//! (30 s at most) and fails with a dump of the screen.

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::path::Path;
use std::process::Command;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, Child, CommandBuilder, MasterPty, PtySize};
use symdbg::tui::theme::Themes;

pub(crate) const ROWS: u16 = 45;
pub(crate) const COLS: u16 = 160;
pub(crate) const TIMEOUT: Duration = Duration::from_secs(30);

/// A running `symdbg` in a pty, with the emulated screen.
pub(crate) struct Tui {
    parser: vt100::Parser,
    output: Receiver<Vec<u8>>,
    pub(crate) input: Box<dyn Write + Send>,
    pub(crate) child: Box<dyn Child + Send + Sync>,
    master: Box<dyn MasterPty + Send>,
}

/// Start `symdbg ARGS` in a new `rows`×`cols` pty (TERM=xterm-256color; `env` entries set
/// (`Some`) or removed (`None`)); the pty's master and the child.
pub(crate) fn launch(
    args: &[&str],
    env: &[(&str, Option<&str>)],
    rows: u16,
    cols: u16,
) -> (Box<dyn MasterPty + Send>, Box<dyn Child + Send + Sync>) {
    launch_in(Path::new(env!("CARGO_MANIFEST_DIR")), args, env, rows, cols)
}

/// [`launch`] in the working directory `dir`.
pub(crate) fn launch_in(
    dir: &Path,
    args: &[&str],
    env: &[(&str, Option<&str>)],
    rows: u16,
    cols: u16,
) -> (Box<dyn MasterPty + Send>, Box<dyn Child + Send + Sync>) {
    launch_limited(dir, args, env, (rows, cols), None)
}

/// [`launch_in`], under `ulimit -v memory_kb` when given.
pub(crate) fn launch_limited(
    dir: &Path,
    args: &[&str],
    env: &[(&str, Option<&str>)],
    (rows, cols): (u16, u16),
    memory_kb: Option<u64>,
) -> (Box<dyn MasterPty + Send>, Box<dyn Child + Send + Sync>) {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("open a pty");
    let mut cmd = match memory_kb {
        None => CommandBuilder::new(env!("CARGO_BIN_EXE_symdbg")),
        Some(kb) => {
            let mut sh = CommandBuilder::new("sh");
            sh.arg("-c");
            sh.arg(format!("ulimit -v {kb}; exec \"$0\" \"$@\""));
            sh.arg(env!("CARGO_BIN_EXE_symdbg"));
            sh
        }
    };
    cmd.args(args);
    cmd.cwd(dir);
    cmd.env("TERM", "xterm-256color");
    cmd.env_remove("NO_COLOR");
    cmd.env_remove(symdbg::tui::TEST_PANIC);
    for (k, v) in env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        }
    }
    let child = pair.slave.spawn_command(cmd).expect("spawn symdbg");
    drop(pair.slave);
    (pair.master, child)
}

impl Tui {
    /// `symdbg ARGS` in a 24-bit colour terminal.
    pub(crate) fn spawn(args: &[&str]) -> Tui {
        Tui::spawn_with(args, &[("COLORTERM", Some("truecolor"))])
    }

    /// `symdbg ARGS` with these environment variables set (`Some`) or removed (`None`).
    pub(crate) fn spawn_with(args: &[&str], env: &[(&str, Option<&str>)]) -> Tui {
        Tui::spawn_in(Path::new(env!("CARGO_MANIFEST_DIR")), args, env)
    }

    /// [`Tui::spawn_with`] in the working directory `dir`.
    pub(crate) fn spawn_in(dir: &Path, args: &[&str], env: &[(&str, Option<&str>)]) -> Tui {
        Tui::spawn_limited(dir, args, env, None)
    }

    /// [`Tui::spawn_in`] under `ulimit -v memory_kb` when given.
    pub(crate) fn spawn_limited(
        dir: &Path,
        args: &[&str],
        env: &[(&str, Option<&str>)],
        memory_kb: Option<u64>,
    ) -> Tui {
        let (master, child) = launch_limited(dir, args, env, (ROWS, COLS), memory_kb);
        let mut reader = master.try_clone_reader().expect("pty reader");
        let input = master.take_writer().expect("pty writer");
        let (tx, output) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                match reader.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send(buf[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Tui {
            parser: vt100::Parser::new(
                NonZeroU16::new(ROWS).expect("rows"),
                NonZeroU16::new(COLS).expect("cols"),
                0,
            ),
            output,
            input,
            child,
            master,
        }
    }

    pub(crate) fn screen(&self) -> &vt100::Screen {
        self.parser.screen()
    }

    pub(crate) fn text(&self) -> String {
        self.screen().contents()
    }

    pub(crate) fn rows(&self) -> Vec<String> {
        self.screen().rows(0, COLS).collect()
    }

    /// Feed what the program wrote so far; false once the pty is closed.
    pub(crate) fn pump(&mut self, wait: Duration) -> bool {
        match self.output.recv_timeout(wait) {
            Ok(bytes) => {
                self.parser.process(&bytes);
                while let Ok(bytes) = self.output.try_recv() {
                    self.parser.process(&bytes);
                }
                true
            }
            Err(RecvTimeoutError::Timeout) => true,
            Err(RecvTimeoutError::Disconnected) => false,
        }
    }

    /// Poll until `ready(screen text)` holds; panic with the screen after [`TIMEOUT`].
    pub(crate) fn wait_for(&mut self, what: &str, ready: impl Fn(&str) -> bool) {
        let start = Instant::now();
        loop {
            if ready(&self.text()) {
                return;
            }
            let open = self.pump(Duration::from_millis(50));
            if start.elapsed() > TIMEOUT || (!open && !ready(&self.text())) {
                let _ = self.child.kill();
                panic!(
                    "waited {:?} for {what}{}; the screen:\n{}",
                    start.elapsed(),
                    if open {
                        ""
                    } else {
                        " (the program closed the pty)"
                    },
                    self.text()
                );
            }
        }
    }

    pub(crate) fn press(&mut self, keys: &str) {
        self.input.write_all(keys.as_bytes()).expect("write keys");
        self.input.flush().expect("flush keys");
    }

    /// Row and column (in cells) of the first occurrence of `needle`.
    pub(crate) fn find(&self, needle: &str) -> Option<(u16, u16)> {
        self.rows().iter().enumerate().find_map(|(r, line)| {
            let byte = line.find(needle)?;
            Some((r as u16, line[..byte].chars().count() as u16))
        })
    }

    /// Wait (at most [`TIMEOUT`]) for the program to exit, then read what it wrote until
    /// the pty closes; its exit code.
    pub(crate) fn wait_exit(&mut self) -> u32 {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait for symdbg") {
                break status;
            }
            assert!(
                start.elapsed() < TIMEOUT,
                "symdbg did not exit:\n{}",
                self.text()
            );
            self.pump(Duration::from_millis(50));
        };
        // Until the pty closes, or nothing more came for half a second.
        while let Ok(bytes) = self.output.recv_timeout(Duration::from_millis(500)) {
            self.parser.process(&bytes);
        }
        status.exit_code()
    }

    /// The terminal is as the program found it: main screen, cursor shown, no mouse
    /// reporting, and the pty back in canonical mode with echo (not raw).
    pub(crate) fn assert_restored(&self) {
        let screen = self.screen();
        assert!(
            !screen.alternate_screen(),
            "still on the alternate screen:\n{}",
            self.text()
        );
        assert!(!screen.hide_cursor(), "the cursor is still hidden");
        assert_eq!(
            screen.mouse_protocol_mode(),
            vt100::MouseProtocolMode::None,
            "mouse reporting is still on"
        );
        // `stty -a` on the pty's terminal device lists its modes (`-icanon` in raw mode).
        let tty = self.master.tty_name().expect("the pty's device name");
        let out = Command::new("stty")
            .arg("-a")
            .stdin(std::fs::File::open(&tty).expect("open the pty's device"))
            .output()
            .expect("run stty");
        let modes = String::from_utf8_lossy(&out.stdout);
        let words: Vec<&str> = modes.split_whitespace().collect();
        assert!(
            words.contains(&"icanon") && words.contains(&"echo"),
            "the pty is still in raw mode:\n{modes}"
        );
    }

    fn cell_fg(&self, row: u16, col: u16) -> vt100::Color {
        self.screen()
            .cell(row, col)
            .expect("cell on screen")
            .fgcolor()
    }

    fn cell_bg(&self, row: u16, col: u16) -> vt100::Color {
        self.screen()
            .cell(row, col)
            .expect("cell on screen")
            .bgcolor()
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
    }
}

fn rgb(c: ratatui::style::Color) -> vt100::Color {
    match c {
        ratatui::style::Color::Rgb(r, g, b) => vt100::Color::Rgb(r, g, b),
        other => panic!("palette colours are RGB, got {other:?}"),
    }
}

/// The value after `name = ` on a model line such as `  i = -3   │` (pane border cut off).
fn model_value<'a>(lines: &'a [String], name: &str) -> &'a str {
    let prefix = format!("{name} = ");
    lines
        .iter()
        .find_map(|l| l.split('│').next()?.trim().strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no `{name} = ` in the model pane: {lines:#?}"))
        .trim()
}

#[test]
fn walk_window_sum_to_an_exception_and_its_model() {
    let file = "examples/window_sum.py";
    assert!(Path::new(env!("CARGO_MANIFEST_DIR")).join(file).exists());
    let themes = Themes::embedded();
    let (dark, light) = (themes.palette(0), themes.palette(1));

    let mut tui = Tui::spawn(&[file, "--theme", "symdbg-dark"]);
    tui.wait_for("the start screen", |s| {
        s.contains("window_sum(t, i)") && s.contains("1 open")
    });
    assert!(
        tui.screen().alternate_screen(),
        "the UI runs on the alternate screen"
    );
    // The theme's background covers the screen.
    let (r, c) = tui.find("tree:").expect("tree pane title");
    assert_eq!(tui.cell_bg(r, c), rgb(dark.bg));

    // Step the call: the next node is inside window_sum's frame.
    tui.press("s");
    // (the call stack pane shows the callee's frame innermost).
    tui.wait_for("a step into the call", |s| {
        s.contains("→ window_sum")
            && s.contains("return t[i - 1] + t[i] + t[i + 1]")
            && s.contains("▸ window_sum")
    });

    // Run the subtree from there to its leaves: nothing stays open.
    tui.press("r");
    tui.wait_for("the run to the leaves", |s| {
        s.contains(" 0 open")
            && s.contains("AssertionError at line")
            && s.contains("IndexError")
            && s.contains("run: the subtree is explored")
    });

    // Jump to an exception leaf and ask for its model.
    tui.press("e");
    tui.wait_for("the jump to an exception leaf", |s| {
        s.contains("exception leaf 1 of")
    });
    tui.press("m");
    // (the whole pane: a frame can arrive in more than one read)
    tui.wait_for("the model", |s| {
        s.contains("inputs that reach this node:") && s.contains("t = (") && s.contains("i = ")
    });

    // The model pane's title names the selected node; its tree row is that exception leaf,
    // drawn in the theme's exception colour on the selection colour.
    let text = tui.text();
    let node: String = text
        .split("model [")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("model pane title `model [N]`")
        .to_string();
    let (row, col) = tui
        .find(&format!("[{node}] "))
        .unwrap_or_else(|| panic!("no tree row for node {node}:\n{text}"));
    let leaf_line = &tui.rows()[row as usize];
    let class = ["IndexError", "AssertionError"]
        .into_iter()
        .find(|c| leaf_line.contains(c))
        .unwrap_or_else(|| panic!("node {node} is not an exception leaf: {leaf_line}"));
    assert_eq!(
        tui.cell_fg(row, col - 2),
        rgb(dark.exception_leaf),
        "● of the leaf"
    );
    assert_eq!(
        tui.cell_bg(row, col + 1),
        rgb(dark.selection),
        "selected row"
    );

    // The inputs shown reach that exception when run concretely.
    let (mr, mc) = tui.find("inputs that reach this node:").unwrap();
    let pane: Vec<String> = tui
        .screen()
        .rows(mc, COLS - mc)
        .skip(mr as usize + 1)
        .take(6)
        .collect();
    let i = model_value(&pane, "i").to_string();
    let t = model_value(&pane, "t").to_string();
    assert!(i.parse::<i64>().is_ok(), "i = {i}");
    assert!(t.starts_with('(') && t.ends_with(')'), "t = {t}");
    let exec = Command::new(env!("CARGO_BIN_EXE_symdbg"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["exec", file, "--input", &format!("i={i}"), "--input"])
        .arg(format!("t={t}"))
        .output()
        .expect("run symdbg exec");
    let exec_out = String::from_utf8_lossy(&exec.stdout);
    assert!(
        exec_out.contains(&format!("outcome: exception {class}")),
        "model i={i}, t={t} of leaf {node} ({class}) does not raise it concretely:\n{exec_out}"
    );

    // `t` switches to the light theme: the whole UI follows.
    tui.press("t");
    let light_bg = rgb(light.bg);
    let start = Instant::now();
    while tui.cell_bg(r, c) != light_bg {
        assert!(
            start.elapsed() < TIMEOUT,
            "theme did not switch:\n{}",
            tui.text()
        );
        tui.pump(Duration::from_millis(50));
    }

    // Quit: exit status 0 and the terminal is back on the main screen.
    tui.press("q");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = tui.child.try_wait().expect("wait for symdbg") {
            break status;
        }
        assert!(
            start.elapsed() < TIMEOUT,
            "symdbg did not quit:\n{}",
            tui.text()
        );
        tui.pump(Duration::from_millis(50));
    };
    // Read what it wrote before exiting (until the pty closes, 30 s at most).
    let start = Instant::now();
    while tui.screen().alternate_screen()
        && start.elapsed() < TIMEOUT
        && tui.pump(Duration::from_millis(50))
    {}
    assert!(status.success(), "exit status {status:?}");
    assert!(
        !tui.screen().alternate_screen(),
        "the terminal was not restored (still on the alternate screen)"
    );
}

#[test]
fn a_panic_restores_the_terminal_before_its_message() {
    let mut tui = Tui::spawn_with(
        &["examples/inversion.py"],
        &[
            ("COLORTERM", Some("truecolor")),
            (symdbg::tui::TEST_PANIC, Some("1")),
        ],
    );
    let code = tui.wait_exit();
    assert_eq!(code, 101, "a panic exits with 101:\n{}", tui.text());
    tui.assert_restored();
    // The message was printed after the restore, so it is on the main screen.
    assert!(
        tui.text()
            .contains("a deliberate panic to test the terminal's restore"),
        "{}",
        tui.text()
    );
}

#[test]
fn sigterm_restores_the_terminal_and_exits_143() {
    let mut tui = Tui::spawn(&["examples/inversion.py"]);
    tui.wait_for("the start screen", |s| s.contains("1 open"));
    assert!(tui.screen().alternate_screen());
    let pid = tui.child.process_id().expect("pid");
    // (the shell's `kill` builtin: a minimal system may have no kill binary)
    let kill = Command::new("sh")
        .args(["-c", &format!("kill -TERM {pid}")])
        .status()
        .expect("run kill");
    assert!(kill.success());
    let code = tui.wait_exit();
    assert_eq!(code, 143, "128 + SIGTERM");
    tui.assert_restored();
}

/// A closed window: the program draws its first frame, then the pty's master is closed
/// (no reader thread here, so no copy of the master stays open). crossterm's input reader
/// then spins on the dead terminal and never returns; the watchdog must end the program.
#[test]
fn a_closed_terminal_ends_the_program() {
    let (master, mut child) = launch(&["examples/inversion.py"], &[], 16, 60);
    // Its first frame (a few kB) fits in the pty's buffer unread; then it waits for keys.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        child.try_wait().expect("wait").is_none(),
        "symdbg ended early"
    );
    drop(master);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for symdbg") {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            panic!("symdbg still runs {TIMEOUT:?} after its terminal closed");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    // The kernel sends SIGHUP to the terminal's session: 128 + 1.
    assert_eq!(
        status.exit_code(),
        129,
        "exit code after the terminal closed"
    );
    assert!(start.elapsed() < TIMEOUT, "took {:?}", start.elapsed());
}

#[test]
fn without_24_bit_colour_the_theme_is_drawn_in_256_colours() {
    use symdbg::tui::color::ColorDepth;
    let dark = Themes::embedded().palette(0);
    let indexed = |c| match ColorDepth::Ansi256.fit(c) {
        ratatui::style::Color::Indexed(i) => vt100::Color::Idx(i),
        other => panic!("not an xterm index: {other:?}"),
    };
    let mut tui = Tui::spawn_with(
        &["examples/inversion.py", "--theme", "symdbg-dark"],
        &[("COLORTERM", None), ("TERM", Some("xterm-256color"))],
    );
    tui.wait_for("the start screen", |s| s.contains("1 open"));
    let (r, c) = tui.find("tree:").expect("tree pane title");
    assert_eq!(tui.cell_bg(r, c), indexed(dark.bg));
    // Not one cell is drawn in 24-bit colour.
    for row in 0..ROWS {
        for col in 0..COLS {
            let cell = tui.screen().cell(row, col).expect("cell");
            for colour in [cell.fgcolor(), cell.bgcolor()] {
                assert!(
                    !matches!(colour, vt100::Color::Rgb(..)),
                    "24-bit colour at {row},{col}"
                );
            }
        }
    }
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    tui.assert_restored();
}
