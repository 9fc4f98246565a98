// Email engine benchmark: the offline path (syntax, lists, typo) and the full path with DNS
// answered by a loopback server (so after warm-up every lookup is a cache hit).
import { buildEmailEngine } from '@verity/integrations';
import { LoopbackDnsServer, loadTypoCorpora, measureTypoQuality } from '@verity/testing';
import { loadConfig } from '@verity/config';

const DOMAINS = ['gmail.com', 'yahoo.com', 'acme-widgets.com', 'example.org', 'outlook.com'];
const TYPOS = ['gmial.com', 'yahoo.con', 'hotmail.co', 'outlok.com'];
const DISPOSABLE = ['mailinator.com', 'guerrillamail.com', 'yopmail.com'];
const ROLES = ['info', 'support', 'sales', 'admin'];

/** A deterministic mix: valid, typo, disposable, role and invalid inputs. */
function generateInputs(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    switch (i % 5) {
      case 0:
        out.push(`user${i}@${DOMAINS[i % DOMAINS.length]}`);
        break;
      case 1:
        out.push(`first.last${i}@${TYPOS[i % TYPOS.length]}`);
        break;
      case 2:
        out.push(`tmp${i}@${DISPOSABLE[i % DISPOSABLE.length]}`);
        break;
      case 3:
        out.push(`${ROLES[i % ROLES.length]}@${DOMAINS[i % DOMAINS.length]}`);
        break;
      default:
        out.push(i % 2 === 0 ? `not an email ${i}` : `user${i}@@example.com`);
    }
  }
  return out;
}

async function measure(label: string, seconds: number, run: () => Promise<number> | number) {
  const deadline = Date.now() + seconds * 1000;
  const start = process.hrtime.bigint();
  let rows = 0;
  while (Date.now() < deadline) rows += await run();
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`${label}: ${Math.round(rows / elapsed)} rows/s`);
}

/** Prints `email offline: N rows/s` and `email with DNS (cached): N rows/s`. */
export async function benchEmail(): Promise<void> {
  const inputs = generateInputs(10_000);
  const zone: Record<string, { MX: { exchange: string; preference: number }[] }> = {};
  for (const d of [...DOMAINS, ...TYPOS, ...DISPOSABLE]) {
    zone[d] = { MX: [{ exchange: `mx.${d}`, preference: 10 }] };
  }
  const dns = new LoopbackDnsServer({ zone });
  const address = await dns.start();
  const built = buildEmailEngine(loadConfig({ DNS_SERVERS: `${address.host}:${address.port}` }));
  try {
    const { engine } = built;
    for (const input of inputs) engine.analyzeOffline(input); // warm-up (typo memo, JIT)
    await measure('email offline', 3, () => {
      for (const input of inputs) engine.analyzeOffline(input);
      return inputs.length;
    });
    await Promise.all(inputs.slice(0, 100).map((i) => engine.validate(i))); // fill the DNS cache
    await measure('email with DNS (cached)', 3, async () => {
      await Promise.all(inputs.map((input) => engine.validate(input)));
      return inputs.length;
    });
    console.log(`email DNS queries sent: ${dns.queries.length}`);
    printTypoQuality((domain) => engine.analyzeOffline(`x@${domain}`).did_you_mean);
  } finally {
    await built.close();
    await dns.stop();
  }
}

/** Prints did_you_mean precision and recall per corpus (floors in email.typo.quality.spec.ts). */
function printTypoQuality(suggestAddress: (domain: string) => string | null): void {
  const pct = (v: number) => `${(v * 100).toFixed(2)} %`;
  for (const corpus of loadTypoCorpora()) {
    const q = measureTypoQuality(corpus, (d) => suggestAddress(d)?.slice(2) ?? null);
    console.log(
      `email did_you_mean on ${corpus.name} (${corpus.about}; ${corpus.typos.length} typos, ${corpus.legit.length} legitimate domains): precision ${pct(q.precision)}, recall ${pct(q.recall)}, legitimate domains corrected ${pct(q.legitFlagged)}, most frequent typos corrected ${q.top.right}/${q.top.of}`,
    );
    if (q.missed.length > 0) console.log(`  missed: ${q.missed.join(', ')}`);
    if (q.wrong.length > 0) console.log(`  wrong: ${q.wrong.join(', ')}`);
    if (q.flagged.length > 0) console.log(`  legitimate corrected: ${q.flagged.join(', ')}`);
  }
}
