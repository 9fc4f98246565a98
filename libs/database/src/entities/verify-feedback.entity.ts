import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { FeedbackOutcome, KeyMode } from '@verity/contracts';

/**
 * An outcome an account reported (migration 1741000000000): of a verify call (`request_id`,
 * one row per call, the latest outcome) or of values (no request_id). Written by libs/history's
 * VerifyFeedbackRepository.
 */
@Entity({ name: 'verify_feedback' })
export class VerifyFeedbackEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId!: string;

  @Column({ type: 'text' })
  mode!: KeyMode;

  @Column({ name: 'request_id', type: 'uuid', nullable: true })
  requestId!: string | null;

  @Column({ type: 'text' })
  outcome!: FeedbackOutcome;

  @Column({ name: 'email_hash', type: 'text', nullable: true })
  emailHash!: string | null;

  @Column({ name: 'phone_hash', type: 'text', nullable: true })
  phoneHash!: string | null;

  @Column({ name: 'ip_hash', type: 'text', nullable: true })
  ipHash!: string | null;

  @Column({ name: 'subnet_hash', type: 'text', nullable: true })
  subnetHash!: string | null;

  @Column({ name: 'reported_at', type: 'timestamptz', default: () => 'now()' })
  reportedAt!: Date;
}
