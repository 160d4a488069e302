//! Time limits and cancellation of Z3 calls, enforced from outside Z3.
//!
//! Z3 runs on the engine's thread, in the `z3` crate's thread-local context. Each such
//! thread has **one long-lived watchdog thread** ([`with_watchdog`]): before every Z3 call
//! (check, model) the solver arms it with the call's deadline and the engine's cancel flag
//! ([`arm`]), and disarms it after. When the deadline passes or the flag is set, the
//! watchdog calls `Z3_interrupt` on the context (and again every [`REPEAT`] while the call
//! goes on): the call returns `unknown`, which the solver reports as `"timeout"` or as
//! [`INTERRUPTED`] (never cached). Z3's own `timeout` parameter is not used: its timer
//! thread costs a context switch per check (see docs/PERFORMANCE.md).
//!
//! The watchdog waits on a condition variable: while a call is armed it wakes every
//! [`TICK`] (to see the cancel flag, which other threads set without telling it), and for
//! [`IDLE`] after the last call; then it sleeps until the next arm wakes it. Arming and
//! disarming are a mutex lock each and wake nobody while the watchdog is ticking.
//!
//! Interrupting a context that is not in a call is harmless: later calls run normally.
//! Z3 4.8.12 ignores interrupts in a few places (e.g. its arithmetic solver on a monomial
//! of high degree, which `translate.rs` avoids by naming products, and nonlinear problems
//! such as `y = y * y % 1000003` five times): `isolate.rs` runs such queries in a process
//! that can be killed.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The reason of an `Unknown` answer cut short by the cancel flag.
pub const INTERRUPTED: &str = "interrupted";

/// How often the watchdog looks at the cancel flag while a call is armed.
const TICK: Duration = Duration::from_millis(10);
/// How long the watchdog keeps ticking after the last call before it sleeps.
const IDLE: Duration = Duration::from_millis(500);
/// How often an interrupt is repeated while the interrupted call goes on.
const REPEAT: Duration = Duration::from_millis(100);

#[derive(Default)]
struct State {
    armed: Option<Arm>,
    /// The watchdog waits without a timeout: arming must wake it.
    asleep: bool,
    stop: bool,
    last_active: Option<Instant>,
    /// Interrupts sent (for tests).
    interrupts: u64,
}

struct Arm {
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
    /// When the last interrupt was sent for this call.
    fired: Option<Instant>,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    wake: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves plain data behind: keep going.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Arc<Shared>>> = const { RefCell::new(None) };
}

fn current() -> Option<Arc<Shared>> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Run `f` with this thread's watchdog: started here if the thread has none yet (and
/// stopped when `f` returns), else the running one. The CLI wraps its whole run in one
/// call; the engine's and the solver's entry points call it too, which is then nearly free
/// (and otherwise starts a watchdog for that call, e.g. one TUI command).
pub fn with_watchdog<R>(f: impl FnOnce() -> R) -> R {
    if current().is_some() {
        return f();
    }
    let ctx = z3::Context::thread_local();
    let shared = Arc::new(Shared::default());
    // Stops the watchdog and forgets it, also when `f` panics (the scope then joins it).
    struct Reset<'a>(&'a Shared);
    impl Drop for Reset<'_> {
        fn drop(&mut self) {
            CURRENT.with(|c| c.borrow_mut().take());
            self.0.lock().stop = true;
            self.0.wake.notify_all();
        }
    }
    std::thread::scope(|s| {
        let handle = ctx.handle();
        let watched = &*shared;
        let spawned = std::thread::Builder::new()
            .name("symdbg-z3-watchdog".into())
            .spawn_scoped(s, move || watch(watched, &handle));
        if spawned.is_err() {
            // No thread (resource limits): calls run without a limit, as Z3 would.
            return f();
        }
        CURRENT.with(|c| *c.borrow_mut() = Some(shared.clone()));
        let _reset = Reset(watched);
        f()
    })
}

/// The watchdog's loop.
fn watch(shared: &Shared, ctx: &z3::ContextHandle<'_>) {
    let mut st = shared.lock();
    loop {
        if st.stop {
            return;
        }
        let now = Instant::now();
        let mut wait = None;
        let mut interrupt = false;
        if let Some(arm) = st.armed.as_mut() {
            let cancelled = arm
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed));
            let late = arm.deadline.is_some_and(|d| now >= d);
            if (cancelled || late) && arm.fired.is_none_or(|t| now - t >= REPEAT) {
                arm.fired = Some(now);
                interrupt = true;
            }
            let to_deadline = arm
                .deadline
                .map_or(TICK, |d| d.saturating_duration_since(now));
            wait = Some(to_deadline.clamp(Duration::from_millis(1), TICK));
        } else if st.last_active.is_some_and(|t| now - t < IDLE) {
            wait = Some(TICK);
        }
        if interrupt {
            // Under the lock: the call cannot be disarmed (and the next one started) while
            // the interrupt is on its way.
            ctx.interrupt();
            st.interrupts += 1;
        }
        st.asleep = wait.is_none();
        st = match wait {
            Some(w) => shared
                .wake
                .wait_timeout(st, w)
                .map_or_else(|e| e.into_inner().0, |r| r.0),
            None => shared.wake.wait(st).unwrap_or_else(|e| e.into_inner()),
        };
    }
}

/// An armed call; disarms on drop.
pub(super) struct Armed {
    shared: Option<Arc<Shared>>,
    started: Instant,
    deadline: Option<Instant>,
}

/// Arm this thread's watchdog for one Z3 call: interrupt it after `budget` (`None`: no
/// limit) or once `cancel` is set. Without a watchdog ([`with_watchdog`]) nothing is armed.
pub(super) fn arm(budget: Option<Duration>, cancel: Option<&Arc<AtomicBool>>) -> Armed {
    let started = Instant::now();
    let deadline = budget.map(|b| started + b);
    let shared = current();
    if let Some(sh) = &shared {
        let mut st = sh.lock();
        st.armed = Some(Arm {
            deadline,
            cancel: cancel.cloned(),
            fired: None,
        });
        if st.asleep {
            st.asleep = false;
            sh.wake.notify_one();
        }
    }
    Armed {
        shared,
        started,
        deadline,
    }
}

impl Armed {
    /// Has the deadline passed?
    pub fn late(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// When the call started.
    pub fn started(&self) -> Instant {
        self.started
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        if let Some(sh) = &self.shared {
            let mut st = sh.lock();
            st.armed = None;
            st.last_active = Some(Instant::now());
        }
    }
}

/// Interrupts sent by this thread's watchdog so far (for tests).
#[cfg(test)]
pub(super) fn interrupts() -> u64 {
    current().map_or(0, |sh| sh.lock().interrupts)
}

/// Run `f`; while it runs, a Z3 check on this thread stops soon after `cancel` is set,
/// provided `cancel` is the flag given to [`super::Solver::set_cancel`] (the engine's).
pub fn interruptible<R>(cancel: &AtomicBool, f: impl FnOnce() -> R) -> R {
    let _ = cancel;
    with_watchdog(f)
}
