"""A club's server, for real, on loopback: JupyterHub (from PyPI) with its configurable-http-proxy
(from npm), configured as docs/jupyterhub.md shows it (PAM login, each GM's server run as its own
system user); two GMs as system users made with the docs' ``useradd``; one campaign on a throwaway
PostgreSQL cluster, its password in each GM's ``~/.pgpass``, opened by both GMs' kernels. Anna's
server stays behind the hub's login (refused without it and for Bernd). Bernd makes a player link;
a phone with no hub cookie opens it through the proxy and shows the figure; Anna revokes the link
in her kernel and the open page goes dead, the link reopened is refused. At the end every process
of the hub, its proxy and the GMs' servers is gone, and so are the users.

The GMs' servers run from a Python every user can execute (``hub.users_python``): the test's own
interpreter may sit in root's home."""

from __future__ import annotations

import os
import shutil
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from doc_blocks import ROOT, page

from rpgkernel.state.players import PATH

from .fixtures import expect, unavailable
from .hub import Browser, Hub, Kernel, SystemUser, fresh_base, remove, users_python

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
        hub = Hub(CONFIG, START.split("&&")[1].split(), base, users, users_python(base))
        yield hub, users, address, pg_cluster.password
    finally:
        leftover = []
        if hub is not None:
            hub.stop()
            leftover = [(u.name, u.pids()) for u in users if u.pids()]
        for user in users:
            user.remove()
        remove(base)
    assert not leftover, f"processes left after the hub stopped: {leftover}"


def test_two_gms_one_campaign_a_player_through_the_proxy(club, chromium):
    hub, (anna, bernd), address, password = club
    assert START == "cd /etc/jupyterhub && jupyterhub -f /etc/jupyterhub/jupyterhub_config.py"
    assert CELL[1] == "%rpg --kampagne postgresql://verein@127.0.0.1:5432/runde"
    cell = "\n".join([CELL[0], CELL[1].replace("postgresql://verein@127.0.0.1:5432/runde", address)])

    # each GM logs in at the hub and starts their own server
    gms = {}
    for user in (anna, bernd):
        browser = Browser(hub)
        browser.login(user)
        prefix = browser.start_server(user)
        assert prefix == f"/user/{user.name}/"
        gms[user.name] = (browser, prefix)
    anna_browser, anna_prefix = gms[anna.name]
    bernd_browser, bernd_prefix = gms[bernd.name]

    # Anna's server is behind the hub's login: refused without it, and for Bernd
    anonymous = Browser(hub)
    shown, _text = anonymous.get(f"{anna_prefix.lstrip('/')}lab")
    assert shown.startswith(hub.url("hub/login")), shown
    with pytest.raises(urllib.error.HTTPError) as refused:
        bernd_browser.get(f"{anna_prefix.lstrip('/')}api/contents")
    assert refused.value.code == 403
    shown, text = anna_browser.get(f"{anna_prefix.lstrip('/')}lab")
    assert shown == hub.url(f"{anna_prefix.lstrip('/')}lab") and "jupyter-config-data" in text

    # one campaign on PostgreSQL: Anna makes it, Bernd opens the same and sees her figure
    anna_kernel, bernd_kernel = Kernel(anna_browser, anna_prefix), Kernel(bernd_browser, bernd_prefix)
    who = "import os, pwd; print(pwd.getpwuid(os.getuid()).pw_name)"
    assert anna_kernel.run(who).strip() == anna.name and bernd_kernel.run(who).strip() == bernd.name
    anna_kernel.run(cell)
    anna_kernel.run("import rpgkernel\nkampagne = rpgkernel.session.current().campaign\n"
                    "kampagne.set_ruleset('bastionland')\n"
                    "kampagne.add_character('Alrik', {'vig': 12, 'cla': 10, 'spi': 8, 'gd': 4})")
    bernd_kernel.run(cell)
    made = bernd_kernel.run(
        "import os, rpgkernel\nkampagne = rpgkernel.session.current().campaign\n"
        "print(kampagne.ruleset, sorted(kampagne.characters))\n"
        "link = kampagne.new_player_link('Alrik')\n"
        "print(link.id, link.url(os.environ['JUPYTERHUB_SERVICE_PREFIX']))").split()
    assert made[:2] == ["bastionland", "['Alrik']"], made
    link_id, path = made[2], made[3]
    assert path.startswith(f"{bernd_prefix}{PATH}") and "#" in path
    link = f"http://127.0.0.1:{hub.port}{path}"   # the hub's public address, as the widget's front end builds it
    assert address in (Path(bernd.home) / ".local/share/jupyter/runtime/rpgkernel-kampagnen.json").read_text()

    # a player's phone: no hub login, no cookie; the page through the proxy shows the figure
    with urllib.request.urlopen(link.partition("#")[0], timeout=30) as answer:
        assert answer.status == 200 and answer.url == link.partition("#")[0]
    phone = chromium.new_context(locale="de-DE", **PHONE)
    try:
        player = phone.new_page()
        player.goto(link)
        expect(player.locator("#inhalt")).to_contain_text("Alrik")
        assert phone.cookies() == []

        # Anna (the other GM, on her own server) revokes Bernd's link: the open page goes dead
        anna_kernel.run(f"kampagne.revoke_player_link({link_id!r})")
        expect(player.locator("#status")).to_have_text("Dieser Link wurde widerrufen.")
        expect(player.locator("#inhalt")).not_to_contain_text("Alrik")
        again = phone.new_page()
        again.goto(link)
        expect(again.locator("#status")).to_contain_text("Dieser Link gilt nicht")
        expect(again.locator("#inhalt")).not_to_contain_text("Alrik")
    finally:
        phone.close()
    log = hub.log()   # the servers' logs too: the hub's spawner passes them through
    assert link.partition("#")[2] not in log and password not in log
