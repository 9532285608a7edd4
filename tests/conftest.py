import glob
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from distributions import write_distribution
from german_numbers import resolutions_speak_german  # noqa: F401  (autouse: every resolution's numbers are German)
from hypothesis import settings

# Derandomised: a failing example is the same on every run and machine.
settings.register_profile("rpgkernel", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("rpgkernel")


# -- what starts processes (the root conftest.py sends these tests out first) --

@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """The browser tests (JupyterLab in Chromium) and the server tests start processes: slow
    (``-m "not slow"`` leaves them out)."""
    for item in items:
        if (item.get_closest_marker("browser") or "lab" in getattr(item, "fixturenames", ())
                or item.nodeid.startswith("tests/server/")):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def own_library(tmp_path_factory, monkeypatch):
    """Every test keeps its library of figures in a folder of its own, never the user's."""
    from rpgkernel.library import ENV
    folder = tmp_path_factory.mktemp("bibliothek")
    monkeypatch.setenv(ENV, str(folder))
    return folder


@pytest.fixture(autouse=True)
def own_jupyter_dirs(tmp_path_factory, monkeypatch):
    """Every test keeps Jupyter's data and runtime folders (the registry of player links, kernels'
    connection files) in a folder of its own, never the user's, and apart from the tests running beside it."""
    folder = tmp_path_factory.mktemp("jupyter")
    for var, name in (("JUPYTER_DATA_DIR", "data"), ("JUPYTER_RUNTIME_DIR", "runtime")):
        monkeypatch.setenv(var, str(folder / name))
    return folder


@pytest.fixture
def add_ruleset(tmp_path_factory, monkeypatch):
    """Register a test's Ruleset subclasses as a package does: as entry points of a distribution in a
    temp folder put on sys.path for this test only (the registry finds it as it finds any other)."""
    def add(*classes):
        folder = tmp_path_factory.mktemp("regeln")
        write_distribution(folder, folder.name, {c.key: f"{c.__module__}:{c.__qualname__}" for c in classes})
        monkeypatch.syspath_prepend(str(folder))
    return add


@pytest.fixture(scope="module")
def shell():
    """A real IPython shell with the extension loaded (for magic tests)."""
    from IPython.core.interactiveshell import InteractiveShell
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "rpgkernel")
    yield ip
    ip.run_line_magic("unload_ext", "rpgkernel")


@pytest.fixture
def notebook(shell, tmp_path, monkeypatch):
    """The shell as a notebook in a fresh folder with a fresh session: ``run(cell)`` (doc_blocks.Notebook)."""
    from doc_blocks import Notebook
    from rpgkernel import session
    monkeypatch.chdir(tmp_path)
    session._current = None
    yield Notebook(shell)
    session.current().close_campaign()
    session._current = None


# -- one fresh environment per run (the root conftest.py runs the tests that use it in one worker) --

@pytest.fixture(scope="session")
def readme_project(tmp_path_factory) -> Path:
    """A fresh copy of the project in which the README's start command has installed, as a new user
    (home and Jupyter folders of their own) runs it, verbatim up to where it starts JupyterLab: its
    ``.venv`` holds rpgkernel (editable) with JupyterLab, everything from the index. Built once: the
    README walkthrough and the wheel's English round in JupyterLab both start from it."""
    from browser.readme_server import ReadmeServer, readme_install_command
    from project_copy import copy_project

    repo = copy_project(tmp_path_factory.mktemp("readme") / "repo")
    ReadmeServer(readme_install_command(), repo, tmp_path_factory.mktemp("user")).run()
    assert (repo / ".venv" / "bin" / "jupyter").exists()
    return repo


@pytest.fixture(scope="session")
def binder_env(tmp_path_factory) -> tuple[Path, Path, dict[str, str]]:
    """repo2docker's steps for ``binder/`` in a fresh virtual environment, on a fresh copy of the project:
    Binder's base packages (ipykernel, nbclient), ``pip install -r binder/requirements.txt`` at the repo
    root, ``binder/postBuild``. Built once: the Binder test and the ruleset package's test (which adds its
    package beside rpgkernel for its run) both start from it. The copy, the environment and its variables."""
    from fresh_venv import run, venv_env
    from project_copy import copy_project

    base = tmp_path_factory.mktemp("binder")
    repo, venv = copy_project(base / "repo"), base / "venv"
    env = venv_env(base, venv)
    python = venv / "bin" / "python"
    run(["git", "init", "-q", repo], timeout=60, env=env, cwd=base)   # Binder builds from a clone
    run([sys.executable, "-m", "venv", venv], timeout=300, env=env, cwd=base)
    run([python, "-m", "pip", "install", "ipykernel", "nbclient"], timeout=900, env=env, cwd=base)
    run([python, "-m", "pip", "install", "-r", "binder/requirements.txt"], timeout=900, env=env, cwd=repo)
    postbuild = repo / "binder" / "postBuild"
    postbuild.chmod(postbuild.stat().st_mode | 0o111)
    run(["./binder/postBuild"], timeout=120, env=env, cwd=repo)
    return repo, venv, env


