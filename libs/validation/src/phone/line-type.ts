import type { NumberType } from 'libphonenumber-js/max';
import type { LineType } from '@verity/contracts';

/**
 * Maps libphonenumber's number type to PhoneResult's line_type (docs/models/phone.md has the
 * table and the reasons). `hasRangeHolder` says whether Google's carrier data names a range
 * holder for the number; that data only covers mobile ranges, which settles the NANP
 * FIXED_LINE_OR_MOBILE ambiguity when it has an entry.
 */
export function mapLineType(type: NumberType, hasRangeHolder: boolean): LineType {
  switch (type) {
    case 'MOBILE':
    case 'PAGER':
      return 'mobile';
    case 'FIXED_LINE':
    case 'TOLL_FREE':
    case 'UAN':
      return 'landline';
    case 'VOIP':
    case 'PERSONAL_NUMBER':
      return 'voip';
    case 'PREMIUM_RATE':
    case 'SHARED_COST':
      return 'premium';
    case 'FIXED_LINE_OR_MOBILE':
      return hasRangeHolder ? 'mobile' : 'unknown';
    case 'VOICEMAIL':
    case undefined:
      return 'unknown';
  }
}
