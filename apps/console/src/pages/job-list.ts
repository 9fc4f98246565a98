import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { BatchListStatus } from '@verity/contracts/batch';
import type { ConsoleBatchJob, ConsoleJob } from '@verity/contracts/console';
import { api } from '../api';

/** Jobs per request: the first page, and each "Load more". */
export const JOBS_PER_PAGE = 20;
/** The first refresh of running jobs; each next one waits twice as long, up to POLL_MS. */
const FIRST_POLL_MS = 250;
const POLL_MS = 3_000;

/** The Batch page's status filter: one of GET /batch's (`cancelled` included), or '' for all. */
export type StatusFilter = BatchListStatus | '';

export function isActive(job: ConsoleJob): boolean {
  return job.status === 'queued' || job.status === 'processing';
}

/**
 * The Batch page's jobs, newest first: the first page of `status`, more pages appended by
 * `more` (GET /batch's cursor), and every queued or processing row refreshed in place while
 * the page is open: 250 ms after the running set changed (a job was created or ended), then
 * twice as long each time, up to every 3 s. A small job ends within a second, so it reads Done
 * that soon instead of showing its first state for a whole 3 s. A job never goes back from
 * ended to running on screen, so a refresh answered late cannot undo a cancel.
 */
export function useJobList(status: StatusFilter) {
  const [jobs, setJobs] = useState<ConsoleBatchJob[] | undefined>(undefined);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  // Answers to a request made before the filter changed or the list was reloaded are dropped.
  const generation = useRef(0);

  const page = useCallback(
    (cursor: string | null) => {
      return api('jobs', {
        query: { limit: JOBS_PER_PAGE, status: status || undefined, cursor: cursor ?? undefined },
      });
    },
    [status],
  );

  const reload = useCallback(() => {
    const mine = ++generation.current;
    page(null)
      .then((first) => {
        if (mine !== generation.current) return;
        setJobs(first.data);
        setNext(first.next_cursor);
        setError(null);
      })
      .catch((err: unknown) => {
        if (mine === generation.current) setError(err);
      });
  }, [page]);

  useEffect(() => {
    setJobs(undefined);
    setNext(null);
    reload();
  }, [reload]);

  const more = () => {
    if (!next || loadingMore) return;
    const mine = generation.current;
    setLoadingMore(true);
    page(next)
      .then((older) => {
        if (mine !== generation.current) return;
        setJobs((shown) => [...(shown ?? []), ...older.data]);
        setNext(older.next_cursor);
        setError(null);
      })
      .catch((err: unknown) => {
        if (mine === generation.current) setError(err);
      })
      .finally(() => setLoadingMore(false));
  };

  const replace = useCallback((job: ConsoleBatchJob) => {
    setJobs((shown) =>
      shown?.map((j) => (j.id === job.id && !(isActive(job) && !isActive(j)) ? job : j)),
    );
  }, []);

  const refresh = useCallback(
    (id: string) =>
      api('job', { params: { jobId: id } })
        .then(replace)
        .catch((err: unknown) => setError(err)),
    [replace],
  );

  const running = (jobs ?? [])
    .filter(isActive)
    .map((j) => j.id)
    .join(' ');
  useEffect(() => {
    if (!running) return;
    let delay = FIRST_POLL_MS;
    const tick = () => {
      for (const id of running.split(' ')) void refresh(id);
      delay = Math.min(delay * 2, POLL_MS);
      timer = setTimeout(tick, delay);
    };
    let timer = setTimeout(tick, delay);
    return () => clearTimeout(timer);
  }, [running, refresh]);

  return { jobs, next, error, loadingMore, reload, more, replace, refresh };
}