# -- campaign stores: SQLite in tmp_path, PostgreSQL in a throwaway cluster --

PG_NOTE = ("install PostgreSQL (Debian: apt-get install postgresql) and psycopg "
           "(pip install 'rpgkernel[postgres]'); .ci/run does both")


def _pg_bindir() -> Path | None:
    found = glob.glob("/usr/lib/postgresql/*/bin/pg_ctl")
    if found:
        return Path(max(found, key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)).parent
    which = shutil.which("pg_ctl")
    return Path(which).parent if which else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _remove_in_background(folder: Path) -> None:
    """Delete ``folder`` in a process this run does not wait for. A cluster's folder holds a copy of the
    template per test database and what the store tests wrote (about 700 MB after the 67 PostgreSQL store
    tests): removing it took 8 s (load 2) to 45 s (load 4.5) where pg_ctl's stop takes 0.1 s, and up to
    91 s in a full run, charged to the last test of the worker that had the cluster. The shell returns at
    once; ``rm`` goes on alone (stdin and outputs are /dev/null) and ends by itself."""
    subprocess.run(["sh", "-c", 'rm -rf -- "$1" &', "sh", str(folder)], stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=60)


#: a throwaway cluster writes nothing through to the disk: the tests kill clients, never the server, so
#: what a commit made is seen all the same; a database created (a copy of its template) and the cluster's
#: removal at the end take a fifth and a fiftieth of the time
UNSYNCED = "-c fsync=off -c full_page_writes=off"


class PgCluster:
    """A PostgreSQL cluster in a temp dir, run by a non-root user, on a free port."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="rpgkernel-pg-"))
        self.data = self.root / "data"
        self.password = "geheim-" + secrets.token_hex(4)
        self.user = "rpg"
        self.port = 0
        self._as: dict = {}
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            import pwd
            nobody = pwd.getpwnam("nobody")
            os.chown(self.root, nobody.pw_uid, nobody.pw_gid)
            self._as = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
        self._count = 0

    def _run(self, *args: str) -> None:
        env = {"PATH": os.environ.get("PATH", ""), "LC_ALL": "C", "HOME": str(self.root)}
        done = subprocess.run([str(self.bindir / args[0]), *args[1:]], cwd=self.root, env=env,
                              capture_output=True, text=True, timeout=120, **self._as)
        if done.returncode:
            raise RuntimeError(f"{args[0]} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")

    def start(self) -> None:
        pwfile = self.root / "pw"
        pwfile.write_text(self.password + "\n")
        if self._as:
            os.chown(pwfile, self._as["user"], self._as["group"])
        self._run("initdb", "-D", str(self.data), "-U", self.user, f"--pwfile={pwfile}",
                  "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C",
                  "--no-sync")
        for attempt in range(5):
            self.port = _free_port()
            try:
                self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-w", "-t", "60",
                          "-o", f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 {UNSYNCED}",
                          "start")
                return
            except RuntimeError:
                if attempt == 4:
                    log = self.root / "log"
                    raise RuntimeError(log.read_text() if log.exists() else "no server log") from None

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            _remove_in_background(self.root)

    def url(self, db: str = "postgres") -> str:
        return f"postgresql://{self.user}:{self.password}@127.0.0.1:{self.port}/{db}"

    def new_database(self) -> str:
        """The URL of a fresh, empty database."""
        import psycopg
        self._count += 1
        name = f"t{self._count}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)


@pytest.fixture(scope="session")
def pg_cluster():
    def unavailable(reason: str):
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL store tests cannot run: {reason}; {PG_NOTE}", pytrace=False)
        pytest.skip(f"PostgreSQL store tests skipped: {reason}; {PG_NOTE}")

    try:
        import psycopg  # noqa: F401
    except ImportError:
        unavailable("psycopg is not installed")
    bindir = _pg_bindir()
    if bindir is None or not (bindir / "initdb").exists():
        unavailable("no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or on PATH")
    cluster = PgCluster(bindir)
    started = time.perf_counter()
    try:
        cluster.start()
    except Exception:
        shutil.rmtree(cluster.root, ignore_errors=True)
        raise
    cluster.startup_seconds = time.perf_counter() - started
    yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request) -> str:
    return request.param


@pytest.fixture
def target(backend, request, tmp_path) -> str:
    """Where a fresh store lives: a SQLite path or a PostgreSQL URL."""
    if backend == "sqlite":
        return str(tmp_path / "kampagne.sqlite")
    return request.getfixturevalue("pg_cluster").new_database()


@pytest.fixture
def two_mercenaries(tmp_path):
    """The ford with two mercenaries (``panel_driving.make_two_mercenaries``), for several attacks open at
    once."""
    from panel_driving import make_two_mercenaries

    c = make_two_mercenaries(tmp_path / "furt.sqlite")
    yield c
    c.close()
