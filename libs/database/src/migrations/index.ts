import { AccountsKeysLedger1732262400000 } from './1732262400000-accounts-keys-ledger';
import { BatchJobs1732348800000 } from './1732348800000-batch-jobs';
import { ConsoleUsage1733000000000 } from './1733000000000-console-usage';
import { BatchJobLifecycle1735100000000 } from './1735100000000-batch-job-lifecycle';
import { CreditLeases1736000000000 } from './1736000000000-credit-leases';
import { BatchAssemblyLease1737000000000 } from './1737000000000-batch-assembly-lease';
import { BatchStallRecoveries1738000000000 } from './1738000000000-batch-stall-recoveries';
import { BatchChunkProgress1739000000000 } from './1739000000000-batch-chunk-progress';
import { WebhookDeliveryTarget1739200000000 } from './1739200000000-webhook-delivery-target';
import { BatchJobFileName1739500000000 } from './1739500000000-batch-job-file-name';
import { TestMode1740000000000 } from './1740000000000-test-mode';
import { TestUsage1740100000000 } from './1740100000000-test-usage';
import { BatchInputFormat1740200000000 } from './1740200000000-batch-input-format';
import { BatchSmtpProbe1740350000000 } from './1740350000000-batch-smtp-probe';
import { RateLimitBuckets1740355000000 } from './1740355000000-rate-limit-buckets';
import { VerifyHistory1741000000000 } from './1741000000000-verify-history';
import { BatchEndEffects1741100000000 } from './1741100000000-batch-end-effects';
import { BatchPartialResult1741300000000 } from './1741300000000-batch-partial-result';
import { ApiKeyUniqueNames1741400000000 } from './1741400000000-api-key-unique-names';
import { BatchCountry1741500000000 } from './1741500000000-batch-country';
import { BatchSummary1741600000000 } from './1741600000000-batch-summary';

/** Every migration, oldest first. Applied at boot; `synchronize` is never used. */
export const MIGRATIONS = [
  AccountsKeysLedger1732262400000,
  BatchJobs1732348800000,
  ConsoleUsage1733000000000,
  BatchJobLifecycle1735100000000,
  CreditLeases1736000000000,
  BatchAssemblyLease1737000000000,
  BatchStallRecoveries1738000000000,
  BatchChunkProgress1739000000000,
  WebhookDeliveryTarget1739200000000,
  BatchJobFileName1739500000000,
  TestMode1740000000000,
  TestUsage1740100000000,
  BatchInputFormat1740200000000,
  BatchSmtpProbe1740350000000,
  RateLimitBuckets1740355000000,
  VerifyHistory1741000000000,
  BatchEndEffects1741100000000,
  BatchPartialResult1741300000000,
  ApiKeyUniqueNames1741400000000,
  BatchCountry1741500000000,
  BatchSummary1741600000000,
];
