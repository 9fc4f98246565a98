import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseScrape,
  seriesNames,
  startTestStack,
  total,
  type Scrape,
  type TestStack,
} from '@verity/testing';
import { panelQueries } from '../deploy/observability-queries';
import { promqlRefs } from '../deploy/promql-names';

describe('/metrics after real traffic', () => {
  let stack: TestStack;
  let before_: Scrape;
  let after_: Scrape;

  before(async () => {
    stack = await startTestStack({ env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '6' } });
    before_ = parseScrape(String((await stack.client.get('/metrics')).body));
    const { client } = await stack.account(100);
    for (const email of ['a@example.com', 'b@example.com', 'c@nomx.example']) {
      assert.equal((await client.post('/v1/email/validate', { email })).status, 200);
    }
    assert.equal((await client.post('/v1/ip/intel', { ip: '8.8.8.8' })).status, 200);
    assert.equal(
      (await client.post('/v1/phone/validate', { phone: '+447400123456', hlr: true })).status,
      503,
    );
    const broke = (await stack.account(0)).client;
    assert.equal((await broke.post('/v1/email/validate', { email: 'a@example.com' })).status, 402);
    // At once, so a slow machine cannot let the bucket (burst 6, 1/s) refill between them.
    const statuses = (
      await Promise.all(Array.from({ length: 12 }, () => client.get('/v1/ping')))
    ).map((r) => r.status);
    assert.ok(statuses.includes(429), statuses.join(','));
    after_ = parseScrape(String((await stack.client.get('/metrics')).body));
  });
  after(() => stack.close());

  const moved = (name: string, labels: Record<string, string> = {}) =>
    total(after_, name, labels) - total(before_, name, labels);

  it('counts requests and latency by route template and status', () => {
    assert.equal(
      moved('verity_http_requests_total', { route: '/v1/email/validate', status: '200' }),
      3,
    );
    assert.equal(
      moved('verity_http_request_duration_seconds_count', {
        route: '/v1/email/validate',
        status: '200',
      }),
      3,
    );
    assert.ok(
      after_.samples.some(
        (s) => s.name === 'verity_http_request_duration_seconds_bucket' && s.labels.le === '+Inf',
      ),
    );
    assert.ok(
      after_.samples.every(
        (s) => !/vrt_live_|[0-9a-f]{8}-[0-9a-f]{4}-/.test(JSON.stringify(s.labels)),
      ),
      'no keys or ids as labels',
    );
  });

  it('counts credits by operation and 402/429 rejections', () => {
    assert.equal(moved('verity_credits_consumed_total', { operation: 'email_validate' }), 3);
    assert.equal(moved('verity_credits_consumed_total', { operation: 'ip_intel' }), 1);
    assert.equal(moved('verity_credits_consumed_total', { operation: 'phone_validate_hlr' }), 0);
    assert.equal(moved('verity_http_rejections_total', { reason: 'insufficient_credits' }), 1);
    assert.ok(moved('verity_http_rejections_total', { reason: 'rate_limited' }) >= 1);
  });

  it('counts DNS queries and cache lookups, and HLR outcomes', () => {
    assert.ok(moved('verity_dns_queries_total') >= 2);
    assert.ok(moved('verity_dns_cache_lookups_total', { result: 'miss' }) >= 2);
    assert.equal(moved('verity_hlr_requests_total', { outcome: 'not_configured' }), 1);
  });

  it('exposes data-set ages and process metrics', () => {
    assert.ok(after_.samples.some((s) => s.name === 'verity_data_source_age_seconds'));
    assert.ok(after_.samples.some((s) => s.name === 'verity_process_cpu_user_seconds_total'));
  });

  it('every metric the Grafana dashboard queries is exported by the live service', () => {
    const live = seriesNames(after_);
    const expressions = panelQueries().map((q) => q.expr);
    assert.ok(expressions.length > 10);
    for (const expr of expressions) {
      for (const name of promqlRefs(expr).metrics) {
        if (name === 'up') continue; // written by Prometheus itself
        assert.ok(
          live.has(name),
          `dashboard query uses ${name}, which /metrics does not export: ${expr}`,
        );
      }
    }
  });
});
