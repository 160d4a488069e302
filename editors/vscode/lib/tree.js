// The symbolic execution tree as the "Symbolic tree" view shows it, built from the body of
// the adapter's `symdbg/tree` response. Plain data, no `vscode` import: the node tests in
// test/ run it without VS Code.
'use strict';

/**
 * The nodes of a `symdbg/tree` response body, linked: every node gets `children` (in the
 * order the adapter listed them), and the result lists the roots (nodes without a parent,
 * or whose parent is not in the list).
 * @param {{nodes: Array<object>}} body
 * @returns {{roots: Array<object>, byId: Map<number, object>}}
 */
function buildTree(body) {
  const nodes = (body && Array.isArray(body.nodes)) ? body.nodes : [];
  const byId = new Map();
  for (const n of nodes) {
    byId.set(n.id, Object.assign({}, n, { children: [] }));
  }
  const roots = [];
  for (const n of byId.values()) {
    const parent = n.parent === undefined || n.parent === null ? undefined : byId.get(n.parent);
    if (parent && parent !== n) {
      parent.children.push(n);
    } else {
      roots.push(n);
    }
  }
  return { roots, byId };
}

/** The thread a node's open path is, if any (`thread` or `threadId` in the schema). */
function threadOf(node) {
  if (typeof node.threadId === 'number') {
    return node.threadId;
  }
  if (typeof node.thread === 'number') {
    return node.thread;
  }
  return undefined;
}

/**
 * One row of the view: `[id] line: label`, and a description with the outcome of a leaf
 * or the thread of an open path.
 */
function describe(node) {
  const where = typeof node.line === 'number' && node.line > 0 ? `${node.line}: ` : '';
  const label = `[${node.id}] ${where}${node.label === undefined ? '' : node.label}`;
  const parts = [];
  if (node.outcome) {
    parts.push(node.exception ? `${node.outcome} ${node.exception}` : String(node.outcome));
  }
  const thread = threadOf(node);
  if (thread !== undefined) {
    parts.push(`thread ${thread}`);
  }
  return { label, description: parts.join(' · '), tooltip: node.kind ? String(node.kind) : undefined };
}

/** An icon id (codicon) for a node: red for exception leaves, a play mark for open paths. */
function icon(node) {
  const outcome = node.outcome ? String(node.outcome) : '';
  if (/exception|error/i.test(outcome)) {
    return 'error';
  }
  if (threadOf(node) !== undefined) {
    return 'debug-stackframe';
  }
  if (outcome) {
    return 'pass';
  }
  return 'circle-small';
}

module.exports = { buildTree, describe, icon, threadOf };
