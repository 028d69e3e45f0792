#!/bin/sh
# Runs once, when the primary's data directory is created: the standby may stream its WAL as
# the sdapi user, with its password, from the private network.
set -eu
echo "host replication sdapi all scram-sha-256" >> "$PGDATA/pg_hba.conf"
