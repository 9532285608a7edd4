"""A club's server, for real, on loopback: JupyterHub (from PyPI) with its configurable-http-proxy
(from npm), configured as docs/jupyterhub.md shows it (PAM login, each GM's server run as its own
system user); two GMs as system users made with the docs' ``useradd``; one campaign on a throwaway
PostgreSQL cluster, its password in each GM's ``~/.pgpass``. Anna (over HTTP: the login form, the
spawn, a kernel through the REST and websocket API) makes the campaign and a figure; her server
stays behind the hub's login (without it, or as Bernd, refused). Bernd logs in in Chromium, his
JupyterLab opens the same campaign and ``%rpg spieler`` makes a link for her figure, its address
the hub's public one; a phone with no hub cookie opens it through the proxy and shows the figure;
Anna revokes the link in her kernel and the open page goes dead, the link reopened is refused. At
the end every process of the hub, its proxy and the GMs' servers is gone, and so are the users.

The GMs' servers run from a Python every user can execute (``hub.users_python``): the test's own
interpreter may sit in root's home."""

from __future__ import annotations

import os
import re
import shutil
import urllib.request

import pytest
from doc_blocks import ROOT, page

from rpgkernel.state.players import PATH

from .fixtures import expect, unavailable
from .hub import Browser, Hub, Kernel, SystemUser, fresh_base, users_python
from .notebook import PYTHON3, Notebook, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DOC = page("jupyterhub.md")
INSTALL = DOC.block("bash", first="pip install").lines
USERS = DOC.block("bash", first="useradd").lines
CONFIG = DOC.block("python", first="c = get_config()").text
START = DOC.block("bash", first="cd /etc/jupyterhub").text.strip()
CELL = DOC.block("", first="%load_ext rpgkernel").lines
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_the_install_commands_are_what_ci_runs():
    """The docs' install lines: the packages the test extra has, the proxy as .ci/run installs it."""
    assert INSTALL == ['pip install jupyterhub "rpgkernel[lab,postgres]"', "npm install -g configurable-http-proxy"]
    assert INSTALL[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"jupyterhub>=' in pyproject and "\nlab = [" in pyproject and "\npostgres = [" in pyproject


@pytest.fixture(name="club")
def fixture_club(pg_cluster):
    """Two GMs (system users) with the password of a fresh database in their ``~/.pgpass``, and the
    hub running the docs' config; everything removed afterwards."""
    if os.geteuid() != 0:
        unavailable("the hub test makes system users (useradd) and runs JupyterHub as root")
    try:
        import jupyterhub  # noqa: F401
    except ImportError:
        unavailable("JupyterHub is not installed (pip install -e '.[test]')")
    if shutil.which("configurable-http-proxy") is None:
        unavailable("configurable-http-proxy is not installed (npm install -g configurable-http-proxy)")
    url = pg_cluster.new_database()
    database = url.rsplit("/", 1)[1]
    address = f"postgresql://{pg_cluster.user}@127.0.0.1:{pg_cluster.port}/{database}"
    base = fresh_base()
    users: list[SystemUser] = []
    hub = None
    try:
        assert USERS == [line for name in ("anna", "bernd")
                         for line in (f"useradd --create-home --shell /bin/bash {name}", f"passwd {name}")]
        useradd = USERS[0].split()   # its name replaced, `passwd` done by chpasswd
        for _ in range(2):
            user = SystemUser(useradd, base)
            user.write(".pgpass", f"127.0.0.1:{pg_cluster.port}:{database}:{pg_cluster.user}:{pg_cluster.password}\n")
            users.append(user)
        assert START == "cd /etc/jupyterhub && jupyterhub -f /etc/jupyterhub/jupyterhub_config.py"
        hub = Hub(CONFIG, START.split("&&")[1].split(), base, users, users_python(base))   # in its own folder
        yield hub, users, address, pg_cluster.password
    finally:
        leftover = []
        if hub is not None:
            hub.stop()
            leftover = [(u.name, pids) for u in users if (pids := u.left())]
        for user in users:
            user.remove()
        shutil.rmtree(base, ignore_errors=True)
    assert not leftover, f"processes left after the hub stopped: {leftover}"


def test_two_gms_one_campaign_a_player_through_the_proxy(club, chromium):
    hub, (anna, bernd), address, password = club
    assert CELL[1] == "%rpg --kampagne postgresql://verein@127.0.0.1:5432/runde"
    cells = [CELL[0], CELL[1].replace("postgresql://verein@127.0.0.1:5432/runde", address)]

    # Anna logs in at the hub, starts her server and makes the campaign on PostgreSQL in a kernel
    anna_browser = Browser(hub)
    anna_browser.login(anna)
    anna_prefix = anna_browser.start_server(anna)
    assert anna_prefix == f"/user/{anna.name}/"
    anna_kernel = Kernel(anna_browser, anna_prefix)
    assert anna_kernel.run("import getpass; print(getpass.getuser())").strip() == anna.name
    anna_kernel.run("\n".join(cells))
    anna_kernel.run("import rpgkernel\nkampagne = rpgkernel.session.current().campaign\n"
                    "kampagne.set_ruleset('bastionland')\n"
                    "kampagne.add_character('Alrik', {'vig': 12, 'cla': 10, 'spi': 8, 'gd': 4})")

    # her server is behind the hub's login: without it the hub asks for it
    shown, _text = Browser(hub).get(f"user/{anna.name}/lab")
    assert shown.startswith(hub.url("hub/login")), shown

    # Bernd logs in with the hub's form in his browser; the hub starts his server and opens JupyterLab
    desk = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    phone = chromium.new_context(locale="de-DE", **PHONE)
    try:
        gm = desk.new_page()
        gm.goto(hub.url("hub/login"))
        gm.fill("#username_input", bernd.name)
        gm.fill("#password_input", bernd.password)
        gm.click("#login_submit")
        gm.wait_for_url(hub.url(f"user/{bernd.name}/lab*"), timeout=240_000)
        assert desk.request.get(hub.url(f"user/{anna.name}/api/contents")).status == 403   # not his server

        # his notebook opens the same campaign and makes a link for Anna's figure
        path = write_notebook(bernd.home / "runde.ipynb", [*cells, "%rpg spieler Alrik"])
        bernd.own(path)
        gm.goto(hub.url(f"user/{bernd.name}/lab/tree/{path.name}?reset"))
        notebook = Notebook(gm, path, PYTHON3)
        notebook.wait_idle()
        notebook.run_all()
        anchor = notebook.output(2).locator("a.rpgk-players-url")
        public = re.escape(hub.url(f"user/{bernd.name}/{PATH}"))   # the hub's public address, Bernd's server
        expect(anchor).to_have_attribute("href", re.compile(rf"^{public}[0-9a-f]{{32}}/#[A-Za-z0-9_-]{{43}}$"))
        link = anchor.get_attribute("href")
        runtime = bernd.home / ".local/share/jupyter/runtime/rpgkernel-kampagnen.json"
        assert address in runtime.read_text(encoding="utf-8")   # Bernd's server finds the campaign

        # a player's phone: no hub login, no cookie; the page through the proxy shows the figure
        with urllib.request.urlopen(link.partition("#")[0], timeout=30) as answer:
            assert answer.status == 200 and answer.url == link.partition("#")[0]
        player = phone.new_page()
        player.goto(link)
        expect(player.locator("#inhalt")).to_contain_text("Alrik")
        assert phone.cookies() == []

        # Anna, on her own server, revokes the link Bernd made: the open page goes dead, a new one is refused
        assert anna_kernel.run("for l in kampagne.player_links():\n"
                               "    kampagne.revoke_player_link(l['id']); print(l['figure'])").split() == ["Alrik"]
        expect(player.locator("#status")).to_have_text("Dieser Link wurde widerrufen.")
        expect(player.locator("#inhalt")).not_to_contain_text("Alrik")
        again = phone.new_page()
        again.goto(link)
        expect(again.locator("#status")).to_contain_text("Dieser Link gilt nicht")
        expect(again.locator("#inhalt")).not_to_contain_text("Alrik")
    finally:
        phone.close()
        desk.close()
    log = hub.log()   # the servers' logs too: the hub's spawner passes them through
    assert link.partition("#")[2] not in log and password not in log
