import { z } from 'zod';

/** Phone engine settings (HLR provider). */
export const phoneSchema = z.object({});
