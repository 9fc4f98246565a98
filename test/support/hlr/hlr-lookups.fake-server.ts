import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hlrLookupsSignature } from '@verity/integrations';

/** How the fake answers one MSISDN. Anything not listed answers CONNECTED, not ported. */
export type FakeHlrBehaviour =
  | { kind: 'answer'; body: Record<string, unknown> }
  | { kind: 'status'; status: number; body?: string }
  | { kind: 'raw'; body: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'hang' };

/** A request the fake received. */
export interface FakeHlrRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A local stand-in for hlr-lookups.com's API v2 on 127.0.0.1 (tests only): POST
 * /api/v2/hlr-lookup with Digest-Auth checked exactly as the provider documents it.
 */
export class FakeHlrLookupsServer {
  readonly requests: FakeHlrRequest[] = [];
  readonly behaviours = new Map<string, FakeHlrBehaviour>();
  private readonly server: Server;

  constructor(
    readonly apiKey: string,
    private readonly apiSecret: string,
  ) {
    this.server = createServer((req, res) => this.handle(req, res));
  }

  /** Starts on an ephemeral port and returns the API root (…/api/v2). */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/api/v2`;
  }

  /** Stops and drops hanging connections so the test process can exit. */
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      this.requests.push({ path, headers: req.headers, body });
      if (req.method !== 'POST' || path !== '/api/v2/hlr-lookup') {
        return send(res, 404, { success: false, errors: [{ message: 'Not Found' }] });
      }
      const ts = String(req.headers['x-digest-timestamp'] ?? '');
      const expected = hlrLookupsSignature('/hlr-lookup', ts, 'POST', body, this.apiSecret);
      if (
        req.headers['x-digest-key'] !== this.apiKey ||
        req.headers['x-digest-signature'] !== expected
      ) {
        return send(res, 401, { success: false, errors: [{ message: 'Unauthorized' }] });
      }
      const msisdn = readMsisdn(body);
      if (msisdn === null) {
        return send(res, 400, { success: false, errors: [{ message: 'Invalid JSON' }] });
      }
      const behaviour = this.behaviours.get(msisdn) ?? { kind: 'answer', body: connected(msisdn) };
      switch (behaviour.kind) {
        case 'answer':
          return send(res, 200, { msisdn, ...behaviour.body });
        case 'status':
          res.writeHead(behaviour.status, { 'content-type': 'application/json' });
          return void res.end(behaviour.body ?? '');
        case 'raw':
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end(behaviour.body);
        case 'redirect':
          res.writeHead(302, { location: behaviour.location });
          return void res.end();
        case 'hang':
          return; // never answers; stop() drops the socket
      }
    });
  }
}

/** A documented-shape CONNECTED answer (fields as in the provider's API docs). */
export function connected(
  msisdn: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: 'f94ef092cb53',
    msisdn,
    connectivity_status: 'CONNECTED',
    mccmnc: '23420',
    mcc: '234',
    mnc: '20',
    original_network_name: 'Three',
    original_country_code: 'GB',
    is_ported: false,
    ported_network_name: null,
    is_roaming: false,
    roaming_network_name: null,
    cost: '0.0100',
    timestamp: '2026-11-22 10:00:00.000+0000',
    processing_status: 'COMPLETED',
    error_code: null,
    data_source: 'LIVE_HLR',
    ...extra,
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function readMsisdn(body: string): string | null {
  try {
    const value: unknown = (JSON.parse(body) as { msisdn?: unknown }).msisdn;
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}
