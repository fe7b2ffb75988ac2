// Checks recap mcp's tool schemas with ajv in strict mode, for the Go
// tests of cmd/recap (mcp_clients_test.go). It reads on standard input
//
//   {"tools": [<tools/list's tools>], "answers": [{"tool": "vcs.diff", "structuredContent": {...}}]}
//
// compiles every tool's inputSchema and outputSchema with ajv's strict
// mode (strictRequired among its checks: a required property must be
// defined beside it), validates each answer's structured content against
// its tool's output schema, and writes on standard output
//
//   {"errors": ["analysis.getReports outputSchema: …", …], "compiled": N, "validated": N}
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const errors = [];
let compiled = 0;
let validated = 0;
const validators = {};

function ajvFor(schema) {
  const opts = { strict: true, strictRequired: true, allErrors: true };
  const s = schema && schema.$schema;
  if (s && s.includes('2020-12')) return new Ajv2020(opts);
  return new Ajv(opts);
}

for (const tool of input.tools) {
  for (const kind of ['inputSchema', 'outputSchema']) {
    const schema = tool[kind];
    if (!schema) continue;
    try {
      const validate = ajvFor(schema).compile(schema);
      compiled++;
      if (kind === 'outputSchema') validators[tool.name] = validate;
    } catch (e) {
      errors.push(`${tool.name} ${kind}: ${e.message}`);
    }
  }
}

for (const a of input.answers) {
  const validate = validators[a.tool];
  if (!validate) {
    errors.push(`${a.tool}: no compiled output schema`);
    continue;
  }
  validated++;
  if (!validate(a.structuredContent)) {
    errors.push(`${a.tool} answer: ${JSON.stringify(validate.errors).slice(0, 500)}`);
  }
}

process.stdout.write(JSON.stringify({ errors, compiled, validated }));
