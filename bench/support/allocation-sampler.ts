import { Session } from 'node:inspector/promises';
import { frameLabel } from './cpu-profile.summary';
import type { AllocationSite } from './server-protocol';

/** The sampling heap profile's node, as the inspector protocol sends it. */
interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

/**
 * V8's sampling heap profiler inside a benchmark server, counting what was allocated and
 * collected again too (a request's garbage is what the scavenger pays for), not only what
 * survives. One sample per 1 KiB allocated on average: unbiased, the figures are estimates.
 */
export class AllocationSampler {
  private readonly session = new Session();

  async start(): Promise<void> {
    this.session.connect();
    await this.session.post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }

  /** Stops sampling: the bytes allocated since `start`, and where, by function. */
  async stop(): Promise<{ bytes: number; sites: AllocationSite[] }> {
    const { profile } = (await this.session.post('HeapProfiler.stopSampling')) as {
      profile: { head: SamplingNode };
    };
    this.session.disconnect();
    const bySite = new Map<string, number>();
    let bytes = 0;
    const visit = (node: SamplingNode): void => {
      if (node.selfSize > 0) {
        const site = frameLabel(node.callFrame);
        bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
        bytes += node.selfSize;
      }
      for (const child of node.children) visit(child);
    };
    visit(profile.head);
    const sites = [...bySite]
      .map(([site, siteBytes]) => ({ site, bytes: siteBytes }))
      .sort((a, b) => b.bytes - a.bytes);
    return { bytes, sites };
  }
}
