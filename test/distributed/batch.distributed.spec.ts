import { after, before, it } from 'node:test';
import {
  assertChargedOnceChunksExact,
  assertSameResult,
  distributedSuite,
  phoneInput,
  referenceResult,
  startCluster,
  submitAndFreezeMidJob,
  type Cluster,
} from './cluster';

distributedSuite('batch engine, distributed (api, ingest, 2 scorers as processes)', () => {
  let cluster: Cluster;

  before(async () => {
    cluster = await startCluster('distributed');
  });
  after(() => cluster?.close());

  it('completes byte-identically after kill -9 of a scorer and of ingest mid-job, charged once', async () => {
    const input = phoneInput();
    cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-a'));
    cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-b'));
    const expected = await referenceResult(cluster, input);

    // Same file again; the scorers are frozen and one is killed while the job is provably unfinished.
    const id = await submitAndFreezeMidJob(cluster, input);
    await cluster.scorers[0].kill9();
    // With no scorer running the job cannot finish: kill -9 the splitter/assembler too.
    await cluster.ingest.kill9();
    cluster.scorers[1].child.kill('SIGCONT');

    // Restart everything that died; redelivered chunks are scored again.
    cluster.ingest = await cluster.startWorker('ingest', 'ingest-2');
    cluster.scorers[0] = await cluster.startWorker('scorer', 'scorer-a2');
    await assertSameResult(cluster, id, expected);
    await assertChargedOnceChunksExact(cluster, id);
  });
});
