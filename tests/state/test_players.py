"""Player links: a token per figure, kept only as its hash; revoke, renew, the journal, the registry."""

from __future__ import annotations

import json
import os
import secrets
import stat

import pytest

from rpgkernel.state import Campaign, CampaignError, players, registry


@pytest.fixture(autouse=True)
def runtime_dir(tmp_path, monkeypatch):
    folder = tmp_path / "runtime"
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(folder))
    return folder


@pytest.fixture
def camp(target):
    with Campaign.open(target) as c:
        c.add_character("Alrik")
        c.add_character("Brida")
        yield c


def stored(camp) -> str:
    """Everything the store holds: every event and snapshot, as text."""
    events = "".join(e.to_json() for e in camp.store.events())
    return events + json.dumps(camp.state)


def test_a_link_opens_its_figure_and_only_the_hash_is_kept(camp):
    link = camp.new_player_link("Alrik")
    assert len(link.token) >= 43 and link.figure == "Alrik" and len(link.id) == 8
    assert players.figure_for(camp.state, link.token) == "Alrik"
    assert link.token not in repr(link) and link.token not in str(link)
    assert link.url("/base/") == f"/base/rpgkernel/spieler/{link.key}/#{link.token}"
    assert link.token not in stored(camp)   # neither in events nor in the state: the hash only
    assert players.digest(link.token) in json.dumps(camp.state)
    assert camp.player_links() == [{"id": link.id, "figure": "Alrik", "created": link.created, "revoked": None,
                                  "limit": None}]


def test_wrong_guessed_and_other_figures_tokens_are_refused(camp):
    alrik, brida = camp.new_player_link("Alrik"), camp.new_player_link("Brida")
    assert alrik.key == brida.key   # one key per campaign
    state = camp.state
    assert players.figure_for(state, brida.token) == "Brida"
    for token in ("", alrik.token[:-1], alrik.token + "x", secrets.token_urlsafe(32), None, 42,
                  players.digest(alrik.token), "x" * 10_000):
        assert players.figure_for(state, token) is None


def test_revoke_and_renew(camp):
    link = camp.new_player_link("Alrik")
    camp.revoke_player_link(link.id)
    assert players.figure_for(camp.state, link.token) is None
    [listed] = camp.player_links()
    assert listed["revoked"] is not None
    with pytest.raises(CampaignError, match="schon widerrufen"):
        camp.revoke_player_link(link.id)
    with pytest.raises(CampaignError, match="gibt es nicht"):
        camp.revoke_player_link("deadbeef")
    camp.undo()   # the revocation undone: the link lives again
    assert players.figure_for(camp.state, link.token) == "Alrik"
    new = camp.renew_player_link(link.id)
    assert (new.figure, new.key) == ("Alrik", link.key) and new.id != link.id
    assert players.figure_for(camp.state, link.token) is None
    assert players.figure_for(camp.state, new.token) == "Alrik"


def test_a_figure_not_in_the_campaign_gets_no_link_and_a_removed_one_is_refused(camp):
    with pytest.raises(CampaignError, match="Alrk"):
        camp.new_player_link("Alrk")
    enc = camp.new_encounter("Hinterhalt")
    enc.add("Goblin", resources={"LP": 5})
    link = camp.new_player_link("Goblin")
    assert players.figure_for(camp.state, link.token) == "Goblin"
    camp.new_encounter("Später")   # the goblin's encounter is no longer the active one
    assert players.figure_for(camp.state, link.token) is None


def test_the_journal_names_id_and_figure_never_the_token(camp):
    link = camp.new_player_link("Alrik")
    renewed = camp.renew_player_link(link.id)
    texts = [e.data["text"] for e in camp.journal(kind=players.KIND)]
    assert texts == [f"Spielerlink {link.id} für Alrik", f"Spielerlink {link.id} für Alrik widerrufen",
                     f"Spielerlink {renewed.id} für Alrik"]
    journal = camp.journal().to_jsonl()
    for token in (link.token, renewed.token):
        assert token not in journal


def test_the_registry_finds_the_campaign_by_key(camp, backend, runtime_dir):
    link = camp.new_player_link("Alrik")
    address, campaign = registry.lookup(link.key)
    assert campaign == camp.store.campaign
    if backend == "sqlite":
        assert address == os.path.abspath(camp.store.where)
    else:
        assert address.startswith("postgresql://") and "@" in address   # in full: the server must connect
    with Campaign.open(address, campaign, read_only=True) as again:
        assert players.figure_for(again.state, link.token) == "Alrik"
    mode = stat.S_IMODE((runtime_dir / registry.NAME).stat().st_mode)
    assert mode == 0o600
    assert link.token not in (runtime_dir / registry.NAME).read_text()
    assert registry.lookup("0" * 32) is None


def test_two_campaigns_have_two_keys(tmp_path, camp):
    with Campaign.open(tmp_path / "andere.sqlite") as other:
        other.add_character("Alrik")
        theirs = other.new_player_link("Alrik")
    ours = camp.new_player_link("Alrik")
    assert theirs.key != ours.key
    assert players.figure_for(camp.state, theirs.token) is None
    assert set(registry.read()) == {theirs.key, ours.key}


def test_the_servers_refusals_are_listed_until_the_gm_lifts_the_limit(camp):
    link = camp.new_player_link("Alrik")
    camp.note_player_limit(link.id, 3)
    camp.note_player_limit(link.id, 2)
    [listed] = camp.player_links()
    assert listed["limit"]["hits"] == 5 and listed["limit"]["last"] >= link.created
    assert players.lifts(camp.state, link.id) == 0
    assert camp.lift_player_limit(link.id) == "Alrik"
    assert camp.player_links()[0]["limit"] is None and players.lifts(camp.state, link.id) == 1
    assert [e.data["text"] for e in camp.journal(kind="spielerlink")][1:] == [
        f"Spielerlink {link.id} für Alrik: 3× über der Grenze abgewiesen",
        f"Spielerlink {link.id} für Alrik: 2× über der Grenze abgewiesen",
        f"Grenze des Spielerlinks {link.id} für Alrik aufgehoben"]
    with pytest.raises(CampaignError, match="gibt es nicht"):
        camp.lift_player_limit("00000000")
