// Bad input on the wire: invalid JSON, a bad Content-Length, garbage between frames, a
// request before launch, an unknown command, a program with errors, a frame cut by EOF.
// The adapter answers with error responses (or a message), keeps serving, exits cleanly
// at EOF, and writes nothing but DAP frames to stdout. These speak the raw protocol
// (DebugClient only writes well-formed frames); the last one uses DebugClient.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const { BIN, REPO, GUARD_MS, program, start, stop } = require('../lib/session');

/** A frame of `body` (an object or a raw string). */
function frame(body) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return `Content-Length: ${Buffer.byteLength(text, 'utf8')}\r\n\r\n${text}`;
}

/** `symdbg dap` with raw stdin; `messages` are the frames parsed off stdout, strictly. */
function raw() {
  const p = spawn(BIN, ['dap'], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
  const a = { p, messages: [], junk: [], waiters: [] };
  let buf = Buffer.alloc(0);
  p.stdout.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    for (;;) {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) {
        break;
      }
      const header = buf.subarray(0, end).toString('utf8');
      const m = /^Content-Length: (\d+)$/.exec(header);
      if (!m) {
        a.junk.push(header);
        buf = buf.subarray(end + 4);
        continue;
      }
      const n = Number(m[1]);
      if (buf.length < end + 4 + n) {
        break;
      }
      const text = buf.subarray(end + 4, end + 4 + n).toString('utf8');
      buf = buf.subarray(end + 4 + n);
      try {
        a.messages.push(JSON.parse(text));
      } catch (e) {
        a.junk.push(text);
      }
    }
    const waiting = a.waiters;
    a.waiters = [];
    for (const w of waiting) {
      if (!w()) {
        a.waiters.push(w);
      }
    }
  });
  p.stdout.on('end', () => {
    if (buf.length > 0) {
      a.junk.push(buf.toString('utf8'));
    }
  });
  a.exit = new Promise((resolve) => p.on('exit', (code, signal) => resolve({ code, signal })));
  a.send = (text) => p.stdin.write(text);
  a.wait = (pred, what) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${what} after ${GUARD_MS} ms; got ${JSON.stringify(a.messages)}`)), GUARD_MS).unref();
    const check = () => {
      const m = a.messages.find(pred);
      if (m) {
        clearTimeout(timer);
        resolve(m);
        return true;
      }
      return false;
    };
    if (!check()) {
      a.waiters.push(check);
    }
  });
  a.response = (seq) => a.wait((m) => m.type === 'response' && m.request_seq === seq, `response to ${seq}`);
  /** Close stdin and wait for a clean exit; stdout held only frames. */
  a.close = async () => {
    p.stdin.end();
    const guard = new Promise((_, reject) => setTimeout(() => reject(new Error('no exit after EOF')), GUARD_MS).unref());
    const r = await Promise.race([a.exit, guard]);
    assert.equal(r.code, 0, `exit ${JSON.stringify(r)}`);
    assert.deepEqual(a.junk, [], 'stdout carried something that is not a DAP frame');
    return r;
  };
  return a;
}

const req = (seq, command, args) => ({ seq, type: 'request', command, ...(args ? { arguments: args } : {}) });

test('invalid JSON in a frame: a message, and the next request is answered', async (t) => {
  const a = raw();
  t.after(() => a.p.kill());
  a.send(frame('{"seq": 1, "type": "request", "command": '));
  a.send(frame(req(2, 'initialize', { adapterID: 'symdbg' })));
  const r = await a.response(2);
  assert.equal(r.success, true);
  assert.ok(r.body.supportsStepBack);
  // The bad frame was reported (an error response or an output event), not ignored.
  assert.ok(a.messages.some((m) => (m.type === 'response' && !m.success) || (m.type === 'event' && m.event === 'output')));
  await a.close();
});

test('a bad Content-Length and garbage between frames do not stop the adapter', async (t) => {
  const a = raw();
  t.after(() => a.p.kill());
  a.send('Content-Length: twelve\r\n\r\n');
  a.send('hello there\r\nX-Nonsense: 1\r\n\r\n');
  a.send(frame(req(3, 'initialize', { adapterID: 'symdbg' })));
  assert.equal((await a.response(3)).success, true);
  await a.close();
});

test('a request before launch and an unknown command get error responses', async (t) => {
  const a = raw();
  t.after(() => a.p.kill());
  a.send(frame(req(1, 'initialize', { adapterID: 'symdbg' })));
  a.send(frame(req(2, 'stackTrace', { threadId: 1 })));
  a.send(frame(req(3, 'fooBar', {})));
  a.send(frame(req(4, 'next', { threadId: 1 })));
  const [r2, r3, r4] = await Promise.all([a.response(2), a.response(3), a.response(4)]);
  assert.equal(r2.success, false);
  assert.match(r2.message, /launch/);
  assert.equal(r3.success, false);
  assert.match(r3.message, /unknown command/);
  assert.match(r3.message, /fooBar/);
  assert.equal(r4.success, false);
  await a.close();
});

test('a program with errors: the diagnostic in the error response and in an output event', async (t) => {
  const a = raw();
  t.after(() => a.p.kill());
  a.send(frame(req(1, 'initialize', { adapterID: 'symdbg' })));
  a.send(frame(req(2, 'launch', { program: program('bad.py') })));
  const r = await a.response(2);
  assert.equal(r.success, false);
  assert.match(r.message, /true division/);
  const out = await a.wait((m) => m.type === 'event' && m.event === 'output' && /true division/.test(m.body.output), 'output event');
  assert.match(out.body.output, /bad\.py:3:7/);
  await a.close();
});

test('a frame cut short by EOF, and a huge Content-Length, end in a clean exit', async (t) => {
  const cut = raw();
  t.after(() => cut.p.kill());
  cut.send(frame(req(1, 'initialize', { adapterID: 'symdbg' })).slice(0, 30));
  await cut.close();

  const huge = raw();
  t.after(() => huge.p.kill());
  huge.send('Content-Length: 99999999999999999999\r\n\r\n{"seq": 1}');
  await huge.close();

  const big = raw();
  t.after(() => big.p.kill());
  big.send('Content-Length: 4000000000\r\n\r\n{"seq": 1}');
  await big.close();
});

test('pseudo-random bytes before a good frame: no crash, stdout only frames', async (t) => {
  // A fixed linear congruential sequence: the same bytes on every run.
  let x = 12345;
  const bytes = Buffer.alloc(4096);
  for (let k = 0; k < bytes.length; k++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    bytes[k] = x >> 16 & 0xff;
  }
  const a = raw();
  t.after(() => a.p.kill());
  a.send(bytes);
  a.send('\r\n\r\n');
  a.send(frame(req(7, 'initialize', { adapterID: 'symdbg' })));
  a.send(frame(req(8, 'threads')));
  await a.wait((m) => m.type === 'response' && (m.request_seq === 7 || m.request_seq === 8), 'a response');
  await a.close();
});

test('DebugClient: unknown commands and requests before launch are rejected, the session goes on', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await s.dc.initializeRequest();
  await assert.rejects(s.dc.customRequest('symdbg/nothing'), /unknown command/);
  await assert.rejects(s.dc.threadsRequest(), /launch/);
  await assert.rejects(s.dc.scopesRequest({ frameId: 1 }), /launch/);
  await s.dc.launchRequest({ program: program('calls.py'), stopOnEntry: true });
  await s.log.next('initialized');
  await s.dc.configurationDoneRequest();
  await s.log.next('stopped');
  await assert.rejects(s.dc.scopesRequest({ frameId: 12345 }), /12345/);
  await assert.rejects(s.dc.variablesRequest({ variablesReference: 999 }), /999/);
});
