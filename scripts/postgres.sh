#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on loopback for the tests and prints its DATABASE_URL.
#   scripts/postgres.sh start [dir] [port]   (default /tmp/ramp-pg, 55432)
#   scripts/postgres.sh stop  [dir] [fast|immediate]   (immediate: as a crash, recovered at the next start)
#   scripts/postgres.sh socket-url [port]    the same server's URL through its Unix socket, for a
#                                            process in a network namespace of its own (test:fuzz)
set -euo pipefail
action=${1:-start}
dir=${2:-/tmp/ramp-pg}
default_port=55432
port=${3:-$default_port}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
# The folder of the server's Unix socket.
socket=/tmp
# As root, the server runs as postgres, from / : the clone's folder may be closed to that user,
# and pg_ctl would complain on stderr that it cannot change into it.
as_postgres() { if [ "$(id -u)" = 0 ]; then (cd / && su postgres -s /bin/bash -c "$*"); else bash -c "$*"; fi; }
case "$action" in
  start)
    if [ ! -f "$dir/PG_VERSION" ]; then
      mkdir -p "$dir"; [ "$(id -u)" = 0 ] && chown postgres "$dir"
      as_postgres "$bin/initdb -D '$dir' --auth=trust --username=postgres --encoding=UTF8 >/dev/null"
    fi
    as_postgres "$bin/pg_ctl -D '$dir' -o '-p $port -k $socket -c listen_addresses=127.0.0.1 -c fsync=off' -l '$dir/server.log' -w start >/dev/null"
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    mode=${3:-fast}
    case "$mode" in fast|immediate) ;; *) echo "stop mode: fast or immediate" >&2; exit 2 ;; esac
    as_postgres "$bin/pg_ctl -D '$dir' -m $mode -w stop >/dev/null" || true
    ;;
  socket-url)
    # `host` names the socket's folder; the host part is there for URL parsers that need one.
    echo "postgres://postgres@localhost:${2:-$default_port}/postgres?host=$socket"
    ;;
  *) echo "usage: $0 start|stop [dir] [port] | socket-url [port]" >&2; exit 2 ;;
esac
