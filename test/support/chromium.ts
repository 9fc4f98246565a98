import { createServer } from 'node:net';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium; tests never download a browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Starts headless Chromium. Under CI=true a browser that cannot start is an error (the
 * journeys must run); elsewhere the reason is returned so the caller can say why it skips.
 */
export async function launchChromium(): Promise<Browser | string> {
  try {
    return await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
  } catch (error) {
    if (process.env.CI === 'true') throw error;
    return `Chromium cannot start at ${CHROMIUM_PATH}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

/** A free loopback port (the console's address must be known before the server starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
