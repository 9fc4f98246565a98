import { StartupError, errnoCode } from '@verity/common';

/** What a Nest application (or any server) offers to listen with. */
export interface Listenable {
  listen(options: { port: number; host: string }): Promise<unknown>;
}

/**
 * The one sentence for a failure to listen on HOST:PORT, or null for an unexpected error.
 * `command` ends the example of a free port (`npm start` for `verity start`; none for a
 * deployable, whose command line is its image's).
 */
export function listenError(
  host: string,
  port: number,
  error: unknown,
  command: string | null = 'npm start',
): StartupError | null {
  const run = (example: number) => `PORT=${example}${command ? ` ${command}` : ''}`;
  const code = errnoCode(error);
  if (code === 'EADDRINUSE')
    return new StartupError(
      'port_in_use',
      `Port ${port} on ${host} is already in use by another program: stop that program, or start Verity on a free port, e.g. ${run(port === 65535 ? 8081 : port + 1)}.`,
      { cause: error },
    );
  if (code === 'EACCES')
    return new StartupError(
      'port_unavailable',
      `This user may not listen on port ${port} (ports below 1024 need privileges): set PORT to 1024 or above, e.g. ${run(8080)}.`,
      { cause: error },
    );
  if (code === 'EADDRNOTAVAIL')
    return new StartupError(
      'port_unavailable',
      `HOST ${host} is not an address of this machine: set HOST to one of its addresses, e.g. HOST=127.0.0.1 or HOST=0.0.0.0.`,
      { cause: error },
    );
  return null;
}

/** Listens on HOST:PORT; a port taken or refused is the one sentence of {@link listenError}. */
export async function listenOn(
  app: Listenable,
  config: { PORT: number; HOST: string },
  command: string | null = null,
): Promise<void> {
  await app.listen({ port: config.PORT, host: config.HOST }).catch((error: unknown) => {
    throw listenError(config.HOST, config.PORT, error, command) ?? error;
  });
}
