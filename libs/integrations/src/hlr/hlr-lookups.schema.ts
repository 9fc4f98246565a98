import { z } from 'zod';

// Response of POST /api/v2/hlr-lookup at hlr-lookups.com (vmgltd), as documented in its API
// docs and official SDK READMEs. Only the fields we read are checked; the rest may vary.
export const HLR_LOOKUPS_CONNECTIVITY = [
  'CONNECTED', // valid number, handset attached to the network
  'ABSENT', // valid number, handset switched off or out of reach
  'INVALID_MSISDN', // not assigned to any subscriber
  'UNDETERMINED', // the network could not be asked / gave no answer
] as const;

const nullableName = z.string().nullable().optional();

export const hlrLookupsResponseSchema = z.object({
  id: z.string().optional(),
  msisdn: z.string().optional(),
  connectivity_status: z.enum(HLR_LOOKUPS_CONNECTIVITY),
  original_network_name: nullableName,
  ported_network_name: nullableName,
  roaming_network_name: nullableName,
  is_ported: z.boolean().nullable().optional(),
  is_roaming: z.boolean().nullable().optional(),
  // COMPLETED, or REJECTED / FAILED when the platform could not process the lookup.
  processing_status: z.string().optional(),
  error_code: z.union([z.number(), z.string()]).nullable().optional(),
  data_source: z.string().nullable().optional(),
});

export type HlrLookupsResponse = z.infer<typeof hlrLookupsResponseSchema>;
