// initialize and launch: the capabilities, the launch arguments of issue 26 (program,
// entry, unroll, recursion, fold, loops, calls, assume, timeoutMs, stopOnEntry) and what each
// changes, and a run without stopOnEntry to the end of every path.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { start, stop, launch, stopped, program, model } = require('../lib/session');

test('initialize advertises stepBack, conditions, hit counts, exceptionInfo, restart and the three exception filters', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  const r = await s.dc.initializeRequest();
  const c = r.body;
  assert.equal(c.supportsConfigurationDoneRequest, true);
  assert.equal(c.supportsStepBack, true);
  assert.equal(c.supportsConditionalBreakpoints, true);
  assert.equal(c.supportsHitConditionalBreakpoints, true);
  assert.equal(c.supportsExceptionInfoRequest, true);
  assert.equal(c.supportsRestartRequest, true);
  assert.equal(c.supportsEvaluateForHovers, true);
  const filters = c.exceptionBreakpointFilters.map((f) => f.filter).sort();
  assert.deepEqual(filters, ['caught', 'invariant', 'uncaught']);
});

test('stopOnEntry stops at the first statement, on one thread named for its path', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  const file = program('calls.py');
  await launch(s, { program: file, stopOnEntry: true });
  const st = await stopped(s, 'entry');
  assert.equal(st.top.line, 12);
  assert.equal(st.top.source.path, fs.realpathSync(file));
  const threads = (await s.dc.threadsRequest()).body.threads;
  assert.equal(threads.length, 1);
  assert.equal(threads[0].id, st.threadId);
  assert.match(threads[0].name, /^path \d+/);
  const started = await s.log.next('thread', (e) => e.body.reason === 'started');
  assert.equal(started.body.threadId, st.threadId);
});

test('without stopOnEntry every path runs to its end: threads exit, then terminated', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: program('calls.py'), stopOnEntry: false });
  await s.log.next('terminated');
  assert.equal(s.log.all('stopped').length, 0, 'no stop without breakpoints or exceptions');
  const started = new Set(s.log.all('thread').filter((e) => e.body.reason === 'started').map((e) => e.body.threadId));
  const exited = new Set(s.log.all('thread').filter((e) => e.body.reason === 'exited').map((e) => e.body.threadId));
  // Every thread that started (a continue explores the whole tree on one) has exited.
  assert.ok(started.size >= 1);
  assert.deepEqual([...exited].sort(), [...started].sort());
  const tree = (await s.dc.customRequest('symdbg/tree')).body;
  const leaves = tree.nodes.filter((n) => n.outcome);
  assert.equal(leaves.length, 2, 'both paths of calls.py ran to their leaves');
  assert.deepEqual((await s.dc.threadsRequest()).body.threads, []);
});

test('entry analyses one function: its frame, its parameter as the model\'s input', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: program('entry.py'), entry: 'sign', stopOnEntry: true });
  const st = await stopped(s, 'entry');
  assert.equal(st.top.line, 6);
  assert.equal(st.top.name, 'sign');
  const m = await model(s, st.top.id);
  assert.deepEqual(Object.keys(m), ['v']);
  assert.match(m.v, /^-?\d+$/);
});

test('a launch without program, or with a bad value, is refused with the reason', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await s.dc.initializeRequest();
  await assert.rejects(s.dc.launchRequest({ stopOnEntry: true }), /program/);
  await assert.rejects(s.dc.launchRequest({ program: program('calls.py'), fold: 'sometimes' }), /fold|sometimes/);
  await assert.rejects(s.dc.launchRequest({ program: program('calls.py'), calls: 'sideways' }), /calls|sideways/);
  await assert.rejects(s.dc.launchRequest({ program: program('no_such_file.py') }), /no_such_file/);
  // The adapter is still there and takes a good launch.
  await s.dc.launchRequest({ program: program('calls.py'), stopOnEntry: true });
});

test('unroll bounds the loop: a breakpoint in its fourth iteration is reached with 5, not with 2', async (t) => {
  // countdown.py's loop runs n times: i == 3 at its body is the fourth iteration.
  const bp = [{ line: 7, condition: 'i == 3' }];
  const reached = async (unroll) => {
    const s = await start();
    t.after(() => stop(s));
    await launch(s, { program: program('countdown.py'), unroll, stopOnEntry: false }, { breakpoints: bp, exceptions: [] });
    const first = await Promise.race([
      s.log.next('stopped').then((e) => e.body.reason),
      s.log.next('terminated').then(() => 'terminated'),
    ]);
    return { s, first };
  };
  const cut = await reached(2);
  assert.equal(cut.first, 'terminated');
  const far = await reached(5);
  assert.equal(far.first, 'breakpoint');
  const threads = (await far.s.dc.threadsRequest()).body.threads;
  const frames = (await far.s.dc.stackTraceRequest({ threadId: threads[0].id })).body.stackFrames;
  const i = await far.s.dc.evaluateRequest({ expression: 'i', frameId: frames[0].id, context: 'watch' });
  assert.match(i.body.result, /\b3\b/);
});

test('recursion, fold, loops and timeoutMs are accepted with the values the schema names', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, {
    program: program('loop.py'),
    unroll: 5,
    recursion: 2,
    fold: 'auto',
    loops: 'unroll',
    timeoutMs: 20000,
    assume: [],
    stopOnEntry: true,
  });
  const st = await stopped(s, 'entry');
  assert.equal(st.top.line, 5);
});

test('calls: inline steps into the body (its ZeroDivisionError stops), contract uses the contract', async (t) => {
  const ends = async (calls) => {
    const s = await start();
    t.after(() => stop(s));
    const args = { program: program('contract.py'), stopOnEntry: false };
    if (calls !== undefined) args.calls = calls;
    await launch(s, args, { exceptions: ['uncaught'] });
    return Promise.race([
      s.log.next('stopped').then((e) => e.body.reason),
      s.log.next('terminated').then(() => 'terminated'),
    ]);
  };
  assert.equal(await ends(undefined), 'exception');
  assert.equal(await ends('inline'), 'exception');
  assert.equal(await ends('contract'), 'terminated');
});

test('assume restricts the inputs: the division by zero at x == 3 is gone with x != 3', async (t) => {
  const ends = async (assume) => {
    const s = await start();
    t.after(() => stop(s));
    await launch(s, { program: program('divide.py'), assume, stopOnEntry: false }, { exceptions: ['uncaught'] });
    return Promise.race([
      s.log.next('stopped').then((e) => e.body.reason),
      s.log.next('terminated').then(() => 'terminated'),
    ]);
  };
  assert.equal(await ends([]), 'exception');
  assert.equal(await ends(['x != 3']), 'terminated');
});
