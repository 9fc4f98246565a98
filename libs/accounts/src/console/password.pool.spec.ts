import assert from 'node:assert/strict';
import { scryptSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { VerityError } from '@verity/common';
import { PasswordHashPool, type DeriveParams, type HashLane } from './password.pool';

// Small N keeps this test quick; the pool does not care about the cost.
const params = (password: string, N = 1024): DeriveParams => ({
  password,
  salt: Buffer.from('0123456789abcdef'),
  keyLength: 32,
  N,
  r: 8,
  p: 1,
  maxmem: 64 * 1024 * 1024,
});

describe('PasswordHashPool', () => {
  it('derives the key node:crypto derives', async () => {
    const pool = new PasswordHashPool(2, 4);
    try {
      const key = await pool.derive(params('correct horse'), 'untrusted');
      assert.deepEqual(key, scryptSync('correct horse', '0123456789abcdef', 32, { N: 1024 }));
    } finally {
      await pool.close();
    }
  });

  it('refuses at once with 429 and Retry-After when a lane is full, and serves trusted attempts first', async () => {
    const pool = new PasswordHashPool(1, 2);
    try {
      const finished: string[] = [];
      const run = (name: string, lane: HashLane) =>
        pool.derive(params(name, 2 ** 14), lane).then(() => void finished.push(name));
      const running = run('first', 'untrusted');
      const queued = [run('u1', 'untrusted'), run('u2', 'untrusted')];
      await assert.rejects(pool.derive(params('u3'), 'untrusted'), (error: unknown) => {
        assert.ok(error instanceof VerityError);
        assert.equal(error.code, 'rate_limited');
        assert.ok(Number(error.headers['Retry-After']) >= 1);
        return true;
      });
      // The trusted lane has its own room, and goes before the strangers queued earlier.
      const trusted = run('trusted', 'trusted');
      await Promise.all([running, trusted, ...queued]);
      assert.deepEqual(finished, ['first', 'trusted', 'u1', 'u2']);
    } finally {
      await pool.close();
    }
  });

  it('holds room from admission: tickets beyond a lane are refused before anything runs', async () => {
    const pool = new PasswordHashPool(1, 1);
    try {
      const first = pool.admit('untrusted');
      const second = pool.admit('untrusted');
      assert.throws(() => pool.admit('untrusted'), /too many sign-ins/);
      // A ticket given back without deriving frees its room; so does a finished derivation.
      second.release();
      second.release();
      const third = pool.admit('untrusted');
      assert.equal((await first.derive(params('a'))).length, 32);
      const fourth = pool.admit('untrusted');
      await assert.rejects(first.derive(params('a')), /derives once/);
      third.release();
      fourth.release();
      assert.ok(pool.admit('trusted'));
    } finally {
      await pool.close();
    }
  });

  it('fails a derivation the worker cannot do, and goes on', async () => {
    const pool = new PasswordHashPool(1, 2);
    try {
      await assert.rejects(pool.derive(params('x', 1000), 'untrusted'), /password hashing failed/);
      assert.equal((await pool.derive(params('y'), 'untrusted')).length, 32);
    } finally {
      await pool.close();
    }
  });

  it('refuses what waits, and anything after, once closed', async () => {
    const pool = new PasswordHashPool(1, 4);
    const running = pool.derive(params('a', 2 ** 14), 'untrusted');
    const waiting = pool.derive(params('b'), 'untrusted');
    const settled = Promise.allSettled([running, waiting]);
    await pool.close();
    const after = await Promise.allSettled([pool.derive(params('c'), 'trusted')]);
    for (const outcome of [...(await settled), ...after]) {
      assert.equal(outcome.status, 'rejected');
      const reason: unknown = outcome.reason;
      assert.ok(reason instanceof VerityError && reason.status === 503, String(reason));
    }
  });
});
