// Invariants of the rule table that the property proofs in docs/models/verify.md rely on,
// and a check that the doc lists every rule with the weight the code uses.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  CROSS_RULES,
  EMAIL_CREDITS,
  EMAIL_NOTES,
  EMAIL_RULES,
  FRAUD_BASE,
  IP_CREDITS,
  IP_RULES,
  PHONE_CREDITS,
  PHONE_RULES,
  RISK_THRESHOLDS,
} from './fraud.rules';
import { FRAUD_REASON_CODES, type SignalKind } from './fraud.types';
import { HISTORY_CREDITS, HISTORY_RULES } from './history.rules';
import type { FraudHistory } from './history.types';
import {
  HISTORY_KINDS,
  Rng,
  anyEmail,
  anyHistory,
  anyIp,
  anyPhone,
  anyValueHistory,
} from '@verity/testing';

const RISKS = { email: EMAIL_RULES, phone: PHONE_RULES, ip: IP_RULES };
const CREDITS = { email: EMAIL_CREDITS, phone: PHONE_CREDITS, ip: IP_CREDITS };
const KINDS: readonly SignalKind[] = ['email', 'phone', 'ip'];

/** Every rule as (code, signed points at full weight). */
const ALL: { code: string; points: number }[] = [
  ...KINDS.flatMap((k) => RISKS[k].map((r) => ({ code: r.code, points: r.weight }))),
  ...KINDS.flatMap((k) => CREDITS[k].map((c) => ({ code: c.code, points: -c.credit }))),
  ...KINDS.flatMap((k) => HISTORY_RULES[k].map((r) => ({ code: r.code, points: r.weight }))),
  ...KINDS.flatMap((k) => HISTORY_CREDITS[k].map((c) => ({ code: c.code, points: -c.credit }))),
  ...CROSS_RULES.map((r) => ({ code: r.code, points: r.weight })),
];

function findUp(relative: string): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, relative))) return join(dir, relative);
  }
  throw new Error(`${relative} not found above ${__dirname}`);
}

