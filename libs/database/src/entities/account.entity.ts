import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A tenant. `credits_balance` is only changed together with a ledger entry. */
@Entity({ name: 'accounts' })
export class AccountEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({
    name: 'credits_balance',
    type: 'bigint',
    default: 0,
    transformer: { to: String, from: Number },
  })
  creditsBalance!: number;

  /** Per-account secret used to sign webhook deliveries. */
  @Column({ name: 'webhook_secret', type: 'text' })
  webhookSecret!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
