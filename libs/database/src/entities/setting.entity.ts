import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An instance-wide setting every process must agree on (e.g. the generated signing secret). */
@Entity({ name: 'settings' })
export class SettingEntity {
  @PrimaryColumn({ type: 'text' })
  key!: string;

  @Column({ type: 'text' })
  value!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
