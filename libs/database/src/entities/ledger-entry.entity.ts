import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One append-only credit movement (negative = debit). A trigger forbids UPDATE and DELETE. */
@Entity({ name: 'credit_ledger' })
export class LedgerEntryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId!: string;

  @Column({ type: 'bigint', transformer: { to: String, from: Number } })
  delta!: number;

  @Column({ type: 'text' })
  reason!: string;

  @Column({ type: 'text', nullable: true })
  reference!: string | null;

  /** The API key the movement is charged to (null: grants, top-ups, console work). */
  @Column({ name: 'key_id', type: 'uuid', nullable: true })
  keyId!: string | null;

  @Column({ name: 'balance_after', type: 'bigint', transformer: { to: String, from: Number } })
  balanceAfter!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
