import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InfraOutage, UpstreamUnavailableError, VerityError } from '@verity/common';
import { mapError, RETRY_AFTER_SECONDS } from './error-mapping';

/** A server error as a driver raises it: its SQLSTATE in `code` (no errno). */
const sqlError = (code: string) => Object.assign(new Error('server said no'), { code });

describe('mapError', () => {
  it('an infrastructure outage is 503 service_unavailable with Retry-After, not internal', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
      errno: -111,
    });
    for (const [error, outage] of [
      [refused, 'network'],
      [new InfraOutage('postgres', refused), 'postgres'],
      [new Error('transaction failed', { cause: new InfraOutage('redis', refused) }), 'redis'],
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
    assert.equal(mapError(sqlError('23505')).code, 'internal_error');
    assert.equal(mapError(new Error('a bug')).internal, true);
    assert.deepEqual(mapError(new VerityError('not_found', 'no such job')).headers, {});
  });
});
