import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { KeyMode } from '@verity/contracts';

/**
 * A verify call of an account as its history keeps it (migration 1741000000000): the HMACs of
 * its values and what it scored. Written by libs/history's VerifyCallRepository.
 */
@Entity({ name: 'verify_calls' })
export class VerifyCallEntity {
  @PrimaryColumn({ name: 'request_id', type: 'uuid' })
  requestId!: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId!: string;

  @Column({ type: 'text' })
  mode!: KeyMode;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'email_hash', type: 'text', nullable: true })
  emailHash!: string | null;

  @Column({ name: 'phone_hash', type: 'text', nullable: true })
  phoneHash!: string | null;

  @Column({ name: 'ip_hash', type: 'text', nullable: true })
  ipHash!: string | null;

  @Column({ name: 'subnet_hash', type: 'text', nullable: true })
  subnetHash!: string | null;

  @Column({ name: 'fraud_score', type: 'smallint' })
  fraudScore!: number;

  @Column({ name: 'risk_reasons', type: 'text', array: true })
  riskReasons!: string[];

  @Column({ name: 'credit_reasons', type: 'text', array: true })
  creditReasons!: string[];
}
