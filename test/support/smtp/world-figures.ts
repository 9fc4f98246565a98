import type { Deliverability } from '@verity/contracts';
import type { MailBehaviour } from './mail-host.server';
import type { MailWorld } from './mail-world';

/** How answers compare with the world's ground truth (docs/models/email.md, "Test world"). */
export interface WorldFigures {
  addresses: number;
  /** Undeliverable answers that are missing mailboxes, over all undeliverable answers. */
  undeliverablePrecision: number;
  /** Missing mailboxes answered undeliverable, over all missing mailboxes. */
  missingFound: number;
  /** Existing (knowable) mailboxes answered deliverable, over all of them. */
  existingConfirmed: number;
  /** Addresses that exist or cannot be known, answered undeliverable: must be 0. */
  wronglyUndeliverable: number;
  /** A few of them, for the failure message. */
  wrongExamples: string[];
  /** Answers by the host's behaviour and deliverability. */
  byBehaviour: Record<string, Partial<Record<Deliverability, number>>>;
}

const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);

/** Compares `answers` (address → deliverability) with the world's truth. */
export function worldFigures(
  world: MailWorld,
  answers: ReadonlyMap<string, Deliverability>,
): WorldFigures {
  let undeliverable = 0;
  let rightUndeliverable = 0;
  let missing = 0;
  let exists = 0;
  let confirmed = 0;
  let wrong = 0;
  const wrongExamples: string[] = [];
  const byBehaviour: Record<string, Partial<Record<Deliverability, number>>> = {};
  for (const a of world.addresses) {
    const answer = answers.get(a.address);
    if (answer === undefined) throw new Error(`no answer for ${a.address}`);
    const tally = (byBehaviour[a.behaviour] ??= {});
    tally[answer] = (tally[answer] ?? 0) + 1;
    if (answer === 'undeliverable') {
      undeliverable++;
      if (a.truth === 'missing') rightUndeliverable++;
      else if (wrong++ < 5) wrongExamples.push(a.address);
    }
    if (a.truth === 'missing') missing++;
    if (a.truth === 'exists') {
      exists++;
      if (answer === 'deliverable') confirmed++;
    }
  }
  return {
    addresses: world.addresses.length,
    undeliverablePrecision: ratio(rightUndeliverable, undeliverable),
    missingFound: ratio(rightUndeliverable, missing),
    existingConfirmed: ratio(confirmed, exists),
    wronglyUndeliverable: wrong,
    wrongExamples,
    byBehaviour,
  };
}

/** Sessions the hosts of `behaviour` saw per 1,000 of their addresses, and their peaks. */
export function hostFigures(
  world: MailWorld,
  behaviour: MailBehaviour,
): { sessionsPer1000: number; peakConcurrent: number; peakPerWindow: number; refused421: number } {
  const stats = Object.values(world.stats()).filter((s) => s.behaviour === behaviour);
  const addresses = world.addresses.filter((a) => a.behaviour === behaviour).length;
  const sessions = stats.reduce((n, s) => n + s.sessions, 0);
  return {
    sessionsPer1000: addresses === 0 ? 0 : (sessions / addresses) * 1000,
    peakConcurrent: Math.max(0, ...stats.map((s) => s.peakConcurrent)),
    peakPerWindow: Math.max(0, ...stats.map((s) => s.peakPerWindow)),
    refused421: stats.reduce((n, s) => n + s.refused421, 0),
  };
}

/** Parses a result CSV of `input,...,deliverability,...` into address → deliverability. */
export function deliverabilityOf(csv: string): Map<string, Deliverability> {
  const [header, ...rows] = csv.trimEnd().split('\n');
  const columns = header.split(',');
  const input = columns.indexOf('input');
  const verdict = columns.indexOf('deliverability');
  const out = new Map<string, Deliverability>();
  for (const row of rows) {
    const cells = row.split(',');
    out.set(cells[input], cells[verdict] as Deliverability);
  }
  return out;
}
