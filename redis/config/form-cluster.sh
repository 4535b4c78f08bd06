#!/bin/sh
# Forms the Redis Cluster from the StatefulSet's pods, once. Idempotent: when the cluster is
# already formed it only checks it, so the Job can run on every deploy.
# Environment: REDIS_NODES (space-separated host or host:port, port 6379 by default),
# REDISCLI_AUTH (the password), CLUSTER_REPLICAS (replicas per primary, default 1),
# WAIT_SECONDS (default 600).
set -eu
replicas=${CLUSTER_REPLICAS:-1}
deadline=$(($(date +%s) + ${WAIT_SECONDS:-600}))
# shellcheck disable=SC2086
set -- $REDIS_NODES
first=$1
count=$#
primaries=$((count / (replicas + 1)))

log() { echo "form-cluster: $*"; }
fail() {
  echo "form-cluster: $*" >&2
  exit 1
}
host_of() { echo "${1%:*}"; }
port_of() { case "$1" in *:*) echo "${1##*:}" ;; *) echo 6379 ;; esac; }
cli() {
  node=$1
  shift
  redis-cli -h "$(host_of "$node")" -p "$(port_of "$node")" "$@"
}
info() { cli "$1" cluster info 2>/dev/null | tr -d '\r' | sed -n "s/^$2://p"; }
wait_until() {
  while ! "$@"; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "timed out waiting for: $*"
    sleep 2
  done
}
all_answer() {
  for n in $REDIS_NODES; do
    [ "$(cli "$n" ping 2>/dev/null | tr -d '\r')" = PONG ] || return 1
  done
}
# "<primaries> <replicas>" as one node sees the cluster.
roles() { cli "$1" cluster nodes 2>/dev/null | tr -d '\r' | awk '$3 ~ /master/ { m++ } $3 ~ /slave/ { s++ } END { print m + 0, s + 0 }'; }
# Done means every node agrees on state, membership and roles: a replica only counts once its
# primary accepted it, which gossip spreads a moment after the create.
all_ok() {
  for n in $REDIS_NODES; do
    [ "$(info "$n" cluster_state)" = ok ] || return 1
    [ "$(info "$n" cluster_known_nodes)" = "$count" ] || return 1
    [ "$(roles "$n")" = "$primaries $((count - primaries))" ] || return 1
  done
}
check() { cli "$first" --cluster check "$(host_of "$first"):$(port_of "$first")"; }
# redis-cli --cluster create and CLUSTER MEET want addresses; each pod's DNS name resolves through
# the headless Service (publishNotReadyAddresses, so before readiness too).
ip_of() {
  ip=$(getent hosts "$(host_of "$1")" | awk '{ print $1; exit }')
  [ -n "$ip" ] || fail "cannot resolve $(host_of "$1")"
  echo "$ip"
}

# Does every node know every other by its ID at its current address?
all_current() {
  for m in $REDIS_NODES; do
    id=$(cli "$m" cluster myid 2>/dev/null | tr -d '\r')
    at="$(ip_of "$m"):$(port_of "$m")@"
    for n in $REDIS_NODES; do
      cli "$n" cluster nodes 2>/dev/null | grep -q "^$id $at" || return 1
    done
  done
}

log "waiting for $count nodes to answer"
wait_until all_answer

# How many nodes each node knows: 1 everywhere = never formed; all everywhere = formed before.
fresh=0
formed=0
for n in $REDIS_NODES; do
  known=$(info "$n" cluster_known_nodes)
  if [ "${known:-1}" -le 1 ]; then
    fresh=$((fresh + 1))
  elif [ "$known" = "$count" ]; then
    formed=$((formed + 1))
  fi
done

if [ "$formed" = "$count" ]; then
  if ! all_current; then
    # Every node remembers the others, but at addresses that changed when the pods were
    # rescheduled together (swapped among them, often). A MEET at the current address makes a
    # node re-learn a known peer. Not all_ok: just after a restart it still holds until the
    # nodes time each other out.
    log "cluster formed before, at other addresses (pods moved): introducing the nodes at their current addresses"
    for n in $REDIS_NODES; do
      for m in $REDIS_NODES; do
        [ "$n" = "$m" ] || cli "$n" cluster meet "$(ip_of "$m")" "$(port_of "$m")" >/dev/null
      done
    done
  fi
  log "cluster formed; waiting until every node agrees"
  wait_until all_current
  wait_until all_ok
  check
  exit 0
fi
[ "$fresh" = "$count" ] || fail "the cluster is partly formed ($formed of $count nodes know all the others, $fresh know none): it needs a look by hand (redis-cli --cluster check/fix), not a new create"

addresses=
for n in $REDIS_NODES; do
  addresses="$addresses $(ip_of "$n"):$(port_of "$n")"
done
log "creating the cluster:$addresses (replicas per primary: $replicas)"
# shellcheck disable=SC2086
redis-cli --cluster create $addresses --cluster-replicas "$replicas" --cluster-yes
log "waiting until every node reports cluster_state:ok"
wait_until all_ok
check
log "done"
