/** An image the project builds from Debian packages on the host (debootstrap, then `docker import`). */
export interface ImageRecipe {
  name: 'runner' | 'redis' | 'postgres';
  description: string;
  suite: string;
  packages: string[];
  /** Dockerfile instructions given to `docker import --change` (an imported image has no Env, Cmd or User). */
  changes: string[];
  /** Files written into the root file system from the host after debootstrap (path → content and mode). */
  files?: Record<string, { content: string; mode: number }>;
  /** Paths removed from the root file system after debootstrap (what package scripts created and the image does not use). */
  remove?: string[];
}

const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The default runner image: what the example workflow and typical Python CI need (python3 with pytest, flake8, black,
 * isort, mypy; git; make), the shared libraries pyenv-built interpreters bound in from the host need, and a user
 * `runner` (uid 1001). JavaScript actions get Node.js 20 from the host, bind-mounted at /__e/node20 (GitHub's
 * runner does the same with its externals).
 */
export const RUNNER_RECIPE: ImageRecipe = {
  name: 'runner',
  description: 'Debian bookworm runner: bash, git, make, python3 (pytest, flake8, black, isort, mypy), curl',
  suite: 'bookworm',
  packages: [
    'bash', 'ca-certificates', 'git', 'make', 'procps', 'curl', 'netcat-openbsd', 'xz-utils', 'unzip', 'zstd',
    'python3', 'python3-pip', 'python3-venv', 'python-is-python3', 'python3-pytest', 'flake8', 'black', 'isort', 'mypy',
    'libssl3', 'libsqlite3-0', 'libffi8', 'zlib1g', 'libbz2-1.0', 'liblzma5', 'libreadline8', 'libncursesw6', 'libstdc++6', 'libgdbm6', 'libuuid1',
  ],
  changes: [`ENV PATH=${PATH}`, 'ENV LANG=C.UTF-8', 'CMD ["sleep","infinity"]'],
};

/** A Redis service image (the service container of the tests and of workflows using `redis:*`). */
export const REDIS_RECIPE: ImageRecipe = {
  name: 'redis',
  description: 'Debian bookworm redis-server, listening on 6379 without protected mode, no persistence',
  suite: 'bookworm',
  packages: ['redis-server', 'redis-tools'],
  changes: [`ENV PATH=${PATH}`, 'ENV LANG=C.UTF-8', 'EXPOSE 6379', 'CMD ["redis-server","--protected-mode","no","--save","","--appendonly","no","--bind","0.0.0.0"]'],
};

const PG_BIN = '/usr/lib/postgresql/15/bin';

/**
 * The entrypoint of the Postgres image: the official `postgres` image's variables (POSTGRES_PASSWORD, POSTGRES_USER,
 * POSTGRES_DB, POSTGRES_HOST_AUTH_METHOD, POSTGRES_INITDB_ARGS, PGDATA) on Debian's PostgreSQL 15. On first start it
 * runs initdb as `postgres` (password from a temporary file, never a command line), allows password logins from
 * any address, creates POSTGRES_DB in single-user mode, then runs the server as `postgres`.
 */
const POSTGRES_ENTRYPOINT = `#!/bin/sh
set -e
PGDATA="\${PGDATA:-/var/lib/postgresql/data}"
export PGDATA
POSTGRES_USER="\${POSTGRES_USER:-postgres}"
POSTGRES_DB="\${POSTGRES_DB:-$POSTGRES_USER}"
if [ "$(id -u)" = 0 ]; then
  as_pg() { setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; }
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
else
  as_pg() { "$@"; }
fi
if [ "$1" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  auth="\${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}"
  if [ -z "\${POSTGRES_PASSWORD:-}" ] && [ "$auth" != trust ]; then
    echo 'Error: Database is uninitialized and superuser password is not specified.' >&2
    echo '       Set POSTGRES_PASSWORD (or POSTGRES_HOST_AUTH_METHOD=trust) in the service env.' >&2
    exit 1
  fi
  pwfile=""
  if [ -n "\${POSTGRES_PASSWORD:-}" ]; then
    pwfile="$(mktemp)"
    printf '%s\\n' "$POSTGRES_PASSWORD" > "$pwfile"
    chown postgres "$pwfile" 2>/dev/null || true
  fi
  # shellcheck disable=SC2086
  as_pg initdb -D "$PGDATA" --username="$POSTGRES_USER" \${pwfile:+--pwfile="$pwfile"} --auth-local=trust --auth-host="$auth" \${POSTGRES_INITDB_ARGS:-} >/dev/null
  [ -z "$pwfile" ] || rm -f "$pwfile"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  echo "host all all all $auth" >> "$PGDATA/pg_hba.conf"
  if [ "$POSTGRES_DB" != postgres ]; then
    db="$(printf '%s' "$POSTGRES_DB" | sed 's/"/""/g')"
    printf 'CREATE DATABASE "%s";\\n' "$db" | as_pg postgres --single -j -D "$PGDATA" postgres >/dev/null
  fi
  echo "PostgreSQL init process complete; ready for start up."
fi
if [ "$(id -u)" = 0 ] && [ "$1" = postgres ]; then exec setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; fi
exec "$@"
`;

/**
 * A PostgreSQL 15 service image (the stand-in for `postgres:*` services): configured by the official image's
 * variables, `pg_isready` and `psql` on PATH for health checks and for `container:` jobs.
 */
export const POSTGRES_RECIPE: ImageRecipe = {
  name: 'postgres',
  description: 'Debian bookworm PostgreSQL 15 configured like the official image (POSTGRES_PASSWORD/USER/DB), pg_isready, psql',
  suite: 'bookworm',
  packages: ['postgresql-15', 'postgresql-client-15'],
  changes: [
    `ENV PATH=${PG_BIN}:${PATH}`, 'ENV LANG=C.UTF-8', 'ENV PGDATA=/var/lib/postgresql/data', 'EXPOSE 5432',
    'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]', 'CMD ["postgres"]',
  ],
  files: { '/usr/local/bin/docker-entrypoint.sh': { content: POSTGRES_ENTRYPOINT, mode: 0o755 } },
  remove: ['/var/lib/postgresql/15', '/etc/postgresql/15'],
};

export const RECIPES: readonly ImageRecipe[] = [RUNNER_RECIPE, REDIS_RECIPE, POSTGRES_RECIPE];
