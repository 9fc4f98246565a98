import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBenchFigures, type KindFigures } from './bench-figures';
import { DEFAULT_PLAN_OPTIONS, planReplicas } from './replica-plan';

const email: KindFigures = {
  rows: 1_000_000,
  scorers: 2,
  wallSeconds: 60,
  cpuSecondsPerMillionRows: {
    api: 0.5,
    ingest: 1.5,
    scorersTotal: 8,
    kafka: 1,
    s3proxy: 3,
    postgres: 0.4,
    redis: 0.1,
  },
  s3: { requestsPerMillionRows: 1_000, bytesPerMillionRows: 100e6 },
  postgresStatementsPerMillionRows: 600,
};

describe('planReplicas', () => {
  it('sizes scorers from their CPU per row at the planned utilisation', () => {
    // 100k rows/s × 8 CPU-s per million = 0.8 cores; at 70 % of a core: 2 replicas.
    const small = planReplicas(email, 100_000);
    assert.equal(small.scorer.cores, 0.8);
    assert.equal(small.scorer.replicas, 2);
    // 1M rows/s → 8 cores → 12 replicas at 70 %.
    const big = planReplicas(email, 1_000_000);
    assert.equal(big.scorer.cores, 8);
    assert.equal(big.scorer.replicas, 12);
    assert.equal(
      planReplicas(email, 1_000_000, { ...DEFAULT_PLAN_OPTIONS, utilisation: 1 }).scorer.replicas,
      8,
    );
  });

  it('keeps the manifests’ floor however small the load: one scorer, two ingest', () => {
    const p = planReplicas(email, 1);
    assert.equal(p.scorer.replicas, 1);
    assert.equal(p.ingest.replicas, 2);
  });

  it('gives every scorer its concurrent partitions, twice over', () => {
    const p = planReplicas(email, 1_000_000);
    assert.equal(p.kafka.partitions, 2 * 12 * DEFAULT_PLAN_OPTIONS.scorerConcurrency);
    // Two messages (the chunk and its progress report) per 10,000 rows.
    assert.equal(p.kafka.messagesPerSecond, 200);
  });

  it('bounds one job by one ingest core', () => {
    assert.equal(planReplicas(email, 10).ingest.perJobCeilingRowsPerSecond, 1_000_000 / 1.5);
  });

  it('prices S3 requests per million rows and scales request and byte rates', () => {
    const p = planReplicas(email, 50_000);
    assert.equal(p.s3.usdPerMillionRows, 1 * 0.005);
    assert.equal(p.s3.requestsPerSecond, 50);
    assert.equal(p.s3.megabytesPerSecond, 5);
    assert.equal(p.s3.selfHostedCores, 0.15);
    assert.equal(p.postgres.statementsPerSecond, 30);
  });

  it('refuses a rate or utilisation that means nothing', () => {
    assert.throws(() => planReplicas(email, 0), RangeError);
    assert.throws(() => planReplicas(email, Number.NaN), RangeError);
    assert.throws(
      () => planReplicas(email, 10, { ...DEFAULT_PLAN_OPTIONS, utilisation: 1.5 }),
      RangeError,
    );
  });
});

describe('parseBenchFigures', () => {
  const figures = {
    measuredAt: '2026-11-23T21:00:00.000Z',
    scale: 1,
    host: { cpus: 2, node: 'v20.20.2', loadAverageAtStart: 1.2 },
    kinds: { email, phone: email, ip: email },
  };

  it('accepts the bench output and keeps fields it does not plan with', () => {
    assert.deepEqual(parseBenchFigures(figures).kinds.email, email);
  });

  it('names the field that is missing', () => {
    const broken = structuredClone(figures) as Record<string, any>;
    delete broken.kinds.phone.cpuSecondsPerMillionRows.ingest;
    assert.throws(
      () => parseBenchFigures(broken),
      /kinds\.phone\.cpuSecondsPerMillionRows\.ingest/,
    );
  });
});
