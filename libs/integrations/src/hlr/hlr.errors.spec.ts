import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HLR_RETRY_AFTER_SECONDS, HlrUnavailableError, type HlrFailureReason } from './hlr.errors';

describe('HlrUnavailableError', () => {
  it('tells clients to retry a failure that passes on its own', () => {
    const passing: HlrFailureReason[] = [
      'timeout',
      'network_error',
      'http_error',
      'bad_response',
      'lookup_failed',
      'closed',
    ];
    for (const reason of passing) {
      const error = new HlrUnavailableError(reason, 'detail');
      assert.equal(error.status, 503, reason);
      assert.deepEqual(error.headers, { 'Retry-After': String(HLR_RETRY_AFTER_SECONDS) }, reason);
      assert.equal(error.message, 'The HLR provider is temporarily unavailable');
    }
  });

  it('names no time when only the operator can fix it', () => {
    for (const reason of ['not_configured', 'auth_failed', 'redirect'] as const) {
      const error = new HlrUnavailableError(reason, 'detail');
      assert.equal(error.status, 503, reason);
      assert.deepEqual(error.headers, {}, reason);
    }
    assert.match(
      new HlrUnavailableError('not_configured', '').message,
      /No HLR provider is configured on this server/,
    );
  });
});
