// The session around the program: restart (the program read again, breakpoints carried),
// disconnect and terminate (a clean exit), and the tree requests for clients that draw
// it (symdbg/tree, the symdbg/treeChanged event, symdbg/focus).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { start, stop, launch, stopped, program, GUARD_MS } = require('../lib/session');
// The VS Code extension's tree model, fed with the adapter's real answers below.
const viewModel = require('../../../editors/vscode/lib/tree');

const CALLS = program('calls.py');

/** The adapter's exit, or a failure after the hang guard. */
function exited(s) {
  return Promise.race([
    s.exit,
    new Promise((_, reject) => setTimeout(() => reject(new Error('the adapter did not exit')), GUARD_MS).unref()),
  ]);
}

test('restart reads the program again and keeps the breakpoints', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'symdbg-dap-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'prog.py');
  fs.writeFileSync(file, 'x: int\nk = 5\ny = x + k\n');
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: file, stopOnEntry: false }, { breakpoints: [{ line: 3 }] });
  const st = await stopped(s, 'breakpoint');
  const before = await s.dc.evaluateRequest({ expression: 'k', frameId: st.top.id, context: 'watch' });
  assert.match(before.body.result, /\b5\b/);

  fs.writeFileSync(file, 'x: int\nk = 6\ny = x + k\n');
  await s.dc.restartRequest({});
  const again = await stopped(s, 'breakpoint');
  assert.equal(again.top.line, 3);
  const after = await s.dc.evaluateRequest({ expression: 'k', frameId: again.top.id, context: 'watch' });
  assert.match(after.body.result, /\b6\b/);
});

test('a restart on a program that no longer parses is refused and the old one stays', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'symdbg-dap-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'prog.py');
  fs.writeFileSync(file, 'x: int\ny = x + 1\n');
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: file, stopOnEntry: true });
  const st = await stopped(s, 'entry');
  fs.writeFileSync(file, 'x: int\ny = x / 2\n');
  await assert.rejects(s.dc.restartRequest({}), /true division/);
  const frames = (await s.dc.stackTraceRequest({ threadId: st.threadId })).body.stackFrames;
  assert.equal(frames[0].line, 2);
});

test('disconnect answers and the adapter exits with status 0', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: CALLS, stopOnEntry: true });
  await stopped(s, 'entry');
  await s.dc.disconnectRequest({});
  const { code } = await exited(s);
  assert.equal(code, 0);
});

test('terminate answers and sends terminated; the disconnect that follows answers and the adapter exits with status 0', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: CALLS, stopOnEntry: true });
  await stopped(s, 'entry');
  await s.dc.terminateRequest({});
  await s.log.next('terminated');
  await assert.rejects(s.dc.stackTraceRequest({ threadId: 1 }), /launch/);
  await s.dc.disconnectRequest({});
  const { code } = await exited(s);
  assert.equal(code, 0);
});

test('symdbg/tree lists the nodes with parent, line, label, kind and the threads at open nodes', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: CALLS, stopOnEntry: true });
  const { threadId } = await stopped(s, 'entry');
  await s.dc.stepInRequest({ threadId });
  await stopped(s, 'step');
  await s.dc.nextRequest({ threadId });
  await stopped(s, 'step');
  await s.log.next('symdbg/treeChanged');
  const tree = (await s.dc.customRequest('symdbg/tree')).body;
  const byId = new Map(tree.nodes.map((n) => [n.id, n]));
  const root = tree.nodes.find((n) => n.parent === null || n.parent === undefined);
  assert.equal(root.line, 12);
  for (const n of tree.nodes) {
    assert.equal(typeof n.label, 'string');
    assert.equal(typeof n.kind, 'string');
    if (n !== root) {
      assert.ok(byId.has(n.parent), `node ${n.id}'s parent ${n.parent} is not listed`);
    }
  }
  // The `if` forked into two children, each with one thread.
  const fork = tree.nodes.find((n) => n.line === 7);
  const kids = tree.nodes.filter((n) => n.parent === fork.id);
  assert.deepEqual(kids.map((n) => n.line).sort(), [8, 9]);
  const threads = (await s.dc.threadsRequest()).body.threads.map((th) => th.id).sort();
  assert.deepEqual(kids.map((n) => n.thread).sort(), threads);
});

test('symdbg/focus moves a thread to any node: it stops there', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: CALLS, stopOnEntry: true });
  const { threadId } = await stopped(s, 'entry');
  await s.dc.stepInRequest({ threadId });
  await stopped(s, 'step');
  await s.dc.stepOutRequest({ threadId });
  await stopped(s, 'step');
  const tree = (await s.dc.customRequest('symdbg/tree')).body;
  const root = tree.nodes.find((n) => n.parent === null || n.parent === undefined);
  await s.dc.customRequest('symdbg/focus', { node: root.id });
  const st = await stopped(s, 'goto');
  assert.equal(st.top.line, 12);
  await assert.rejects(s.dc.customRequest('symdbg/focus', { node: 99999 }), /99999/);
});

test('the VS Code extension\'s tree view model reads the adapter\'s symdbg/tree', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: program('divide.py'), stopOnEntry: false }, { exceptions: ['uncaught'] });
  const st = await stopped(s, 'exception');
  const body = (await s.dc.customRequest('symdbg/tree')).body;
  const { roots, byId } = viewModel.buildTree(body);
  assert.equal(roots.length, 1, 'one root');
  assert.equal(byId.size, body.nodes.length);
  // Every node is reachable from the root through the children lists.
  let reached = 0;
  const walk = (n) => { reached += 1; n.children.forEach(walk); };
  walk(roots[0]);
  assert.equal(reached, body.nodes.length);
  const leaf = body.nodes.find((n) => n.outcome === 'exception');
  const row = viewModel.describe(byId.get(leaf.id));
  assert.match(row.description, /exception ZeroDivisionError/);
  assert.match(row.description, new RegExp(`thread ${st.threadId}`));
  assert.equal(viewModel.icon(byId.get(leaf.id)), 'error');
  assert.match(viewModel.describe(roots[0]).label, /^\[\d+\] 11: q = ratio\(y, x - 3\)$/);
});
