import type { HlrResult, LineType } from '@verity/contracts';

/** Inputs of the phone quality score. */
export interface PhoneScoreInput {
  parsed: boolean;
  valid: boolean;
  line_type: LineType;
  carrier: string | null;
  hlr: HlrResult | null;
}

// Weights, documented in docs/models/phone.md. Offline tops out at 80 so that a live HLR
// "active" answer can lift the same number higher.
export const PHONE_SCORE_WEIGHTS = {
  unparseable: 0,
  invalid: 10,
  validBase: 50,
  lineType: { mobile: 25, landline: 20, unknown: 10, voip: -5, premium: -25 },
  carrierKnown: 5,
  hlrActive: 20,
  hlrUnavailable: 0,
  hlrInactiveCap: 15,
} as const satisfies {
  lineType: Record<LineType, number>;
  [k: string]: unknown;
};

/** 0–100 quality score of a phone number, higher is better. */
export function scorePhone(input: PhoneScoreInput): number {
  const w = PHONE_SCORE_WEIGHTS;
  if (!input.parsed) return w.unparseable;
  if (!input.valid) return w.invalid;
  let score = w.validBase + w.lineType[input.line_type];
  if (input.carrier !== null) score += w.carrierKnown;
  if (input.hlr !== null) {
    switch (input.hlr.status) {
      case 'active':
        score += w.hlrActive;
        break;
      case 'unavailable':
        score += w.hlrUnavailable;
        break;
      case 'inactive':
        score = Math.min(score, w.hlrInactiveCap);
        break;
    }
  }
  return Math.max(0, Math.min(100, Math.round(score)));
}
