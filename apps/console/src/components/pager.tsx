import { useState } from 'preact/hooks';

/** Cursor paging, newest first: the `before` of each page visited, so Newer goes back. */
export function useCursors() {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return {
    before: cursors[cursors.length - 1],
    newer: cursors.length > 1 ? () => setCursors(cursors.slice(0, -1)) : null,
    older: (next: string) => setCursors([...cursors, next]),
    reset: () => setCursors([null]),
  };
}

/** Newer / Older buttons; `next` is the older page's cursor, null on the last page. */
export function Pager({
  pages,
  next,
}: {
  pages: ReturnType<typeof useCursors>;
  next: string | null | undefined;
}) {
  return (
    <div class="pager">
      <button type="button" disabled={!pages.newer} onClick={() => pages.newer?.()}>
        Newer
      </button>
      <button type="button" disabled={!next} onClick={() => next && pages.older(next)}>
        Older
      </button>
    </div>
  );
}
