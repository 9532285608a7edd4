"""No password in any message, repr, journal entry or saved output, for every shape of address.

Real errors: a closed port, the throwaway cluster (wrong password, unknown database), a socket that is
not there, an unknown host, libpq's own parse errors; each message (and every exception it chains)
is scanned for the password and for each piece of it.
"""

import socket
import subprocess
import sys
from urllib.parse import quote

import pytest
from IPython.utils.capture import capture_output

from rpgkernel import magics, session
from rpgkernel.errors import RpgError, StoreError
from rpgkernel.state import Campaign, open_store
from rpgkernel.state.address import ambiguous, secrets, shown

pytest.importorskip("psycopg")

HEAD, TAIL = "Qx9", "Zq7x"  # the password is HEAD + one special character + TAIL
SPECIAL = "/#?@:%&= +'\"\\"
SHAPES = {
    "closed port": "postgresql://rpg:{p}@127.0.0.1:{closed}/rpg",
    "postgres scheme": "postgres://rpg:{p}@127.0.0.1:{closed}/rpg",
    "server": "postgresql://rpg:{p}@127.0.0.1:{port}/postgres",
    "query": "postgresql://rpg@127.0.0.1:{port}/postgres?password={p}",
    "query among others": "postgresql://rpg@127.0.0.1:{port}/postgres?sslmode=disable&password={p}&connect_timeout=5",
    "query upper case": "postgresql://rpg@127.0.0.1:{closed}/postgres?PASSWORD={p}",
    "socket host": "postgresql://rpg:{p}@%2Ftmp%2Fkein-server/postgres",
    "socket in query": "postgresql:///postgres?host=/tmp/kein-server&user=rpg&password={p}",
    "several hosts": "postgresql://rpg:{p}@127.0.0.1:{closed},127.0.0.1:{port}/postgres",
    "missing host": "postgresql://rpg:{p}@/postgres",
    "missing host and port": "postgresql://rpg:{p}@:{closed}/postgres",
    "wrong port": "postgresql://rpg:{p}@127.0.0.1:kein-port/postgres",
    "unknown host": "postgresql://rpg:{p}@rechner.invalid/postgres",
    "bad ipv6": "postgresql://rpg:{p}@[::1/postgres",
    "unknown parameter": "postgresql://rpg:{p}@127.0.0.1:{closed}/postgres?sslmod=x",
    "unknown scheme": "mysql://rpg:{p}@127.0.0.1/rpg",
    "conninfo as path": "host=127.0.0.1 port={closed} user=rpg password={p}",
}


@pytest.fixture(scope="module")
def closed_port():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pieces(password):
    """Every spelling of the password and each piece of it a misread URL could put elsewhere."""
    return {password, quote(password), quote(password, safe=""), HEAD, TAIL}


def leaks(text, password):
    return sorted(p for p in pieces(password) if p in text)


def chain(err):
    """The error and everything it chains (a notebook's traceback or a log could show them)."""
    seen = []
    while err is not None and err not in seen:
        seen.append(err)
        err = err.__cause__ or err.__context__
    return seen


def failure(url):
    with pytest.raises(RpgError) as err:
        open_store(url, connect_timeout=3)
    texts = [text for e in chain(err.value) for text in (str(e), repr(e))]
    return "\n".join(texts), err.value


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("spelling", ["raw", "encoded"])
def test_no_shape_of_address_shows_the_password(pg_cluster, closed_port, shape, spelling):
    for char in SPECIAL:
        password = HEAD + char + TAIL
        p = password if spelling == "raw" else quote(password, safe="")
        url = SHAPES[shape].format(p=p, port=pg_cluster.port, closed=closed_port)
        text, err = failure(url)
        assert isinstance(err, StoreError) and not leaks(text, password), (url, text)
        assert not leaks(shown(url), password), url
        assert "Traceback" not in text and "\n" not in str(err), text


