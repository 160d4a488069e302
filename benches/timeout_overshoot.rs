//! How far past `--timeout-ms` a Z3-hard query runs (issue 22 item 3): the worst overshoot
//! over a hostile query set, on the real binary (hard queries run in a solver process that
//! is killed at the limit plus `solver::MARGIN`, `solver/isolate.rs`).
//!
//! Each program has exactly one query that reaches the limit (an `assume` that Z3 cannot
//! decide), so a run is start-up + one query: the overshoot is the run's wall time minus
//! the limit minus the start-up (the median wall time of a trivial program); it includes
//! starting the solver process. Wall time, not CPU time: what
//! matters is when the user gets control back, and the killed process's CPU is not ours.
//! Prints one line per program and limit (median and worst of `RUNS` runs) and the worst
//! overshoot of all. A run over `GUARD` is killed and reported as such.
//!
//! `cargo bench --bench timeout_overshoot` (release), or quicker to build:
//! `cargo bench --bench timeout_overshoot --profile dev`.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 3;
const GUARD: Duration = Duration::from_secs(120);

/// The hostile set: (name, program). Each runs exactly one query that reaches the limit
/// (the other checks of a run, if any, are decided at once).
const HOSTILE: &[(&str, &str)] = &[
    (
        "nonlinear mod (y*y % 1000003, 5x)",
        "y: int\ny = y * y % 1000003\ny = y * y % 1000003\ny = y * y % 1000003\ny = y * y % 1000003\ny = y * y % 1000003\nassume y == 5\nr = 1\n",
    ),
    (
        "sum of three squares = 8w+7",
        "x: int\ny: int\nz: int\nw: int\nassume x*x + y*y + z*z == 8*w + 7\nr = 1\n",
    ),
    (
        "x^3 - y^2 = 7 + 1000x",
        "x: int\ny: int\nassume x*x*x - y*y == 7 + 1000*x\nr = 1\n",
    ),
    (
        "Fermat n = 3",
        "x: int\ny: int\nz: int\nassume x > 0 and y > 0 and z > 0 and x * x * x + y * y * y == z * z * z\nr = 1\n",
    ),
    (
        "quantified nonlinear",
        "t: tuple\nn: int\nassume len(t) == n and n > 2 and all(t[i] * t[i] < t[i + 1] * t[i + 1] * t[i + 1] for i in range(0, len(t) - 1)) and t[0] * t[n - 1] * t[1] == 1234567 * n * n\nr = 1\n",
    ),
];

const LIMITS_MS: &[u64] = &[200, 1000];

fn wall(exe: &str, file: &std::path::Path, ms: u64) -> Option<Duration> {
    let started = Instant::now();
    let mut child = Command::new(exe)
        .args([
            "run",
            file.to_str().unwrap(),
            "--timeout-ms",
            &ms.to_string(),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run symdbg");
    loop {
        if child.try_wait().expect("wait").is_some() {
            return Some(started.elapsed());
        }
        if started.elapsed() > GUARD {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let exe = env!("CARGO_BIN_EXE_symdbg");
    let dir = std::env::temp_dir();
    let file = dir.join(format!("symdbg-overshoot-{}.py", std::process::id()));
    std::fs::write(&file, "x: int\nif x > 0:\n    x = 1\n").unwrap();
    let startup = median((0..RUNS).filter_map(|_| wall(exe, &file, 1000)).collect());
    println!("start-up (trivial program): {startup:?}");
    let mut worst = Duration::ZERO;
    for &ms in LIMITS_MS {
        for (name, src) in HOSTILE {
            std::fs::write(&file, src).unwrap();
            let runs: Vec<Option<Duration>> = (0..RUNS).map(|_| wall(exe, &file, ms)).collect();
            if runs.iter().any(Option::is_none) {
                println!("--timeout-ms {ms:>5}  {name}: still running after {GUARD:?} (killed)");
                worst = GUARD;
                continue;
            }
            let runs: Vec<Duration> = runs.into_iter().flatten().collect();
            let over = |d: Duration| d.saturating_sub(startup + Duration::from_millis(ms));
            let max = *runs.iter().max().unwrap();
            worst = worst.max(over(max));
            println!(
                "--timeout-ms {ms:>5}  {name}: wall median {:?}, worst {:?}; overshoot median {:?}, worst {:?}",
                median(runs.clone()),
                max,
                over(median(runs.clone())),
                over(max)
            );
        }
    }
    let _ = std::fs::remove_file(&file);
    println!("worst overshoot: {worst:?}");
}
