import { createServer } from 'node:net';
import { StartupError } from '@verity/common';
import { listenError } from '@verity/platform';

/** The oldest Node.js major Verity runs on: package.json's `engines.node` (a test keeps them equal). */
export const MINIMUM_NODE_MAJOR = 20;

/** Refuses a Node.js older than {@link MINIMUM_NODE_MAJOR} before anything else can fail obscurely. */
export function assertSupportedNode(version: string = process.versions.node): void {
  const major = Number.parseInt(version.split('.')[0] ?? '', 10);
  if (major >= MINIMUM_NODE_MAJOR) return;
  throw new StartupError(
    'node_unsupported',
    `Verity needs Node.js ${MINIMUM_NODE_MAJOR} or newer but this is Node.js ${version}: install a current LTS release from https://nodejs.org and run it again.`,
  );
}

/** A port held by this process until the server takes it over. */
export interface PortClaim {
  port: number;
  /** Lets the port go; call right before the real listen. */
  release(): Promise<void>;
}

/**
 * Fails fast, before the database starts, when HOST:PORT cannot be listened on, and holds the
 * port until {@link PortClaim.release}: PORT itself, or for PORT=0 a free port the kernel picks
 * now, so that every address derived from it (the console's, its sign-in link) is known before
 * the start. Holding it keeps the kernel from handing the same number to an outgoing
 * connection (the database pool's, another program's) while the service starts. The real
 * listen maps its own failure the same way ({@link listenError}).
 */
export async function claimPort(host: string, port: number): Promise<PortClaim> {
  const probe = createServer();
  const chosen = await new Promise<number>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => {
      const address = probe.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  }).catch((error: unknown) => {
    throw listenError(host, port, error) ?? error;
  });
  // A held probe never keeps the process alive on its own (a failed start still exits).
  probe.unref();
  let released: Promise<void> | undefined;
  return {
    port: chosen,
    release: () => (released ??= new Promise<void>((resolve) => probe.close(() => resolve()))),
  };
}
