import { readFile } from 'node:fs/promises';

/**
 * TCP segments the kernel has retransmitted so far (RetransSegs of /proc/net/snmp), or null
 * where that file does not exist. On loopback a retransmission waits for the minimum RTO
 * (200 ms on Linux), so one during a latency run shows as a ~200 ms tail that no server
 * stall caused: the benchmark prints the count next to the percentiles.
 */
export async function tcpRetransmits(): Promise<number | null> {
  const text = await readFile('/proc/net/snmp', 'utf8').catch(() => null);
  if (text === null) return null;
  const [names, values] = text.split('\n').filter((line) => line.startsWith('Tcp:'));
  const column = names?.split(/\s+/).indexOf('RetransSegs') ?? -1;
  if (column < 0 || values === undefined) return null;
  return Number(values.split(/\s+/)[column]);
}
