// Drives recap mcp with the official MCP TypeScript SDK's client, for the
// Go tests of cmd/recap (mcp_clients_test.go). It reads a plan (JSON) on
// standard input and writes what it saw (JSON) on standard output:
//
//   {"clients": {"a": {"name": "claude-ai", "stdio": {"command": "...", "args": [...]}},
//                "b": {"name": "other", "url": "http://127.0.0.1:PORT/mcp"}},
//    "steps": [{"client": "a", "op": "connect"}, {"client": "a", "op": "listTools"},
//              {"client": "a", "op": "call", "name": "tokens_count", "args": {"paths": ["x"]}, "save": "t"},
//              {"client": "a", "op": "call", "name": "...", "args": {"bufferId": "$t.structuredContent.bufferId"}},
//              {"client": "a", "op": "call", ..., "progress": true, "abortAfterProgress": 1, "waitMs": 1500},
//              {"client": "a", "op": "setLevel", "level": "warning"},
//              {"client": "a", "op": "terminate"}, {"op": "sleep", "ms": 100}]}
//
// A client connects at its first step. Each step's outcome is {ok, result}
// or {ok: false, error, code}; a call
// also lists the progress notifications it got. Every client reports its
// server instructions, its onerror messages and the log messages it got.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const plan = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const clients = {};
const report = { clients: {}, steps: [] };
const saved = {};

function resolve(v) {
  if (typeof v === 'string' && v.startsWith('$')) {
    const [name, ...path] = v.slice(1).split('.');
    let x = saved[name];
    for (const p of path) x = x == null ? undefined : x[p];
    return x;
  }
  if (Array.isArray(v)) return v.map(resolve);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
  return v;
}

async function connect(id, spec) {
  const seen = { name: spec.name, errors: [], logs: [] };
  report.clients[id] = seen;
  const client = new Client({ name: spec.name, version: '1.0.0' }, { capabilities: {} });
  client.onerror = (e) => seen.errors.push(String(e && e.message ? e.message : e));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => seen.logs.push(n.params));
  const transport = spec.url
    ? new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers || {} } })
    : new StdioClientTransport({ command: spec.stdio.command, args: spec.stdio.args, stderr: 'inherit' });
  await client.connect(transport);
  seen.instructions = client.getInstructions();
  seen.sessionId = transport.sessionId;
  clients[id] = { client, transport };
}

async function step(s) {
  if (s.op === 'sleep') {
    await new Promise((r) => setTimeout(r, s.ms));
    return { ok: true };
  }
  if (s.op === 'connect' || !clients[s.client]) {
    await connect(s.client, plan.clients[s.client]);
    if (s.op === 'connect') return { ok: true };
  }
  const c = clients[s.client];
  switch (s.op) {
    case 'listTools':
      return { ok: true, result: await c.client.listTools() };
    case 'setLevel':
      return { ok: true, result: await c.client.setLoggingLevel(s.level) };
    case 'terminate':
      await c.transport.terminateSession();
      return { ok: true };
    case 'close':
      await c.client.close();
      return { ok: true };
    case 'call': {
      const progress = [];
      const ac = new AbortController();
      const opts = { signal: ac.signal, timeout: 120000 };
      if (s.progress) {
        opts.resetTimeoutOnProgress = true;
        opts.onprogress = (p) => {
          progress.push({ ...p, at: Date.now() });
          if (s.abortAfterProgress && progress.length >= s.abortAfterProgress) ac.abort(new Error('cancelled by the test'));
        };
      }
      const started = Date.now();
      try {
        const result = await c.client.callTool({ name: s.name, arguments: resolve(s.args || {}) }, undefined, opts);
        if (s.save) saved[s.save] = result;
        return { ok: true, result, progress, started, ended: Date.now() };
      } catch (e) {
        if (s.waitMs) await new Promise((r) => setTimeout(r, s.waitMs)); // a late answer would show in errors
        return { ok: false, error: String(e && e.message ? e.message : e), code: e && e.code, progress, started };
      }
    }
    default:
      throw new Error(`unknown op ${s.op}`);
  }
}

try {
  for (const s of plan.steps) {
    let out;
    try {
      out = await step(s);
    } catch (e) {
      out = { ok: false, error: String(e && e.message ? e.message : e), code: e && e.code };
    }
    report.steps.push({ op: s.op, client: s.client, name: s.name, ...out });
  }
} catch (e) {
  report.fatal = String(e && e.stack ? e.stack : e);
}
for (const { client } of Object.values(clients)) {
  try {
    await client.close();
  } catch {
    // closing is best effort
  }
}
// Exit once the report is flushed: a pipe takes writes asynchronously, and
// exiting at once would cut a long report.
process.stdout.write(JSON.stringify(report), () => process.exit(0));
