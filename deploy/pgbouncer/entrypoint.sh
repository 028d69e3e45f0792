#!/bin/sh
# Writes PgBouncer's user list from the environment (never into the image), then runs it.
set -eu
mkdir -p /tmp/pgbouncer
umask 077
printf '"%s" "%s"\n' "sdapi" "${POSTGRES_PASSWORD:?}" > /tmp/pgbouncer/userlist.txt
exec pgbouncer /etc/pgbouncer/pgbouncer.ini