void describe('fraud rule table', () => {
  void it('uses every reason code exactly once, prefixed by its signal', () => {
    const notes = EMAIL_NOTES.map((n) => n.code);
    assert.deepEqual([...ALL.map((r) => r.code), ...notes].sort(), [...FRAUD_REASON_CODES].sort());
    for (const code of notes) assert.ok(code.startsWith('email_'), code);
    for (const k of KINDS) {
      for (const r of [...RISKS[k], ...CREDITS[k], ...HISTORY_RULES[k], ...HISTORY_CREDITS[k]])
        assert.ok(r.code.startsWith(`${k}_`), r.code);
    }
    for (const r of CROSS_RULES) assert.ok(r.code.startsWith('cross_'), r.code);
  });

  void it('has positive integer weights and credits', () => {
    for (const r of ALL) assert.ok(Number.isInteger(r.points) && r.points !== 0, r.code);
    for (const k of KINDS) for (const r of RISKS[k]) assert.ok(r.weight > 0, r.code);
    for (const k of KINDS) for (const r of HISTORY_RULES[k]) assert.ok(r.weight > 0, r.code);
  });

  void it('keeps every history rule within [0, weight], also on counts and weights that are not numbers', () => {
    const r = new Rng(11);
    const broken = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -3];
    for (let n = 0; n < 500; n++) {
      const history: FraudHistory = anyHistory(
        r,
        { email: anyEmail(r), phone: anyPhone(r), ip: anyIp(r) },
        0.9,
      );
      if (r.bool(0.3) && history.ip?.linked) history.ip.linked.h1 = r.pick(broken);
      if (r.bool(0.3) && history.phone) history.phone.reported.fraud = r.pick(broken);
      if (r.bool(0.3) && history.subnet) history.subnet.reported.legitimate = r.pick(broken);
      for (const k of KINDS) {
        for (const rule of HISTORY_RULES[k]) {
          const p = rule.points(history);
          assert.ok(Number.isInteger(p) && p >= 0 && p <= rule.weight, `${rule.code}: ${p}`);
        }
      }
    }
  });

  void it('reads only its own values: a history rule or credit of one signal ignores the others', () => {
    const r = new Rng(13);
    for (let n = 0; n < 300; n++) {
      const history = anyHistory(r, { email: anyEmail(r), phone: anyPhone(r), ip: anyIp(r) }, 1);
      for (const k of KINDS) {
        const changed: FraudHistory = { ...history };
        for (const other of KINDS.filter((o) => o !== k)) {
          for (const kind of HISTORY_KINDS[other])
            changed[kind] = anyValueHistory(r, kind !== 'email');
        }
        for (const rule of HISTORY_RULES[k])
          assert.equal(rule.points(changed), rule.points(history), rule.code);
        for (const credit of HISTORY_CREDITS[k])
          assert.equal(credit.when(changed), credit.when(history), credit.code);
      }
    }
  });

  void it('keeps every rule within [0, weight] on random results', () => {
    const r = new Rng(7);
    for (let n = 0; n < 500; n++) {
      const fields = { email: anyEmail(r), phone: anyPhone(r), ip: anyIp(r) };
      const check = <T>(
        rules: readonly { code: string; weight: number; points: (f: T) => number }[],
        f: T,
      ) => {
        for (const rule of rules) {
          const p = rule.points(f);
          assert.ok(Number.isInteger(p) && p >= 0 && p <= rule.weight, `${rule.code}: ${p}`);
        }
      };
      check(EMAIL_RULES, fields.email);
      check(PHONE_RULES, fields.phone);
      check(IP_RULES, fields.ip);
    }
  });

  void it('each cross rule names two different signals and only those may be required risky', () => {
    for (const r of CROSS_RULES) {
      assert.notEqual(r.involves[0], r.involves[1], r.code);
      for (const s of r.requiresRisk) assert.ok(r.involves.includes(s), r.code);
    }
  });

  void it('cross rules that can fire on a clean side weigh no more than its clean credit (property 3)', () => {
    for (const k of KINDS) {
      const unconditional = CREDITS[k].find((c) => c.code === `${k}_clean`);
      assert.ok(
        unconditional && unconditional.when(undefined as never),
        `${k}_clean must always pay`,
      );
      const exposure = CROSS_RULES.filter(
        (r) => r.involves.includes(k) && !r.requiresRisk.includes(k),
      )
        .map((r) => r.weight)
        .reduce((a, b) => a + b, 0);
      assert.ok(exposure <= unconditional.credit, `${k}: ${exposure} > ${unconditional.credit}`);
    }
  });
});

void describe('docs/models/verify.md', () => {
  const doc = readFileSync(findUp('docs/models/verify.md'), 'utf8');

  void it('lists every rule with the points the code gives', () => {
    for (const r of ALL) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${r.code}\``));
      assert.ok(row, `no table row for ${r.code}`);
      const cells = row.split('|').map((c) => c.trim());
      const points = r.points > 0 ? `+${r.points}` : `−${-r.points}`;
      assert.ok(cells.includes(points), `${r.code}: expected a cell "${points}" in: ${row}`);
    }
  });

  void it('lists every 0-point note', () => {
    for (const n of EMAIL_NOTES) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${n.code}\``));
      assert.ok(row, `no table row for ${n.code}`);
      assert.ok(
        row
          .split('|')
          .map((c) => c.trim())
          .includes('0'),
        `${n.code}: 0 points in: ${row}`,
      );
    }
  });

  void it('states the base and the thresholds the code uses', () => {
    assert.ok(doc.includes(`FRAUD_BASE = ${FRAUD_BASE}`));
    assert.ok(
      doc.includes(`low < ${RISK_THRESHOLDS.medium} ≤ medium < ${RISK_THRESHOLDS.high} ≤ high`),
    );
  });
});
