import 'reflect-metadata';
import { runWorker } from '@verity/batch';
import { IngestModule } from './ingest.module';

/** The ingest deployable (splitter + assembler + webhooks): `node dist/apps/ingest/src/main.js`. */
runWorker('verity-ingest', [IngestModule], false);
