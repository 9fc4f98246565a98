import { z } from 'zod';

/** IP engine settings (MMDB paths, open-data directory). */
export const ipSchema = z.object({});
