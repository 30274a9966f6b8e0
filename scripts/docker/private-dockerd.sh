#!/usr/bin/env bash
# A Docker engine of our own (Debian's docker.io), apart from any system one: its data, run state,
# socket and pid file all live under one directory, so starting and stopping it touches nothing
# else. scripts/fresh-machine-test.sh uses it; nothing else in the project needs Docker.
#
#   scripts/docker/private-dockerd.sh start [DIR]   starts it (unless running) and prints
#                                                    DOCKER_HOST=unix://DIR/docker.sock
#   scripts/docker/private-dockerd.sh stop [DIR]    stops the one started there, by its pid
#
# DIR defaults to /var/tmp/svc-dockerd. Needs root (dockerd does).
set -euo pipefail
cmd="${1:-}"
dir="${2:-/var/tmp/svc-dockerd}"
sock="$dir/docker.sock"
pidfile="$dir/dockerd.pid"
log="$dir/dockerd.log"

hoststate="$dir/host-firewall.state"

running() { [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }

# dockerd changes the host: it sets iptables' FORWARD policy to DROP and loads bridge netfilter
# (net.bridge.bridge-nf-call-ip(6)tables=1), after which traffic across any Linux bridge passes
# iptables and is dropped, breaking the network-namespace twin (make cluster, test/cluster/).
# What it changes is recorded before it starts and put back after it stops.
save_host_state() {
  {
    echo "forward=$(iptables -S FORWARD 2>/dev/null | awk '$1 == "-P" { print $3 }')"
    echo "nf4=$(sysctl -n net.bridge.bridge-nf-call-iptables 2>/dev/null || echo absent)"
    echo "nf6=$(sysctl -n net.bridge.bridge-nf-call-ip6tables 2>/dev/null || echo absent)"
    echo "docker0=$(ip link show docker0 >/dev/null 2>&1 && echo present || echo absent)"
    echo "chains=$(iptables -S 2>/dev/null | grep -c '^-N DOCKER' || true)"
  } >"$hoststate"
}

# What dockerd adds and leaves behind when it stops: the docker0 bridge, its DOCKER* chains in
# the filter and nat tables and the rules that jump to them (or masquerade docker0's subnet).
# Removed only when the host had none of them before (the host's own Docker keeps its own).
remove_docker_network() {
  local table rule chain
  for table in filter nat; do
    iptables -t "$table" -S 2>/dev/null | grep -E '^-A [A-Z]+ .*(-j DOCKER|docker0)' | grep -v '^-A DOCKER' |
      while IFS= read -r rule; do
        # shellcheck disable=SC2086 # the rule's words as iptables printed them
        iptables -t "$table" ${rule/-A /-D } 2>/dev/null || true
      done
    for chain in $(iptables -t "$table" -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^DOCKER/ { print $2 }'); do
      iptables -t "$table" -F "$chain" 2>/dev/null || true
    done
    for chain in $(iptables -t "$table" -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^DOCKER/ { print $2 }'); do
      iptables -t "$table" -X "$chain" 2>/dev/null || true
    done
  done
  ip link delete docker0 2>/dev/null || true
}
restore_host_state() {
  [ -f "$hoststate" ] || return 0
  local forward nf4 nf6
  forward="$(sed -n 's/^forward=//p' "$hoststate")"
  nf4="$(sed -n 's/^nf4=//p' "$hoststate")"
  nf6="$(sed -n 's/^nf6=//p' "$hoststate")"
  if [ "$(sed -n 's/^docker0=//p' "$hoststate")" = absent ] && [ "$(sed -n 's/^chains=//p' "$hoststate")" = 0 ]; then
    remove_docker_network
  fi
  if [ -n "$forward" ]; then iptables -P FORWARD "$forward" 2>/dev/null || true; fi
  # Absent before: the module was not loaded; turning its hooks off is as close as we get.
  [ "$nf4" = absent ] && nf4=0
  [ "$nf6" = absent ] && nf6=0
  sysctl -qw "net.bridge.bridge-nf-call-iptables=$nf4" "net.bridge.bridge-nf-call-ip6tables=$nf6" 2>/dev/null || true
  rm -f "$hoststate"
}

case "$cmd" in
  start)
    if [ "$(id -u)" -ne 0 ]; then echo "private-dockerd.sh: dockerd needs root" >&2; exit 1; fi
    if ! command -v dockerd >/dev/null; then
      echo "installing Debian's docker.io (dockerd)" >&2
      export DEBIAN_FRONTEND=noninteractive
      { apt-get update -qq && apt-get install -y -qq --no-install-recommends docker.io; } >/dev/null
    fi
    mkdir -p "$dir/data" "$dir/exec"
    if ! running; then
      save_host_state
      # setsid: the engine outlives the shell that started it and is not in its process group.
      setsid dockerd --data-root "$dir/data" --exec-root "$dir/exec" -H "unix://$sock" \
        --pidfile "$pidfile" >"$log" 2>&1 </dev/null &
      # Ready when the API answers on its socket (dockerd writes its pid file before that).
      for _ in $(seq 1 120); do
        if DOCKER_HOST="unix://$sock" docker version >/dev/null 2>&1; then break; fi
        sleep 0.5
      done
      if ! DOCKER_HOST="unix://$sock" docker version >/dev/null 2>&1; then
        echo "private-dockerd.sh: dockerd did not answer on $sock; its log ($log):" >&2
        tail -n 20 "$log" >&2
        exit 1
      fi
    fi
    echo "DOCKER_HOST=unix://$sock"
    ;;
  stop)
    if running; then
      pid="$(cat "$pidfile")"
      kill "$pid"
      # dockerd stops its containers and its containerd first; wait for it, at most 60 s.
      for _ in $(seq 1 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      if kill -0 "$pid" 2>/dev/null; then echo "private-dockerd.sh: dockerd $pid still running" >&2; exit 1; fi
      echo "dockerd $pid stopped" >&2
    fi
    restore_host_state
    ;;
  *)
    echo "usage: scripts/docker/private-dockerd.sh start|stop [DIR]" >&2
    exit 2
    ;;
esac
