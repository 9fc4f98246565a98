import { z } from 'zod';
import { envInt } from '../env-types';

/** Live HLR providers Verity has an adapter for; `none` answers every HLR request with 503. */
export const HLR_PROVIDERS = ['none', 'hlr-lookups'] as const;

/** Phone engine settings (HLR provider). */
export const phoneSchema = z.object({
  HLR_PROVIDER: z.enum(HLR_PROVIDERS).default('none'),
  /** API root of the provider; the default is hlr-lookups.com's v2 API. */
  HLR_BASE_URL: z.url().default('https://www.hlr-lookups.com/api/v2'),
  HLR_API_KEY: z.string().min(1).optional(),
  HLR_API_SECRET: z.string().min(1).optional(),
  HLR_TIMEOUT_MS: envInt(5_000),
});

/** The phone section of the validated config (inject it with PHONE_CONFIG). */
export type PhoneConfig = z.infer<typeof phoneSchema>;

/** Rules that depend on the chosen HLR provider: its credentials are required only when chosen. */
export function refinePhone(cfg: PhoneConfig, ctx: z.RefinementCtx): void {
  if (cfg.HLR_PROVIDER !== 'hlr-lookups') return;
  for (const key of ['HLR_API_KEY', 'HLR_API_SECRET'] as const) {
    if (cfg[key] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: 'required when HLR_PROVIDER=hlr-lookups',
      });
    }
  }
}
