// Paths are threads: stepping into a call, a fork that starts a thread per other branch
// (named for its branch condition), stepOut, stepBack and reverseContinue over the tree's
// history, continue to the end of each path (exited), terminated when none is left.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { start, stop, launch, stopped, program } = require('../lib/session');

const CALLS = program('calls.py');

test('a fork becomes threads: the stepped one takes the first branch, the other starts', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: CALLS, stopOnEntry: true });
  const entry = await stopped(s, 'entry');
  const first = entry.threadId;

  // Into the call: two frames, bigger's on top at its `if`.
  await s.dc.stepInRequest({ threadId: first });
  const inCall = await stopped(s, 'step');
  assert.equal(inCall.threadId, first);
  assert.deepEqual(inCall.frames.map((f) => f.line), [7, 12]);
  assert.equal(inCall.frames[0].name, 'bigger');

  // Over the `if`: the path forks on a > b.
  await s.dc.nextRequest({ threadId: first });
  const then = await stopped(s, 'step');
  assert.equal(then.threadId, first);
  assert.equal(then.top.line, 8);
  const started = await s.log.next('thread', (e) => e.body.reason === 'started' && e.body.threadId !== first);
  const other = started.body.threadId;

  const threads = (await s.dc.threadsRequest()).body.threads;
  assert.deepEqual(threads.map((th) => th.id).sort(), [first, other].sort());
  const name = (id) => threads.find((th) => th.id === id).name;
  assert.match(name(first), new RegExp(`^path ${first}: x > y$`));
  assert.match(name(other), new RegExp(`^path ${other}: x <= y$`));

  // The other thread is at the else side: `return b`.
  const elseStack = await s.dc.stackTraceRequest({ threadId: other });
  assert.equal(elseStack.body.stackFrames[0].line, 9);
});

test('stepOut leaves the call; stepBack and reverseContinue walk back up the path', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: CALLS, stopOnEntry: true });
  const { threadId } = await stopped(s, 'entry');
  await s.dc.stepInRequest({ threadId });
  await stopped(s, 'step');
  await s.dc.nextRequest({ threadId });
  await stopped(s, 'step');
  await s.dc.stepOutRequest({ threadId });
  const out = await stopped(s, 'step');
  assert.equal(out.threadId, threadId);
  assert.deepEqual(out.frames.map((f) => f.line), [13]);

  // One node back: `return a` inside the call again.
  await s.dc.stepBackRequest({ threadId });
  const back = await stopped(s);
  assert.equal(back.threadId, threadId);
  assert.deepEqual(back.frames.map((f) => f.line), [8, 12]);

  // Back to the previous breakpoint hit on the path: the `if` in bigger.
  const bps = await s.dc.setBreakpointsRequest({ source: { path: CALLS }, breakpoints: [{ line: 7 }] });
  assert.equal(bps.body.breakpoints[0].verified, true);
  await s.dc.reverseContinueRequest({ threadId });
  const hit = await stopped(s, 'breakpoint');
  assert.equal(hit.top.line, 7);

  // Forward again from there: the path is still the one of x > y.
  await s.dc.nextRequest({ threadId });
  const again = await stopped(s, 'step');
  assert.equal(again.top.line, 8);
});

test('continue runs a thread\'s path to its end: exited, and terminated after the last', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: CALLS, stopOnEntry: true });
  const { threadId: first } = await stopped(s, 'entry');
  await s.dc.stepInRequest({ threadId: first });
  await stopped(s, 'step');
  await s.dc.nextRequest({ threadId: first });
  await stopped(s, 'step');
  const other = (await s.log.next('thread', (e) => e.body.reason === 'started' && e.body.threadId !== first)).body.threadId;

  await s.dc.continueRequest({ threadId: first });
  await s.log.next('thread', (e) => e.body.reason === 'exited' && e.body.threadId === first);
  const left = (await s.dc.threadsRequest()).body.threads.map((th) => th.id);
  assert.deepEqual(left, [other]);
  assert.equal(s.log.all('terminated').length, 0, 'a path is still open');

  await s.dc.continueRequest({ threadId: other });
  await s.log.next('thread', (e) => e.body.reason === 'exited' && e.body.threadId === other);
  await s.log.next('terminated');
});

test('a request for a thread that does not exist is refused', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: CALLS, stopOnEntry: true });
  await stopped(s, 'entry');
  await assert.rejects(s.dc.nextRequest({ threadId: 999 }), /999/);
  await assert.rejects(s.dc.stackTraceRequest({ threadId: 999 }), /999/);
});

test('pause interrupts a continue that would run for a very long time', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  // countdown.py's loop forks at every test; with these bounds a continue explores for
  // far longer than the hang guard.
  const file = program('countdown.py');
  await launch(s, { program: file, unroll: 100000000, maxNodes: 100000000, stopOnEntry: true });
  const { threadId } = await stopped(s, 'entry');
  await s.dc.continueRequest({ threadId });
  await s.dc.pauseRequest({ threadId });
  const st = await stopped(s, 'pause');
  // Stopped somewhere in the loop, and the adapter answers requests again.
  assert.ok([6, 7].includes(st.top.line), `paused at line ${st.top.line}`);
  const threads = (await s.dc.threadsRequest()).body.threads;
  assert.ok(threads.some((th) => th.id === st.threadId));
});
