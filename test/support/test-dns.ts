import { LoopbackDnsServer } from './dns/loopback-dns.server';

/**
 * The zone every e2e test resolves against, on 127.0.0.1: tests never reach a real resolver.
 * `example.com` takes mail; `nomx.example` has only an A record; `broken.example` answers
 * SERVFAIL (a DNS outage for that domain); anything else is NXDOMAIN.
 */
export function startTestDns(): Promise<{ server: LoopbackDnsServer; servers: string }> {
  const server = new LoopbackDnsServer({
    zone: {
      'example.com': { MX: [{ exchange: 'mx.example.com', preference: 10 }] },
      'mx.example.com': { A: ['127.0.0.1'] },
      'gmail.com': { MX: [{ exchange: 'mx.gmail.com', preference: 5 }] },
      'mx.gmail.com': { A: ['127.0.0.1'] },
      'mailinator.com': { MX: [{ exchange: 'mx.mailinator.com', preference: 10 }] },
      'mx.mailinator.com': { A: ['127.0.0.1'] },
      'nomx.example': { A: ['127.0.0.1'] },
      'broken.example': { servfail: true },
    },
  });
  return server.start().then((address) => ({ server, servers: `${address.host}:${address.port}` }));
}
