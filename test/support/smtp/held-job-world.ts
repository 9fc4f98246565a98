import assert from 'node:assert/strict';
import type { MailWorld, MailWorldSpec, WorldAddress } from './mail-world';
import { deliverabilityOf } from './world-figures';

/** The MX names of {@link heldJobWorld}. */
export const HELD_JOB_HOSTS = { truthful: 'mx.truth-mail.com', greylist: 'mx.greylist-mail.com' };

/**
 * A truthful host and a greylisting one that answers 451 until the test calls
 * `endGreylisting()` on it: a job with its addresses cannot finish before that, whatever the
 * retry window's timing (the retry window tests, docs/models/email.md).
 */
export function heldJobWorld(): MailWorldSpec {
  const { truthful, greylist } = HELD_JOB_HOSTS;
  return {
    hosts: [
      { name: truthful, ip: '127.0.0.2', behaviour: 'truthful' },
      { name: greylist, ip: '127.0.0.3', behaviour: 'greylist', greylistMs: Infinity },
    ],
    domains: [
      { domain: 'truth0-world.com', host: truthful, existing: 18, missing: 12 },
      { domain: 'greylist0-world.com', host: greylist, existing: 12, missing: 8 },
    ],
  };
}

/**
 * The two jobs' rows in a {@link heldJobWorld}: `held` interleaves every greylisted address
 * with half as many plain ones (30 rows, so every 10-row chunk waits for a round), `other` is
 * the remaining plain addresses (20 rows, never held).
 */
export function heldJobRows(world: MailWorld): { held: WorldAddress[]; other: WorldAddress[] } {
  const truthful = world.addresses.filter((a) => a.behaviour === 'truthful');
  const greylisted = world.addresses.filter((a) => a.behaviour === 'greylist');
  const held = greylisted.flatMap((a, i) => (i % 2 === 0 ? [a, truthful[i / 2]] : [a]));
  return { held, other: truthful.slice(greylisted.length / 2) };
}

/** A result file answering every row as the world is, one line per row, in input order. */
export function assertWorldAnswers(csv: string, rows: readonly WorldAddress[]): void {
  const answers = deliverabilityOf(csv);
  assert.deepEqual(
    [...answers.keys()],
    rows.map((a) => a.address),
    'one row per input row, in input order',
  );
  for (const a of rows) {
    const expected = a.truth === 'exists' ? 'deliverable' : 'undeliverable';
    assert.equal(answers.get(a.address), expected, a.address);
  }
}
