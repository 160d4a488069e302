// What every protocol test needs: the adapter started through the VS Code team's
// DebugClient, a record of every event (DebugClient only hands an event to a listener that
// is already waiting; tests wait for events that may have come before), and the launch
// sequence of a real client (initialize, launch, breakpoints, configurationDone).
//
// The adapter is `$SYMDBG_BIN dap` (cargo test sets SYMDBG_BIN to the binary it built; by
// hand: `SYMDBG_BIN=target/debug/symdbg npm test` from tests/dap, or without it the debug
// build of the repository).
'use strict';

const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { DebugClient } = require('@vscode/debugadapter-testsupport');

const REPO = path.resolve(__dirname, '..', '..', '..');
const BIN = process.env.SYMDBG_BIN || path.join(REPO, 'target', 'debug', 'symdbg');
const PROGRAMS = path.resolve(__dirname, '..', 'programs');

// A hang guard, not a time limit: every wait for the adapter fails after this long (the
// CI machine is loaded and Z3 runs on every step).
const GUARD_MS = 120000;

/** The path of a program of tests/dap/programs. */
function program(name) {
  return path.join(PROGRAMS, name);
}

const RECORDED = [
  'initialized', 'stopped', 'continued', 'thread', 'exited', 'terminated', 'output',
  'breakpoint', 'symdbg/treeChanged',
];

/** Every event the adapter sent, in order, with a cursor per kind for `next`. */
class EventLog {
  constructor(dc) {
    this.events = [];
    this.waiters = [];
    this.taken = new Set();
    for (const kind of RECORDED) {
      dc.on(kind, (e) => {
        this.events.push(e);
        this.wake();
      });
    }
  }

  wake() {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) {
      if (!this.tryTake(w)) {
        this.waiters.push(w);
      }
    }
  }

  tryTake(w) {
    for (let k = 0; k < this.events.length; k++) {
      const e = this.events[k];
      if (!this.taken.has(k) && e.event === w.kind && w.pred(e)) {
        this.taken.add(k);
        clearTimeout(w.timer);
        w.resolve(e);
        return true;
      }
    }
    return false;
  }

  /** The first event of `kind` (matching `pred`) not taken before, waiting for it. */
  next(kind, pred = () => true, what = '') {
    return new Promise((resolve, reject) => {
      const w = { kind, pred, resolve };
      if (this.tryTake(w)) {
        return;
      }
      w.timer = setTimeout(() => {
        const seen = this.events.map((e) => `${e.event} ${JSON.stringify(e.body || {})}`);
        reject(new Error(`no '${kind}' event ${what}after ${GUARD_MS} ms; events so far:\n  ${seen.join('\n  ')}`));
      }, GUARD_MS);
      // (the adapter's pipes keep node running while it runs: a wait that lost a race
      // must not hold the test file open after the adapter is gone)
      w.timer.unref();
      this.waiters.push(w);
    });
  }

  /** The events of `kind` so far (taken or not). */
  all(kind) {
    return this.events.filter((e) => e.event === kind);
  }

  /** All output so far, concatenated. */
  output() {
    return this.all('output').map((e) => e.body.output).join('');
  }
}

/** A started adapter with its event log. Stop it with `stop()` (also after a failure). */
async function start() {
  const dc = new DebugClient(BIN, 'dap', 'symdbg', { cwd: REPO });
  dc.defaultTimeout = GUARD_MS;
  const log = new EventLog(dc);
  await dc.start();
  const exit = new Promise((resolve) => {
    dc._adapterProcess.on('exit', (code, signal) => resolve({ code, signal }));
  });
  return { dc, log, exit };
}

async function stop(s) {
  if (s && s.dc._adapterProcess) {
    s.dc._adapterProcess.kill();
  }
}

/**
 * initialize, launch with `args`, then (after `initialized`) the breakpoints of
 * `breakpoints` ({line, condition?, hitCondition?} of `args.program`), the exception
 * filters, configurationDone. Resolves with the responses.
 */
async function launch(s, args, { breakpoints = [], exceptions } = {}) {
  const init = await s.dc.initializeRequest();
  const launched = s.dc.launchRequest(args);
  // A launch that fails answers before `initialized`: report its error, not a missing event.
  const initialized = s.log.next('initialized');
  await Promise.race([initialized, launched.then(() => initialized)]);
  let bps;
  if (breakpoints.length > 0) {
    bps = await s.dc.setBreakpointsRequest({
      source: { path: args.program },
      breakpoints,
      lines: breakpoints.map((b) => b.line),
    });
  }
  if (exceptions) {
    await s.dc.setExceptionBreakpointsRequest({ filters: exceptions });
  }
  await s.dc.configurationDoneRequest();
  const response = await launched;
  return { init, launch: response, breakpoints: bps };
}

/** The next `stopped` event (of `reason`, if given) and the stack of its thread. */
async function stopped(s, reason) {
  const e = await s.log.next('stopped', () => true, reason ? `(${reason}) ` : '');
  if (reason) {
    assert.equal(e.body.reason, reason, `stopped for ${e.body.reason}, not ${reason}: ${JSON.stringify(e.body)}`);
  }
  const threadId = e.body.threadId;
  assert.equal(typeof threadId, 'number', `stopped event without a thread: ${JSON.stringify(e.body)}`);
  const stack = await s.dc.stackTraceRequest({ threadId });
  const frames = stack.body.stackFrames;
  assert.ok(frames.length > 0, 'stopped thread without a frame');
  return { event: e, threadId, frames, top: frames[0] };
}

/** The scopes of a frame, by name. */
async function scopes(s, frameId) {
  const r = await s.dc.scopesRequest({ frameId });
  const out = {};
  for (const sc of r.body.scopes) {
    out[sc.name] = sc;
  }
  return out;
}

/** The variables of a scope or of a structured value, by name (and the list). */
async function variables(s, ref) {
  const r = await s.dc.variablesRequest({ variablesReference: ref });
  const byName = {};
  for (const v of r.body.variables) {
    byName[v.name] = v;
  }
  return { list: r.body.variables, byName };
}

/** The inputs of the Model scope at a frame: name -> value (Python syntax). */
async function model(s, frameId) {
  const sc = await scopes(s, frameId);
  assert.ok(sc.Model, `no Model scope: ${Object.keys(sc).join(', ')}`);
  const vars = await variables(s, sc.Model.variablesReference);
  const out = {};
  for (const v of vars.list) {
    out[v.name] = v.value;
  }
  return out;
}

/**
 * Run the program at `file` under python3 with `inputs` (name -> Python literal) bound
 * first, as a concrete run on those inputs (`x: int` then only annotates). Line numbers in
 * the traceback are the file's. Returns {status, stderr, stdout}.
 */
function python(file, inputs) {
  const binds = Object.entries(inputs).map(([k, v]) => `${JSON.stringify(k)}: (${v})`).join(', ');
  const code = [
    'import sys',
    `g = {"__name__": "__main__", ${binds}}`,
    'exec(compile(open(sys.argv[1]).read(), sys.argv[1], "exec"), g)',
  ].join('\n');
  const r = spawnSync('python3', ['-c', code, file], { encoding: 'utf8' });
  assert.ok(!r.error, `python3 did not run: ${r.error}`);
  return { status: r.status, stderr: r.stderr, stdout: r.stdout };
}

module.exports = {
  BIN, REPO, GUARD_MS, program, start, stop, launch, stopped, scopes, variables, model, python,
};
