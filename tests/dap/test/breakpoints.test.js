// setBreakpoints: verified lines, a line without a statement (verified: false with a
// message), conditions (a minipy expression that can hold on the path), hit conditions
// (the N-th hit), and continue from one hit to the next.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { start, stop, launch, stopped, program } = require('../lib/session');

const LOOP = program('loop.py');

/** The value of `expr` at the top frame of a stop, as evaluate answers it. */
async function value(s, st, expr) {
  const r = await s.dc.evaluateRequest({ expression: expr, frameId: st.top.id, context: 'watch' });
  return r.body.result;
}

test('a line with a statement is verified; a blank or comment line is not, with a message', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  const r = await launch(s, { program: LOOP, unroll: 5, stopOnEntry: true }, {
    breakpoints: [{ line: 8 }, { line: 4 }, { line: 1 }],
  });
  const [stmt, blank, comment] = r.breakpoints.body.breakpoints;
  assert.equal(stmt.verified, true);
  assert.equal(stmt.line, 8);
  for (const b of [blank, comment]) {
    assert.equal(b.verified, false);
    assert.equal(typeof b.message, 'string');
    assert.ok(b.message.length > 0);
  }
});

test('a breakpoint stops each iteration in turn; continue goes to the next hit', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: LOOP, unroll: 5, stopOnEntry: false }, { breakpoints: [{ line: 8 }], exceptions: [] });
  for (const want of ['0', '1', '2', '3']) {
    const st = await stopped(s, 'breakpoint');
    assert.equal(st.top.line, 8);
    assert.match(await value(s, st, 'i'), new RegExp(`\\b${want}\\b`));
    await s.dc.continueRequest({ threadId: st.threadId });
  }
  await s.log.next('terminated');
});

test('a condition stops only where it can hold: i == 2 at the third iteration', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  const r = await launch(s, { program: LOOP, unroll: 5, stopOnEntry: false }, {
    breakpoints: [{ line: 8, condition: 'i == 2' }],
    exceptions: [],
  });
  assert.equal(r.breakpoints.body.breakpoints[0].verified, true);
  const st = await stopped(s, 'breakpoint');
  assert.equal(st.top.line, 8);
  assert.match(await value(s, st, 'i'), /\b2\b/);
  assert.match(await value(s, st, 's'), /2 \* n|n \* 2|n \+ n/);
  // No other iteration has i == 2: continuing ends the run.
  await s.dc.continueRequest({ threadId: st.threadId });
  await s.log.next('terminated');
  assert.equal(s.log.all('stopped').length, 1);
});

test('a condition on the inputs stops on the path where it can hold', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  // After the loop s is 4 * n: the assert's line with s == 8 can hold only for n == 2.
  await launch(s, { program: LOOP, unroll: 5, stopOnEntry: false }, {
    breakpoints: [{ line: 11, condition: 's == 8' }],
    exceptions: [],
  });
  const st = await stopped(s, 'breakpoint');
  assert.equal(st.top.line, 11);
  assert.match(await value(s, st, 's == 8'), /can be either/);
});

test('hitCondition 3 stops at the third hit, and ">= 3" at every hit from the third', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: LOOP, unroll: 5, stopOnEntry: false }, {
    breakpoints: [{ line: 8, hitCondition: '3' }],
    exceptions: [],
  });
  const st = await stopped(s, 'breakpoint');
  assert.match(await value(s, st, 'i'), /\b2\b/);
  await s.dc.continueRequest({ threadId: st.threadId });
  await s.log.next('terminated');
  assert.equal(s.log.all('stopped').length, 1);

  const s2 = await start();
  t.after(() => stop(s2));
  await launch(s2, { program: LOOP, unroll: 5, stopOnEntry: false }, {
    breakpoints: [{ line: 8, hitCondition: '>= 3' }],
    exceptions: [],
  });
  const a = await stopped(s2, 'breakpoint');
  assert.match(await value(s2, a, 'i'), /\b2\b/);
  await s2.dc.continueRequest({ threadId: a.threadId });
  const b = await stopped(s2, 'breakpoint');
  assert.match(await value(s2, b, 'i'), /\b3\b/);
});

test('a condition that is not minipy, or a hit condition that is not a count, is refused', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  const r = await launch(s, { program: LOOP, unroll: 5, stopOnEntry: true }, {
    breakpoints: [{ line: 8, condition: 'i ==' }, { line: 9, hitCondition: 'often' }],
  });
  for (const b of r.breakpoints.body.breakpoints) {
    assert.equal(b.verified, false, JSON.stringify(b));
    assert.ok(b.message && b.message.length > 0);
  }
});
