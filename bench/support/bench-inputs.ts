/** Mail domains of the API benchmark; the server's loopback DNS zone answers an MX for each. */
export const BENCH_DOMAINS = ['example.com', 'gmail.com', 'acme-widgets.com', 'mailinator.com'];

/** A small fixed rotation of request bodies: a plain, a free-provider, a typo-free B2B and a disposable address. */
export const BENCH_EMAILS = [
  'jane.doe@example.com',
  'john.smith@gmail.com',
  'sales@acme-widgets.com',
  'tmp123@mailinator.com',
];

/**
 * Verify bodies: 1,000 sign-ups, each with its own address (on the benchmark's domains), GB
 * mobile number and consumer IP address, so the history store holds and counts 4,000 values.
 */
export const BENCH_VERIFY_BODIES = Array.from({ length: 1000 }, (_, i) =>
  JSON.stringify({
    email: `user${i}@${BENCH_DOMAINS[i % BENCH_DOMAINS.length]}`,
    phone: `+447400${String(100_000 + i).padStart(6, '0')}`,
    ip: `86.${130 + (i % 20)}.${(i * 7) % 256}.${1 + (i % 254)}`,
  }),
);
