#!/bin/sh
# The streaming standby: on an empty data directory, copies the primary (pg_basebackup -R writes
# the settings that make it follow the primary), then runs PostgreSQL as a hot standby that
# answers reads. Its cluster_name is the name synchronous_standby_names refers to.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  PGPASSWORD="${POSTGRES_PASSWORD:?}" pg_basebackup -h postgres -p 5432 -U sdapi -D "$PGDATA" -R -X stream
  chmod 700 "$PGDATA"
fi
exec postgres -c cluster_name=standby1 -c hot_standby=on
