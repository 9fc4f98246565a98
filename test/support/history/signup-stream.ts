// A seeded, simulated sign-up stream for the history tests (docs/history.md, "How it is
// tested"): honest users with their own addresses and numbers, rings that share one IP address
// and a few phones, and an office of honest users behind one IP address. Every group draws its
// emails, numbers and addresses from the same pools, so no static signal tells them apart.
import { SeededRandom } from '../seeded-random';

export type SignupKind = 'honest' | 'ring' | 'office';

export interface Signup {
  /** Position in the stream, from 0. */
  index: number;
  kind: SignupKind;
  /** The ring's number (0-based); -1 for everyone else. */
  ring: number;
  email: string;
  phone: string;
  ip: string;
}

export interface StreamShape {
  honest: number;
  rings: number;
  ringSize: number;
  ringPhones: number;
  office: number;
}

/** The shape the issue describes: 2,760 sign-ups. */
export const SIGNUP_STREAM_SHAPE: StreamShape = {
  honest: 2400,
  rings: 8,
  ringSize: 30,
  ringPhones: 2,
  office: 120,
};

/** Consumer ranges the IP data sets place in GB with no anonymity flag (checked by the tests). */
const IP_BLOCKS = ['86.130', '86.150', '2.96', '5.64', '90.200', '109.150', '31.50', '82.10'];
const DOMAINS = ['gmail.com', 'example.com'];

class Draw extends SeededRandom {
  private readonly used = new Set<string>();

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** A value `make` has not given before. */
  unique(make: () => string): string {
    for (;;) {
      const value = make();
      if (!this.used.has(value)) {
        this.used.add(value);
        return value;
      }
    }
  }

  email(): string {
    return this.unique(
      () => `${this.int(36 ** 6).toString(36)}.${this.int(1000)}@${this.pick(DOMAINS)}`,
    );
  }

  /** A GB mobile number (+44 7400 …), valid for libphonenumber. */
  phone(): string {
    return this.unique(() => `+447400${String(this.int(1_000_000)).padStart(6, '0')}`);
  }

  ip(): string {
    return this.unique(() => `${this.pick(IP_BLOCKS)}.${this.int(256)}.${1 + this.int(254)}`);
  }
}

/** The stream for `seed`, its groups shuffled together. */
export function signupStream(seed: number, shape: StreamShape = SIGNUP_STREAM_SHAPE): Signup[] {
  const r = new Draw(seed);
  const people: Omit<Signup, 'index'>[] = [];
  for (let i = 0; i < shape.honest; i++)
    people.push({ kind: 'honest', ring: -1, email: r.email(), phone: r.phone(), ip: r.ip() });
  for (let ring = 0; ring < shape.rings; ring++) {
    const ip = r.ip();
    const phones = Array.from({ length: shape.ringPhones }, () => r.phone());
    for (let i = 0; i < shape.ringSize; i++)
      people.push({ kind: 'ring', ring, email: r.email(), phone: r.pick(phones), ip });
  }
  const officeIp = r.ip();
  for (let i = 0; i < shape.office; i++)
    people.push({ kind: 'office', ring: -1, email: r.email(), phone: r.phone(), ip: officeIp });
  for (let i = people.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [people[i], people[j]] = [people[j], people[i]];
  }
  return people.map((p, index) => ({ ...p, index }));
}
