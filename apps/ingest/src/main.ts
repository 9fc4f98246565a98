import 'reflect-metadata';
import { runWorker } from '@verity/batch';
import { IngestModule } from './ingest.module';

/** The ingest deployable (splitter + assembler + webhooks): `npm run start:ingest` (its node flags: docs/operations.md). */
runWorker('verity-ingest', [IngestModule], false);
