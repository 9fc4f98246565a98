import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UpstreamUnavailableError, VerityError } from '@verity/common';
import { mapError, RETRY_AFTER_SECONDS } from './error-mapping';

/** What pg raises for a server error: its SQLSTATE in `code` (no errno). */
const pgError = (code: string) => Object.assign(new Error('server said no'), { code });

describe('mapError', () => {
  it('an infrastructure outage is 503 service_unavailable with Retry-After, not internal', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
      errno: -111,
    });
    for (const [error, outage] of [
      [refused, 'network'],
      [pgError('57P01'), 'postgres'],
      [Object.assign(new Error('x'), { driverError: pgError('08006') }), 'postgres'],
    ] as const) {
      assert.deepEqual(mapError(error), {
        code: 'service_unavailable',
        message: 'a service Verity depends on is temporarily unavailable; retry later',
        headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
        internal: false,
        outage,
      });
    }
  });

  it('other errors keep their mapping', () => {
    assert.deepEqual(mapError(new UpstreamUnavailableError('HLR down', 'hlr')).headers, {});
    assert.equal(mapError(pgError('23505')).code, 'internal_error');
    assert.equal(mapError(new Error('a bug')).internal, true);
    assert.deepEqual(mapError(new VerityError('not_found', 'no such job')).headers, {});
  });
});
