import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { loadConfig } from '@verity/config';
import { createMetrics, type VerityMetrics } from '@verity/observability';
import { buildEngines, type EnginesRuntime } from './engines.runtime';

/** The value of `name{source="<source>"}` in the registry's text, or undefined when absent. */
async function sample(metrics: VerityMetrics, name: string, source: string) {
  const text = await metrics.registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{source="${source}"}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe('data sets in metrics: a list that never loaded is not a stale one', () => {
  let home: string;
  let runtime: EnginesRuntime;
  const metrics = createMetrics();

  before(async () => {
    home = await mkdtemp(join(tmpdir(), 'verity-engines-'));
    // The refresh stays off: tests never leave loopback, so the Tor list (not bundled) stays missing.
    const config = loadConfig({ VERITY_HOME: home, DATA_REFRESH_INTERVAL: 'off' });
    runtime = await buildEngines(config, metrics, pino({ level: 'silent' }));
  });

  after(async () => {
    await runtime.close();
    await rm(home, { recursive: true, force: true });
  });

  it('reports a bundled list as in use (loaded or stale), with its age', async () => {
    const vpn = runtime.ipData.dataStatus().find((s) => s.id === 'x4bnet-vpn-ipv4');
    assert.ok(vpn?.status === 'loaded' || vpn?.status === 'stale', JSON.stringify(vpn));
    assert.equal(await sample(metrics, 'verity_data_source_loaded', 'x4bnet-vpn-ipv4'), 1);
    assert.equal(
      typeof (await sample(metrics, 'verity_data_source_age_seconds', 'x4bnet-vpn-ipv4')),
      'number',
    );
  });

  it('reports a list without a file as missing: 0 and no age series for the stale alert', async () => {
    assert.equal(runtime.ipData.dataStatus().find((s) => s.id === 'tor-exits')?.status, 'missing');
    assert.equal(await sample(metrics, 'verity_data_source_loaded', 'tor-exits'), 0);
    assert.equal(await sample(metrics, 'verity_data_source_age_seconds', 'tor-exits'), undefined);
  });

  it('keeps readiness on the required databases: a missing list is reported, not failing', async () => {
    const ready = await runtime.dataReadiness();
    assert.equal(ready.ok, true);
    const detail = ready.detail as { id: string; status: string; required: boolean }[];
    assert.deepEqual(
      detail.filter((d) => d.id === 'tor-exits').map((d) => [d.status, d.required]),
      [['missing', false]],
    );
  });
});
