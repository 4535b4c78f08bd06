#!/bin/sh
# Forms the Redis Cluster from the StatefulSet's pods, once. Idempotent: when the cluster is
# already formed it only checks it, so the Job can run on every deploy.
# Environment: REDIS_NODES (space-separated host names), REDISCLI_AUTH (the password),
# CLUSTER_REPLICAS (replicas per primary, default 1), WAIT_SECONDS (default 600).
set -eu
port=6379
replicas=${CLUSTER_REPLICAS:-1}
deadline=$(($(date +%s) + ${WAIT_SECONDS:-600}))
set -- $REDIS_NODES
first=$1
count=$#

log() { echo "form-cluster: $*"; }
fail() {
  echo "form-cluster: $*" >&2
  exit 1
}
info() { redis-cli -h "$1" -p "$port" cluster info 2>/dev/null | tr -d '\r' | sed -n "s/^$2://p"; }
wait_until() {
  while ! "$@"; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "timed out waiting for: $*"
    sleep 2
  done
}
all_answer() {
  for n in $REDIS_NODES; do
    [ "$(redis-cli -h "$n" -p "$port" ping 2>/dev/null | tr -d '\r')" = PONG ] || return 1
  done
}
all_ok() {
  for n in $REDIS_NODES; do
    [ "$(info "$n" cluster_state)" = ok ] || return 1
    [ "$(info "$n" cluster_known_nodes)" = "$count" ] || return 1
  done
}

log "waiting for $count nodes to answer"
wait_until all_answer

if [ "$(info "$first" cluster_state)" = ok ]; then
  log "cluster already formed; waiting until every node agrees"
  wait_until all_ok
  redis-cli -h "$first" -p "$port" --cluster check "$first:$port"
  exit 0
fi

for n in $REDIS_NODES; do
  known=$(info "$n" cluster_known_nodes)
  [ "${known:-1}" -le 1 ] || fail "$n already knows $known nodes but the cluster is not ok: a partly formed cluster needs a look by hand (redis-cli --cluster check/fix), not a new create"
done

# redis-cli --cluster create wants addresses; each pod's DNS name resolves through the headless
# Service (publishNotReadyAddresses, so before readiness too).
addresses=
for n in $REDIS_NODES; do
  ip=$(getent hosts "$n" | awk '{ print $1; exit }')
  [ -n "$ip" ] || fail "cannot resolve $n"
  addresses="$addresses $ip:$port"
done
log "creating the cluster:$addresses (replicas per primary: $replicas)"
# shellcheck disable=SC2086
redis-cli --cluster create $addresses --cluster-replicas "$replicas" --cluster-yes
log "waiting until every node reports cluster_state:ok"
wait_until all_ok
redis-cli -h "$first" -p "$port" --cluster check "$first:$port"
log "done"
