import { connect, type Socket } from 'node:net';
import { SocksClient } from 'socks';

/** Why a connection could not be made. */
export class SmtpConnectError extends Error {
  override readonly name = 'SmtpConnectError';
  constructor(
    message: string,
    /** `timeout`: nothing answered (a blocked port looks like this); `refused`: anything else. */
    readonly kind: 'timeout' | 'refused',
  ) {
    super(message);
  }
}

/** Opens a TCP connection to a mail host's address, failing after `timeoutMs`. */
export type SmtpDialer = (ip: string, port: number, timeoutMs: number) => Promise<Socket>;

/** Connects straight to the mail host. */
export const directDialer: SmtpDialer = (ip, port, timeoutMs) =>
  new Promise((resolve, reject) => {
    const socket = connect({ host: ip, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new SmtpConnectError(`connect to ${ip}:${port} timed out`, 'timeout'));
    }, timeoutMs);
    socket.once('error', (err) => {
      clearTimeout(timer);
      socket.destroy();
      reject(new SmtpConnectError(err.message, 'refused'));
    });
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
  });

/** A SOCKS5 proxy (RFC 1928), with optional username/password (RFC 1929). */
export interface SocksProxySettings {
  host: string;
  port: number;
  username?: string;
  password?: string;
}

/** Parses `socks5://[user:password@]host:port`; null when it is not one. */
export function parseSocksProxy(url: string): SocksProxySettings | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'socks5:' || parsed.hostname === '' || parsed.port === '') return null;
  if (parsed.pathname !== '' && parsed.pathname !== '/') return null;
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(parsed.port),
    ...(parsed.username !== '' && { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password !== '' && { password: decodeURIComponent(parsed.password) }),
  };
}

/**
 * Connects through a SOCKS5 proxy (npm `socks`): the mail host's address, already resolved and
 * checked against the private-address guard here, is what the proxy is asked to reach, so
 * the proxy never resolves a name of our choosing. Most clouds block outbound port 25; a
 * proxy on a host that may send to it is the usual way out.
 */
export function socksDialer(proxy: SocksProxySettings): SmtpDialer {
  return async (ip, port, timeoutMs) => {
    try {
      const { socket } = await SocksClient.createConnection({
        proxy: {
          host: proxy.host,
          port: proxy.port,
          type: 5,
          ...(proxy.username !== undefined && { userId: proxy.username }),
          ...(proxy.password !== undefined && { password: proxy.password }),
        },
        command: 'connect',
        destination: { host: ip, port },
        timeout: timeoutMs,
      });
      return socket;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // The library reports its own timer as "Proxy connection timed out".
      const kind = /timed out/i.test(message) ? 'timeout' : 'refused';
      throw new SmtpConnectError(`via SOCKS5 ${proxy.host}:${proxy.port}: ${message}`, kind);
    }
  };
}
