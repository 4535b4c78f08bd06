#!/bin/sh
# Starts redis-server with the password from the redis-auth Secret. The password goes into a
# file on an in-memory volume, not on the command line where `ps` would show it.
# Usage: start-redis.sh <redis.conf> [redis-server options...]
set -eu
: "${REDIS_PASSWORD:?REDIS_PASSWORD is empty: create the redis-auth Secret (bin/cluster-deploy.js does)}"
case "$REDIS_PASSWORD" in
  *[!A-Za-z0-9._~-]*)
    echo "start-redis: the password in redis-auth may only contain A-Z a-z 0-9 . _ ~ -" >&2
    exit 1
    ;;
esac
# REDIS_RUN_DIR: only for running this outside the pod (the tests); redis.conf includes the file.
run_dir=${REDIS_RUN_DIR:-/run/redis}
umask 077
printf 'requirepass %s\nmasterauth %s\n' "$REDIS_PASSWORD" "$REDIS_PASSWORD" >"$run_dir/auth.conf"
conf=$1
shift
exec redis-server "$conf" "$@"
