#!/usr/bin/env bash
# Source me: `source scripts/infra/env.sh`. Connection settings for the services scripts/infra/up.sh
# starts (Kafka KRaft on 19092, S3Proxy on 19000) and the machine's PostgreSQL and Redis.
# INFRA_UP=1 tells integration tests that the real services are there (they skip without it).
export KAFKA_BROKERS=127.0.0.1:19092
export S3_ENDPOINT=http://127.0.0.1:19000
export S3_BUCKET=verity
export S3_ACCESS_KEY_ID=verity
export S3_SECRET_ACCESS_KEY=verity-secret-key
export S3_REGION=us-east-1
export S3_FORCE_PATH_STYLE=true
export REDIS_URL=redis://127.0.0.1:6379
export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test
export INFRA_UP=1
