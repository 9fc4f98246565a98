import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VerityError } from '@verity/common';
import { MemoryRateLimitStore } from '../rate-limit/memory.rate-limit-store';
import { FailedAuthBudget } from './failed-auth.budget';

/** A budget of `burst` failures on a clock that stands still (no refill during a test). */
function budgetOf(burst: number) {
  const store = new MemoryRateLimitStore({ ratePerSecond: 1, burst }, () => 0);
  const budget = new FailedAuthBudget(store, () => new VerityError('rate_limited', 'spent'));
  return { store, budget };
}

/** Settles to 'in' when the reservation is granted, 'refused' when it is refused. */
function track(reservation: Promise<void>): { state: string } {
  const outcome = { state: 'waiting' };
  reservation.then(
    () => (outcome.state = 'in'),
    () => (outcome.state = 'refused'),
  );
  return outcome;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('failed-authentication budget', () => {
  it('lets valid keys through without spending, however many there are', async () => {
    const { store, budget } = budgetOf(2);
    for (let i = 0; i < 50; i++) {
      await budget.reserve('a');
      await budget.release('a', false);
    }
    assert.equal((await store.peek('a')).remaining, 2);
  });

  it('holds lookups beyond the remaining budget until one ends, then lets the next in', async () => {
    const { budget } = budgetOf(2);
    const first = track(budget.reserve('a'));
    const second = track(budget.reserve('a'));
    const third = track(budget.reserve('a'));
    await settle();
    assert.deepEqual([first.state, second.state, third.state], ['in', 'in', 'waiting']);
    await budget.release('a', false); // a valid key gives its reservation back
    await settle();
    assert.equal(third.state, 'in');
  });

  it('refuses everyone waiting once failures have spent the budget', async () => {
    const { store, budget } = budgetOf(2);
    const lookups = [track(budget.reserve('a')), track(budget.reserve('a'))];
    const waiting = [track(budget.reserve('a')), track(budget.reserve('a'))];
    await settle();
    assert.deepEqual(
      [...lookups, ...waiting].map((o) => o.state),
      ['in', 'in', 'waiting', 'waiting'],
    );
    await budget.release('a', true);
    await settle();
    assert.deepEqual(
      waiting.map((o) => o.state),
      ['waiting', 'waiting'],
    );
    await budget.release('a', true);
    await settle();
    assert.deepEqual(
      waiting.map((o) => o.state),
      ['refused', 'refused'],
    );
    assert.equal((await store.peek('a')).allowed, false);
    // Another address has its own budget.
    await budget.reserve('b');
  });

  it('refuses a subject found spent without asking the store again until it may refill', async () => {
    const { store, budget } = budgetOf(1);
    await budget.reserve('a');
    await budget.release('a', true);
    let peeks = 0;
    const peek = store.peek.bind(store);
    store.peek = (key) => {
      peeks++;
      return peek(key);
    };
    await assert.rejects(budget.reserve('a'), /spent/);
    assert.equal(peeks, 1);
    for (let i = 0; i < 20; i++) await assert.rejects(budget.reserve('a'), /spent/);
    assert.equal(peeks, 1, 'refused from memory');
    await budget.reserve('b');
    assert.equal(peeks, 2);
  });
});
