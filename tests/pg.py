"""A throwaway PostgreSQL server for the tests that need one (the PostgreSQL event store; the table
server's tests too). ``tests/conftest.py`` offers its fixtures to the whole suite:

* ``postgres_server`` (one per test session): ``initdb`` into a new temporary folder, then ``pg_ctl
  start`` listening on a free port of 127.0.0.1 only (no Unix socket), password login, ``fsync``
  off (a test server needs no durability); stopped and deleted at the end of the session.
* ``postgres_dsn``: a new, empty database on it for one test, as a ``postgresql://`` URI; dropped
  after the test.

The binaries are found through ``pg_config --bindir``, ``PATH``, then ``/usr/lib/postgresql/*/bin``
(Debian's ``postgresql`` package, which ``.ci/run`` installs). PostgreSQL refuses to run as root,
so as root the server runs as the system user ``postgres`` (created if missing) through ``runuser``.
Without the binaries or psycopg, or when the server does not start, the tests that use these
fixtures skip and say why.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["PostgresServer", "Unavailable", "find_bindir", "free_port", "postgres_dsn", "postgres_server",
           "start_server"]

USER = "postgres"  # the database's superuser, and the system user the server runs as under root


class Unavailable(Exception):
    """No PostgreSQL server can be started here; the message says why."""


def find_bindir() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``; :class:`Unavailable` if there is none."""
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        done = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False)
        if done.returncode == 0:
            candidates.append(Path(done.stdout.strip()))
    if shutil.which("initdb") and shutil.which("pg_ctl"):
        candidates.append(Path(shutil.which("pg_ctl") or "").resolve().parent)
    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                                           key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit()
                                           else 0, reverse=True)]
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    raise Unavailable("no PostgreSQL server binaries (initdb, pg_ctl): install Debian's postgresql package")


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on (now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """A running throwaway server: :meth:`dsn` for a database on it, :meth:`create_database` for a new one."""

    def __init__(self, bindir: Path, folder: Path, port: int, password: str, as_user: list[str]) -> None:
        self.bindir = bindir
        self.folder = folder
        self.data = folder / "data"
        self.port = port
        self.password = password
        self._as_user = as_user
        self._names = itertools.count(1)

    def dsn(self, database: str = "postgres") -> str:
        """A ``postgresql://`` URI for ``database`` on this server, as its superuser."""
        return f"postgresql://{USER}:{self.password}@127.0.0.1:{self.port}/{database}"

    def execute(self, statement: str, dsn: str | None = None) -> None:
        """Run one statement as the superuser, outside a transaction, on the database ``dsn``
        names (by default the ``postgres`` database)."""
        import psycopg

        with psycopg.connect(dsn or self.dsn(), autocommit=True) as db:
            db.execute(statement)

    def create_database(self) -> str:
        """A new, empty database: its URI."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        self.execute(f"CREATE DATABASE {name}")
        return self.dsn(name)

    def drop_database(self, dsn: str) -> None:
        """Drop a database :meth:`create_database` made, closing what is still connected to it."""
        self.execute(f"DROP DATABASE IF EXISTS {dsn.rsplit('/', 1)[1]} WITH (FORCE)")

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        """A PostgreSQL program of the server's (as the server's system user)."""
        return subprocess.run([*self._as_user, str(self.bindir / args[0]), *args[1:]], capture_output=True,
                              text=True, check=False, cwd=self.folder, timeout=120)

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete its folder."""
        try:
            self.run("pg_ctl", "stop", "-D", str(self.data), "-m", "fast", "-w", "-t", "60")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def start_server() -> PostgresServer:
    """initdb and start a server on a free loopback port; :class:`Unavailable` says why it cannot."""
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        raise Unavailable(f"psycopg is not installed ({exc}): pip install cardgame[postgres]") from None
    bindir = find_bindir()
    as_user: list[str] = []
    owner: pwd.struct_passwd | None = None
    if os.geteuid() == 0:  # PostgreSQL will not run as root
        runuser = shutil.which("runuser")
        if runuser is None:
            raise Unavailable("running as root and there is no runuser to start PostgreSQL as another user")
        try:
            owner = pwd.getpwnam(USER)
        except KeyError:
            made = subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
                                  capture_output=True, text=True, check=False)
            if made.returncode != 0:
                raise Unavailable(f"running as root and cannot create the user {USER!r}: "
                                  f"{made.stderr.strip()}") from None
            owner = pwd.getpwnam(USER)
        as_user = [runuser, "-u", USER, "--"]
    # as root, in /tmp: the server's user must reach it (a TMPDIR under /root would not do)
    folder = Path(tempfile.mkdtemp(prefix="cardgame-pg-", dir="/tmp" if owner is not None else None))
    password = secrets.token_hex(16)
    try:
        (folder / "password").write_text(password + "\n", encoding="ascii")
        if owner is not None:
            for path in (folder, folder / "password"):
                os.chown(path, owner.pw_uid, owner.pw_gid)
        server = PostgresServer(bindir, folder, 0, password, as_user)
        done = server.run("initdb", "-D", str(server.data), "-U", USER, "--pwfile", str(folder / "password"),
                          "--auth", "scram-sha-256", "-E", "UTF8", "--locale", "C", "--no-sync")
        if done.returncode != 0:
            raise Unavailable(f"initdb failed: {(done.stderr or done.stdout).strip()[-800:]}")
        log = folder / "server.log"
        for _ in range(3):  # another process may take the free port first
            server.port = free_port()
            options = (f"-c listen_addresses=127.0.0.1 -p {server.port} -c unix_socket_directories='' "
                       "-c fsync=off -c full_page_writes=off -c max_connections=100")
            done = server.run("pg_ctl", "start", "-D", str(server.data), "-l", str(log), "-w", "-t", "60",
                              "-o", options)
            if done.returncode == 0:
                return server
        shown = log.read_text(encoding="utf-8", errors="replace")[-800:] if log.exists() else done.stderr
        raise Unavailable(f"pg_ctl start failed: {shown.strip()}")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the whole session (the tests that use it skip where none can start)."""
    try:
        server = start_server()
    except (Unavailable, OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"no PostgreSQL server: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_dsn(postgres_server: PostgresServer) -> Iterator[str]:
    """A new, empty database for one test: its ``postgresql://`` URI (with the password)."""
    dsn = postgres_server.create_database()
    yield dsn
    postgres_server.drop_database(dsn)
