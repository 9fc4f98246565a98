// Property tests of the combined fraud model, on seeded random engine results.
// A failure message carries the seed and the case, so it can be replayed as a unit test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RiskLevel } from '@verity/contracts';
import { FRAUD_BASE } from './fraud.rules';
import { riskFor, scoreFraud } from './fraud.scorer';
import { CLEAN, Rng, WORSENINGS, anyInput, cleanHistoryFor } from '@verity/testing';
import type { FraudInput, SignalKind } from './fraud.types';

const SEED = 20240611;
const CASES = 1500;
const RANK: Record<RiskLevel, number> = { low: 0, medium: 1, high: 2 };
const KINDS: readonly SignalKind[] = ['email', 'phone', 'ip'];

const show = (input: FraudInput): string => JSON.stringify(input);

void describe('fraud model properties', () => {
  void it('(1) making any one field riskier never lowers fraud_score or risk', () => {
    const r = new Rng(SEED);
    let checked = 0;
    for (let n = 0; n < CASES; n++) {
      const before = anyInput(r, 0.75);
      const base = scoreFraud(before);
      for (const w of WORSENINGS) {
        const after = w.apply(before, r);
        if (after === null) continue;
        const worse = scoreFraud(after);
        checked++;
        assert.ok(
          worse.fraud_score >= base.fraud_score,
          `seed ${SEED} case ${n} ${w.name}: ${base.fraud_score} -> ${worse.fraud_score}\n` +
            `before ${show(before)}\nafter ${show(after)}`,
        );
        assert.ok(RANK[worse.risk] >= RANK[base.risk], `seed ${SEED} case ${n} ${w.name}`);
      }
    }
    // Guards against a generator that silently stops producing changes.
    assert.ok(checked > CASES * 5, `only ${checked} worsenings checked`);
  });

  void it('(1) every kind of worsening is exercised and some of them raise the score', () => {
    const r = new Rng(SEED + 1);
    const raised = new Set<string>();
    for (let n = 0; n < CASES; n++) {
      const before = anyInput(r, 0.9);
      for (const w of WORSENINGS) {
        const after = w.apply(before, r);
        if (after !== null && scoreFraud(after).fraud_score > scoreFraud(before).fraud_score) {
          raised.add(w.name);
        }
      }
    }
    assert.deepEqual(
      WORSENINGS.map((w) => w.name).filter((name) => !raised.has(name)),
      [],
      'each worsening should raise the score in at least one sampled case',
    );
  });

  void it('(2) risk is monotone in fraud_score and matches riskFor', () => {
    for (let a = 0; a <= 100; a++) {
      for (let b = a; b <= 100; b++) {
        assert.ok(RANK[riskFor(a)] <= RANK[riskFor(b)], `riskFor(${a}) > riskFor(${b})`);
      }
    }
    const r = new Rng(SEED + 2);
    for (let n = 0; n < CASES; n++) {
      const result = scoreFraud(anyInput(r));
      assert.equal(result.risk, riskFor(result.fraud_score));
    }
  });

  void it('(3) adding a clean result never raises fraud_score, whatever its country', () => {
    const r = new Rng(SEED + 3);
    let checked = 0;
    for (let n = 0; n < CASES; n++) {
      let input = anyInput(r, 0.5);
      let score = scoreFraud(input).fraud_score;
      // Add the missing results one by one, in random order: the score may only go down.
      const missing = KINDS.filter((k) => input[k] === undefined).sort(() => r.next() - 0.5);
      for (const kind of missing) {
        const next: FraudInput = { ...input, [kind]: CLEAN[kind](r) };
        // Half the time the new result comes with a history that fires no rule of its own.
        if (r.bool(0.5)) next.history = { ...input.history, ...cleanHistoryFor(r, kind) };
        const nextScore = scoreFraud(next).fraud_score;
        checked++;
        assert.ok(
          nextScore <= score,
          `seed ${SEED + 3} case ${n} +clean ${kind}: ${score} -> ${nextScore}\n` +
            `before ${show(input)}\nafter ${show(next)}`,
        );
        input = next;
        score = nextScore;
      }
    }
    assert.ok(checked > CASES, `only ${checked} additions checked`);
  });

  void it('explain: base plus the reasons, clamped to 0..100, is fraud_score', () => {
    const r = new Rng(SEED + 4);
    for (let n = 0; n < CASES; n++) {
      const input = anyInput(r);
      const { fraud_score, reasons } = scoreFraud(input);
      const raw = FRAUD_BASE + reasons.reduce((sum, reason) => sum + reason.points, 0);
      assert.equal(fraud_score, Math.min(100, Math.max(0, raw)), show(input));
      assert.ok(Number.isInteger(fraud_score));
      for (const reason of reasons) {
        assert.ok(Number.isInteger(reason.points) && reason.points !== 0, reason.code);
        if (reason.signal !== 'cross') assert.ok(input[reason.signal] !== undefined, reason.code);
      }
      assert.equal(new Set(reasons.map((x) => x.code)).size, reasons.length, 'codes are unique');
    }
  });
});
