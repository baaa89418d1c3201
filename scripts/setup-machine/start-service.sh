#!/usr/bin/env bash
# Starts the local PostgreSQL (127.0.0.1:5432, trust auth) or Redis (127.0.0.1:6379), installing it with apt when
# absent, and waits until it answers. Called by scripts/setup-machine/index.ts only when the service does not answer.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
apt_install() {
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

case "${1:-}" in
  postgres)
    if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then apt_install postgresql; fi
    version=$(ls /etc/postgresql | sort -V | tail -n 1)
    conf="/etc/postgresql/$version/main/pg_hba.conf"
    if ! grep -q '^host all all 127.0.0.1/32 trust' "$conf"; then
      $SUDO sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\nlocal all all trust' "$conf"
    fi
    $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main start || $SUDO pg_ctlcluster "$version" main start
    for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
    pg_isready -h 127.0.0.1 -p 5432
    ;;
  redis)
    if ! command -v redis-server >/dev/null 2>&1; then apt_install redis-server; fi
    $SUDO mkdir -p /var/lib/redis /var/log/redis
    $SUDO redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --maxmemory-policy noeviction --dir /var/lib/redis --logfile /var/log/redis/ci.log
    for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 1; done
    redis-cli -h 127.0.0.1 -p 6379 ping
    ;;
  *)
    echo "usage: $0 postgres|redis" >&2
    exit 2
    ;;
esac
