import { z } from 'zod';

/** Email engine settings (DNS resolvers, SMTP probe, operator lists). */
export const emailSchema = z.object({});