def test_the_reasons_are_german_and_name_what_is_safe(pg_cluster, closed_port):
    p = quote(HEAD + "@" + TAIL, safe="")
    cases = {
        f"postgresql://rpg:{p}@127.0.0.1:{closed_port}/rpg":
            f"Keine Verbindung zur PostgreSQL-Datenbank postgresql://rpg@127.0.0.1:{closed_port}/rpg: "
            "der Server nimmt keine Verbindung an (läuft PostgreSQL dort, stimmt der Port?)",
        f"postgresql://rpg:{p}@127.0.0.1:{pg_cluster.port}/postgres":
            "der Benutzer 'rpg' oder sein Passwort wird nicht angenommen",
        f"postgresql://rpg@127.0.0.1:{pg_cluster.port}/postgres":
            "der Server verlangt ein Passwort, die Adresse enthält keines",
        pg_cluster.url("gibtsnicht"): "die Datenbank 'gibtsnicht' gibt es auf dem Server nicht",
        f"postgresql://rpg:{p}@rechner.invalid/postgres": "der Rechner 'rechner.invalid' ist unbekannt",
        f"postgresql://rpg:{p}@%2Ftmp%2Fkein-server/postgres": "an diesem Unix-Socket läuft kein PostgreSQL-Server",
        f"postgresql://rpg:{p}@127.0.0.1:kein-port/postgres": "der Port 'kein-port' ist keine Zahl",
        f"postgresql://rpg:{p}@[::1/postgres": "einer IPv6-Adresse fehlt die schließende ]",
        f"postgresql://rpg:{p}@127.0.0.1/postgres?sslmod=x": "den Parameter 'sslmod' kennt PostgreSQL nicht",
        "postgresql://rpg:100%sicher@127.0.0.1/postgres": "auf ein % folgen keine zwei Hex-Ziffern",
        f"postgresql://rpg:{HEAD}@{TAIL}@127.0.0.1/postgres": "lässt sich nicht eindeutig lesen",
        f"postgresql://rpg:{HEAD}/{TAIL}@127.0.0.1/postgres": "@ als %40, / als %2F",
    }
    for url, expected in cases.items():
        text, err = failure(url)
        assert expected in str(err), (url, str(err))
        for english in ("failed", "refused", "authentication", "does not exist", "invalid", "resolve"):
            assert english not in str(err).replace("rechner.invalid", ""), (url, str(err))
        assert pg_cluster.password not in text and "100%sicher" not in text


def test_addresses_as_shown():
    assert shown("postgresql://rpg:g%2Fh@db.example:5433/runde?sslmode=require&password=x&application_name=gm") \
        == "postgresql://rpg@db.example:5433/runde?sslmode=require&application_name=gm"
    assert shown("postgres://:geheim@db/runde") == "postgres://db/runde"
    assert shown("postgresql://rpg:ge?he#im@db/runde") == "postgresql://rpg@db/runde"
    assert shown("postgresql://rpg:ge@he/im@db/runde") == "postgresql://…@db/runde"
    assert shown("postgresql://rpg@db/runde?password=a&b&sslmode=disable") == "postgresql://rpg@db/runde?sslmode=disable"
    assert shown("kampagne.sqlite") == "kampagne.sqlite"
    assert shown("host=db password='ge heim' user=rpg") == "host=db password=***"
    assert shown("rpg:geheim@server/runde") == "rpg@server/runde" and shown("rpg:ge@he:im@db/x") == "rpg@db/x"
    assert ambiguous("postgresql://rpg:ge@heim@db/x") and ambiguous("postgresql://rpg:ge/heim@db/x")
    assert not ambiguous("postgresql://rpg:ge%40heim@db/x") and not ambiguous("postgresql://rpg:ge?he#im@db/x")
    assert secrets("postgresql://rpg@db/x?password=a%26b&sslmode=disable") == {"a%26b", "a&b"}


@pytest.fixture(scope="module")
def player(pg_cluster):
    """A role whose password holds every special character, and its own database."""
    import psycopg
    password = HEAD + SPECIAL + TAIL
    with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:
        conn.execute(psycopg.sql.SQL("CREATE ROLE spieler LOGIN PASSWORD {}").format(psycopg.sql.Literal(password)))
        conn.execute("CREATE DATABASE runde OWNER spieler")
    return password


