import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CONSOLE_ROUTES, consoleRequest } from './console-routes';

describe('consoleRequest', () => {
  it('puts the path parameters in, encoded, below /console/api', () => {
    assert.deepEqual(consoleRequest('cancelJob', { params: { jobId: 'a/b c' } }), {
      method: 'DELETE',
      url: '/console/api/batch/a%2Fb%20c',
      body: undefined,
    });
    assert.equal(
      consoleRequest('resendWebhook', { params: { id: '42' } }).url,
      '/console/api/webhooks/deliveries/42/resend',
    );
  });

  it('writes the query without its absent fields, and no ? when it is empty', () => {
    assert.equal(
      consoleRequest('jobs', { query: { limit: 20, cursor: undefined, status: 'done' } }).url,
      '/console/api/batch?limit=20&status=done',
    );
    assert.equal(
      consoleRequest('playgroundVerify', { query: { explain: true }, body: { ip: '8.8.8.8' } }).url,
      '/console/api/playground/verify?explain=true',
    );
    assert.equal(
      consoleRequest('usage', { query: { key_id: undefined } }).url,
      '/console/api/usage',
    );
    assert.equal(consoleRequest('usage').url, '/console/api/usage');
  });

  it('passes the body through as it is', () => {
    const body = { name: 'ci', mode: 'test' as const };
    assert.equal(consoleRequest('createKey', { body }).body, body);
  });

  it('names each method and path once', () => {
    const routes = Object.values(CONSOLE_ROUTES).map((r) => `${r.method} ${r.path}`);
    assert.equal(new Set(routes).size, routes.length);
  });
});
