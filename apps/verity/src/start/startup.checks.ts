import { StartupError } from '@verity/common';

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
