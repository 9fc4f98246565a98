import type { ConsoleSessionView } from '@verity/contracts/console';

/** What every page gets from the shell. */
export interface PageProps {
  session: ConsoleSessionView;
  onSession: (session: ConsoleSessionView | undefined) => void;
}
