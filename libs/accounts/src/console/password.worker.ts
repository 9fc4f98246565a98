import { scryptSync } from 'node:crypto';
import { parentPort } from 'node:worker_threads';

/** One key derivation asked of the worker (password.pool.ts). */
export interface DeriveRequest {
  id: number;
  password: string;
  salt: Buffer;
  keyLength: number;
  N: number;
  r: number;
  p: number;
  maxmem: number;
}

/** Its answer: the key, or the error's message. */
export type DeriveReply = { id: number; key: Uint8Array } | { id: number; error: string };

// scryptSync runs on this worker's own thread, never on libuv's thread pool, which the database
// driver, DNS and file I/O of the main thread need.
parentPort?.on('message', (request: DeriveRequest) => {
  let reply: DeriveReply;
  try {
    const { N, r, p, maxmem } = request;
    const key = scryptSync(request.password, request.salt, request.keyLength, { N, r, p, maxmem });
    reply = { id: request.id, key };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