def test_a_working_password_with_every_special_character_shows_nowhere(pg_cluster, player, tmp_path):
    base = f"127.0.0.1:{pg_cluster.port}/runde"
    urls = [f"postgresql://spieler:{quote(player, safe='')}@{base}",
            f"postgres://spieler@{base}?password={quote(player, safe='')}"]
    outputs = []
    for i, url in enumerate(urls):
        with Campaign.open(url, f"runde-{i}") as camp:
            camp.add_character("Ritter", resources={"LP": 10})
            camp.change("Ritter", "LP", -3)
            journal = camp.journal()
            outputs += [repr(camp), repr(camp.store), str(camp.store.where), repr(journal),
                        journal.to_jsonl(tmp_path / "j.jsonl"), str(camp.state)]
            outputs.append(str(camp.export(tmp_path / f"kopie{len(outputs)}.sqlite")))
        with pytest.raises(StoreError) as err:
            camp.change("Ritter", "LP", -1)  # closed: the error names the place
        outputs.append(str(err.value))
        outputs += [line for line in (tmp_path / "j.jsonl").read_text(encoding="utf-8").splitlines()]
    session._current = None
    try:
        for line in (f"--kampagne {urls[0]}", f"--kampagne {urls[1]} --nur-lesen"):
            status = magics.rpg_line(line)
            outputs += [repr(status), status._repr_mimebundle_()["text/html"]]
            outputs.append(repr(magics.roll_line("--würfel 4 W6")))  # journalled by the first only
    finally:
        session.current().close_campaign()
        session._current = None
    for text in outputs:
        assert not leaks(text, player), text
    assert any("postgresql://spieler@127.0.0.1" in text for text in outputs)


@pytest.fixture
def shell_session(shell):
    session._current = None
    yield shell
    session.current().close_campaign()
    session._current = None


@pytest.mark.parametrize("line", [
    "%rpg kampagne {url}", "%rpg campaign {url}", "%rpg -kampagne {url}", "%rpg {url}", "%rpg midgard {url}",
    "%rpg --kampagne {url}", "%rpg --kampagne={url} --nur-lesen",
])
@pytest.mark.parametrize("spelling", ["raw", "encoded"])
def test_a_magic_line_never_saves_the_password_in_the_notebook(shell_session, closed_port, line, spelling):
    password = HEAD + "@/" + TAIL
    p = password if spelling == "raw" else quote(password, safe="")
    url = f"postgresql://rpg:{p}@127.0.0.1:{closed_port}/rpg"
    with capture_output() as out:
        result = shell_session.run_cell(line.format(url=url))
    assert result.success, out.stderr
    saved = out.stdout + out.stderr + "".join(v for o in out.outputs for v in o.data.values())
    assert out.outputs and not leaks(saved, password), saved
    assert session.current().campaign is None
    if "--kampagne" not in line:  # the forgotten dashes: a hint, with the address without its password
        user = "rpg" if spelling == "encoded" else "…"  # a raw '@' leaves only what follows the last one
        assert f"%rpg --kampagne postgresql://{user}@127.0.0.1:{closed_port}/rpg" in saved


# -- the driver: not installed, installed without libpq, or broken ---------------------

DRIVER = r"""
import os, sys
mode = sys.argv[1]
if mode == "missing":
    sys.modules["psycopg"] = None            # as if it were not installed
elif mode == "no libpq":                      # the real psycopg, without its binary and without libpq
    import ctypes.util
    class Hide:
        def find_spec(self, name, path=None, target=None):
            if name in ("psycopg_binary", "psycopg_c"):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    sys.meta_path.insert(0, Hide())
    ctypes.util.find_library = lambda name: None
from rpgkernel.state import open_store
try:
    open_store("postgresql://rpg:geheim@127.0.0.1/rpg")
except Exception as err:
    print(type(err).__name__, err)
"""


@pytest.mark.parametrize("mode, env, expected", [
    ("missing", {}, "er ist nicht installiert: pip install 'rpgkernel[postgres]'"),
    ("no libpq", {}, "findet aber die PostgreSQL-Bibliothek libpq nicht: pip install 'psycopg[binary]'"),
    ("plain", {"PSYCOPG_IMPL": "c"}, "soll psycopg die Anbindung 'c' laden (Umgebungsvariable PSYCOPG_IMPL)"),
    ("plain", {"PSYCOPG_IMPL": "zauber"}, "soll psycopg die Anbindung 'zauber' laden"),
])
def test_psycopg_that_cannot_be_imported(mode, env, expected):
    import os
    done = subprocess.run([sys.executable, "-c", DRIVER, mode], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("StoreError Für postgresql://rpg@127.0.0.1/rpg ") and expected in done.stdout
    assert "geheim" not in done.stdout and "psycopg needed" not in done.stdout
