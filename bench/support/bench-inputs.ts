/** Mail domains of the API benchmark; the server's loopback DNS zone answers an MX for each. */
export const BENCH_DOMAINS = ['example.com', 'gmail.com', 'acme-widgets.com', 'mailinator.com'];

/** A small fixed rotation of request bodies: a plain, a free-provider, a typo-free B2B and a disposable address. */
export const BENCH_EMAILS = [
  'jane.doe@example.com',
  'john.smith@gmail.com',
  'sales@acme-widgets.com',
  'tmp123@mailinator.com',
];
