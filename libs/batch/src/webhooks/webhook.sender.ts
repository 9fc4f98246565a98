import { promises as dns, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { VerityError } from '@verity/common';
import { WEBHOOK_SIGNATURE_HEADER, signWebhook } from '@verity/contracts';
import { forbiddenAddressReason, forbiddenHostReason } from './address.policy';
import { ALLOW_PRIVATE_HINT, bareHost, validateWebhookUrl } from './webhook.url';

/** Resolves a hostname to every address it has (injectable for tests). */
export type WebhookResolver = (hostname: string) => Promise<readonly LookupAddress[]>;

/** Settings of one delivery attempt. */
export interface DeliverWebhookOptions {
  /** WEBHOOK_SECRET: key of the Verity-Signature HMAC. */
  secret: string | Buffer;
  /** WEBHOOK_TIMEOUT_MS: covers DNS, connect, and waiting for the response status. */
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE: permit private, loopback and other non-public targets. */
  allowPrivate: boolean;
  resolver?: WebhookResolver;
  /** Unix seconds for the signature's `t` (defaults to the clock). */
  now?: () => number;
  /** Extra request headers, e.g. a delivery id. */
  headers?: Readonly<Record<string, string>>;
}

/** Why a delivery attempt failed. */
export type WebhookFailure =
  'invalid_url' | 'forbidden_target' | 'dns' | 'timeout' | 'network' | 'http_status';

/**
 * A failed delivery attempt. `retryable` is false only when another attempt cannot change the
 * outcome by itself (a bad URL, a target refused by the address policy).
 */
export class WebhookDeliveryError extends Error {
  constructor(
    readonly reason: WebhookFailure,
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'WebhookDeliveryError';
  }
}

/** Outcome of a delivered webhook (any 2xx). */
export interface WebhookDelivery {
  status: number;
  /** The vetted address the request was sent to. */
  address: string;
}

const systemResolver: WebhookResolver = (hostname) =>
  dns.lookup(hostname, { all: true, verbatim: true });

/**
 * POSTs `body` (JSON) to `url`, signed with `Verity-Signature`. SSRF-safe: only http(s), no
 * credentials, every resolved address checked against the address policy, and the socket
 * pinned to the checked address so DNS rebinding cannot move it. Redirects are not followed.
 */
export async function deliverWebhook(
  url: string,
  body: string | Buffer,
  options: DeliverWebhookOptions,
): Promise<WebhookDelivery> {
  let target: URL;
  try {
    // Shape only here; the address policy below covers literal IPs and resolved names alike.
    target = validateWebhookUrl(url, true);
  } catch (err) {
    const message = err instanceof VerityError ? err.message : 'webhook_url is not valid';
    throw new WebhookDeliveryError('invalid_url', message, false, undefined, { cause: err });
  }
  const deadline = Date.now() + options.timeoutMs;
  const host = bareHost(target);
  const pinned = await vetAddress(host, options, deadline);
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const t = Math.floor(options.now ? options.now() : Date.now() / 1000);
  const headers = {
    ...options.headers,
    'Content-Type': 'application/json',
    'Content-Length': String(payload.length),
    'User-Agent': 'Verity-Webhooks/1',
    [WEBHOOK_SIGNATURE_HEADER]: signWebhook(payload, options.secret, t),
  };
  const status = await post(target, host, pinned, payload, headers, deadline - Date.now());
  if (status < 200 || status > 299) {
    throw new WebhookDeliveryError('http_status', `webhook answered HTTP ${status}`, true, status);
  }
  return { status, address: pinned.address };
}

// Resolves the host and applies the address policy to every address: a name that resolves
// to a mix of public and private addresses is refused, since any of them could be used.
async function vetAddress(
  host: string,
  options: DeliverWebhookOptions,
  deadline: number,
): Promise<LookupAddress> {
  const byName = options.allowPrivate ? null : forbiddenHostReason(host);
  if (byName !== null) {
    throw new WebhookDeliveryError(
      'forbidden_target',
      `webhook target ${host} is a ${byName} address: ${ALLOW_PRIVATE_HINT}`,
      false,
    );
  }
  let addresses: readonly LookupAddress[];
  const family = isIP(host);
  if (family !== 0) {
    addresses = [{ address: host, family }];
  } else {
    const resolve = options.resolver ?? systemResolver;
    try {
      addresses = await withDeadline(resolve(host), deadline);
    } catch (err) {
      if (err instanceof WebhookDeliveryError) throw err;
      throw new WebhookDeliveryError('dns', `could not resolve ${host}`, true, undefined, {
        cause: err,
      });
    }
  }
  if (addresses.length === 0) {
    throw new WebhookDeliveryError('dns', `${host} has no address`, true);
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const reason = forbiddenAddressReason(address);
      if (reason !== null) {
        throw new WebhookDeliveryError(
          'forbidden_target',
          `webhook target ${host} resolves to a ${reason} address: ${ALLOW_PRIVATE_HINT}`,
          false,
        );
      }
    }
  }
  return addresses[0];
}

function withDeadline<T>(promise: Promise<T>, deadline: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new WebhookDeliveryError('timeout', 'webhook timed out resolving', true)),
      Math.max(0, deadline - Date.now()),
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

function post(
  target: URL,
  host: string,
  pinned: LookupAddress,
  payload: Buffer,
  headers: Record<string, string>,
  remainingMs: number,
): Promise<number> {
  // The connection goes to the vetted address whatever the resolver would answer now; the
  // URL's hostname is still used for the Host header and TLS SNI/certificate checks.
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    let timedOut = false;
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const req = transport.request({
      method: 'POST',
      protocol: target.protocol,
      hostname: host,
      port: target.port === '' ? undefined : Number(target.port),
      path: `${target.pathname}${target.search}`,
      headers,
      lookup,
      agent: false, // a fresh connection per attempt: no pooled socket from another address
    });
    const timer = setTimeout(
      () => {
        timedOut = true;
        req.destroy();
      },
      Math.max(0, remainingMs),
    );
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      // Only the status matters; the body is not read (a slow or endless body cannot hold us).
      res.destroy();
      finish(() => resolve(status));
    });
    req.on('error', (err) => {
      finish(() =>
        reject(
          timedOut
            ? new WebhookDeliveryError('timeout', 'webhook timed out', true, undefined, {
                cause: err,
              })
            : new WebhookDeliveryError(
                'network',
                `webhook request failed: ${err.message}`,
                true,
                undefined,
                {
                  cause: err,
                },
              ),
        ),
      );
    });
    req.on('close', () => {
      if (timedOut) {
        finish(() => reject(new WebhookDeliveryError('timeout', 'webhook timed out', true)));
      }
    });
    req.end(payload);
  });
}
