#!/usr/bin/env node
// Runs the compiled test files (dist/**/*.spec.js) with node's test runner.
// Usage: node scripts/run-tests.mjs [path-substring ...]
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith('.spec.js')) out.push(path);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = walk('dist', [])
  .filter((f) => !f.startsWith(join('dist', 'node_modules')))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
// Every test stack logs into the audit folder and lists the secrets it created there; once
// the tests are over, no log line may contain any of them (test/support/test-stack.ts).
const audit = mkdtempSync(join(tmpdir(), 'verity-test-audit-'));
const result = spawnSync(
  process.execPath,
  ['--enable-source-maps', '--test', `--test-concurrency=${concurrency}`, ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', VERITY_TEST_AUDIT_DIR: audit } },
);
const leaks = auditLogs(audit);
rmSync(audit, { recursive: true, force: true });
if (leaks.length > 0) {
  console.error(`secrets found in test logs:\n  ${leaks.join('\n  ')}`);
  process.exit(1);
}
process.exit(result.status ?? 1);

/** `file: secret…` for each secret that appears in a log file of the run. */
function auditLogs(dir) {
  const secretsFile = join(dir, 'secrets.txt');
  if (!existsSync(secretsFile)) return [];
  const secrets = [...new Set(readFileSync(secretsFile, 'utf8').split('\n').filter(Boolean))];
  const logs = readdirSync(dir).filter((name) => name.endsWith('.log'));
  let lines = 0;
  const leaks = [];
  for (const name of logs) {
    const text = readFileSync(join(dir, name), 'utf8');
    lines += text.split('\n').length - 1;
    for (const secret of secrets) {
      if (text.includes(secret)) leaks.push(`${name}: ${secret.slice(0, 6)}…`);
    }
  }
  console.log(
    `log audit: ${secrets.length} secrets, ${logs.length} logs, ${lines} lines, ${leaks.length} leaks`,
  );
  return leaks;
}
