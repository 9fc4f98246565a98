/** What a benchmark server child sends its parent once it listens (over the fork IPC channel). */
export interface ServerReady {
  type: 'ready';
  port: number;
  /** The API key of the benchmark account (Verity servers only). */
  apiKey?: string;
}

/** The parent's request to close the server and exit (lets `--cpu-prof` write its profile). */
export interface ServerStop {
  type: 'stop';
}

export function isServerStop(message: unknown): message is ServerStop {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { type?: unknown }).type === 'stop'
  );
}

export function isServerReady(message: unknown): message is ServerReady {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { type?: unknown }).type === 'ready'
  );
}
