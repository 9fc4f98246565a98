import { z } from 'zod';
import { coreSchema } from './sections/core.config';
import { emailSchema } from './sections/email.config';
import { smtpSchema } from './sections/smtp.config';
import { phoneSchema, refinePhone } from './sections/phone.config';
import { ipSchema } from './sections/ip.config';
import { batchSchema, refineBatch } from './sections/batch.config';
import { consoleSchema } from './sections/console.config';
import { creditsSchema } from './sections/credits.config';
import { httpLimitsSchema } from './sections/http-limits.config';
import { historySchema } from './sections/history.config';

/** Every setting Verity reads, keyed by its environment variable name. */
export const configSchema = coreSchema
  .extend(emailSchema.shape)
  .extend(smtpSchema.shape)
  .extend(phoneSchema.shape)
  .extend(ipSchema.shape)
  .extend(batchSchema.shape)
  .extend(consoleSchema.shape)
  .extend(creditsSchema.shape)
  .extend(httpLimitsSchema.shape)
  .extend(historySchema.shape)
  .superRefine((config, ctx) => {
    refineBatch(config, ctx);
    refinePhone(config, ctx);
  });

export type AppConfig = z.infer<typeof configSchema>;
