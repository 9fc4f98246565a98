import type { Session } from '../api';

/** What every page gets from the shell. */
export interface PageProps {
  session: Session;
  onSession: (session: Session | undefined) => void;
}
