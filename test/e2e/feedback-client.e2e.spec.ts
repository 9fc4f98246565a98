// Outcomes through @verity/client (verity.feedback) and the `verity feedback` command, against
// the embedded default (docs/history.md).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NotFoundError, ValidationError, Verity } from '@verity/client';
import { startTestStack, type TestStack } from '@verity/testing';
import { cli } from './cli-helpers';

describe('feedback from the SDK and the CLI', () => {
  let stack: TestStack;
  let verity: Verity;
  let env: Record<string, string>;

  before(async () => {
    stack = await startTestStack({
      env: { RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
    });
    const account = await stack.account(1_000);
    verity = new Verity({ apiKey: account.apiKey, baseUrl: stack.client.baseUrl });
    env = { VERITY_API_KEY: account.apiKey, VERITY_URL: stack.client.baseUrl };
  });
  after(() => stack.close());

  it('reports a verify call by its request_id and by values, and reads the statistics', async () => {
    const verdict = await verity.verify(
      { email: 'sdk@example.com', phone: '+447400200001', ip: '86.150.1.1' },
      { explain: true },
    );
    assert.deepEqual(Object.keys(verdict.history).sort(), ['email', 'ip', 'phone', 'subnet']);
    const reported = await verity.feedback.report(verdict.request_id, 'fraud');
    assert.deepEqual(reported, {
      outcome: 'fraud',
      request_id: verdict.request_id,
      values: ['email', 'phone', 'ip', 'subnet'],
      credits_used: 0,
    });
    const byValue = await verity.feedback.report({ ip: '86.150.1.2' }, 'legitimate');
    assert.deepEqual(byValue.values, ['ip', 'subnet']);
    const later = await verity.verify({ phone: '+447400200001' }, { explain: true });
    assert.ok(later.reasons.some((r) => r.code === 'phone_reported_fraud'));
    const stats = await verity.feedback.stats();
    assert.equal(stats.mode, 'live');
    assert.equal(stats.reliability.length, 10);
    await assert.rejects(
      verity.feedback.report('3f1c6b1e-8d3a-4c55-9d5e-0b1f2a3c4d5e', 'fraud'),
      NotFoundError,
    );
    await assert.rejects(verity.feedback.report({ ip: 'nope' }, 'fraud'), ValidationError);
  });

  it('`verity feedback` reports by request_id or values and prints the statistics', async () => {
    const verdict = await verity.verify({ email: 'cli@example.com', ip: '86.150.2.2' });
    const byId = await cli(
      ['feedback', verdict.request_id, '--outcome', 'legitimate', '--json'],
      env,
    );
    assert.equal(byId.code, 0, byId.stderr);
    assert.deepEqual(JSON.parse(byId.stdout), {
      outcome: 'legitimate',
      request_id: verdict.request_id,
      values: ['email', 'ip', 'subnet'],
      credits_used: 0,
    });
    const byValue = await cli(['feedback', '--phone', '+447400200002', '--outcome', 'fraud'], env);
    assert.equal(byValue.code, 0, byValue.stderr);
    assert.match(byValue.stdout, /outcome\s+fraud/);
    assert.match(byValue.stdout, /request_id\s+–/);
    const stats = await cli(['feedback', 'stats', '--json'], env);
    assert.equal(stats.code, 0, stats.stderr);
    assert.equal(JSON.parse(stats.stdout).mode, 'live');
    const unknown = await cli(
      ['feedback', '3f1c6b1e-8d3a-4c55-9d5e-0b1f2a3c4d5e', '--outcome', 'fraud'],
      env,
    );
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /no verify call with request_id/);
  });

  it('`verity feedback` refuses a command it cannot send, before any request', async () => {
    for (const args of [
      ['feedback'],
      ['feedback', 'some-id'],
      ['feedback', 'some-id', '--outcome', 'maybe'],
      ['feedback', 'some-id', '--ip', '1.2.3.4', '--outcome', 'fraud'],
      ['feedback', 'stats', '--outcome', 'fraud'],
    ]) {
      const run = await cli(args, env);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, /usage: verity feedback/, args.join(' '));
    }
  });
});
