"""Players act on their pages, on a real Jupyter server: a roll lands in the GM's journal as the
link's figure (given dice checked as ``%roll --würfel`` checks them), a Deny taken on the phone
closes the resolution exactly as the ``%%resolve`` line would (a twin campaign; the page's own dice as
thrown by its figure), acting for another
figure or taking another's choice is refused, hostile input is refused or kept as text, and a
suggestion reaches the GM."""

from __future__ import annotations

import json

import pytest
from doc_blocks import page, run_python
from panel_driving import make_campaign
from resolve_campaigns import campaign as ruleset_campaign

import rpgkernel
from rpgkernel.messages import t
from rpgkernel.resolve import pending
from rpgkernel.server import actions

from .test_live import FRAME, Page, Server, run

pytestmark = pytest.mark.slow
ATTACK, DICE = "angriff Söldner -> Ritter", [6, 3]   # leaves a Deny for the Ritter (and the Söldner's gambit)
ALLY_DENY = "Deny für Ritter, wenn in Armreichweite: einen Würfel entfernen"   # as the Knappe's page offers it
HOSTILE = "<img src=x onerror=alert(1)>"
#: the docs' answer to a suggestion (docs/kampagne.md, "Was Spieler auf ihrer Seite tun")
ANSWER = page("kampagne.md").block("python", first="offen = kampagne.player_suggestions()",
                                   after="### Was Spieler auf ihrer Seite tun")


@pytest.fixture(scope="module")
def server():
    running = Server()
    yield running
    running.stop()


@pytest.fixture
def camp(server, tmp_path, monkeypatch):
    """The GM's campaign (its registry in the server's runtime dir), the ford fight begun."""
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", server.runtime)
    with make_campaign(tmp_path / "kampagne.sqlite") as opened:
        yield opened


async def frame(page, kind, timeout=FRAME):
    """The next message of ``kind`` ("view", "result", "refused"), skipping pushed views."""
    while True:
        msg = await page.next(timeout)
        assert msg is not None, "the server closed the page"
        if kind in msg:
            return msg
        assert "view" in msg, msg


async def act(page, **message):
    await page.ws.write_message(json.dumps(message, ensure_ascii=False))
    while True:
        msg = await page.next()
        assert msg is not None
        if "result" in msg or "refused" in msg:
            return msg


def normal(events):
    """Kind and data of the resolutions' journal events, the random ids of open resolutions replaced."""
    text = json.dumps([(e.kind, e.data) for e in events if e.kind == "auflösung"], ensure_ascii=False,
                      sort_keys=True)
    for i, pid in enumerate(sorted({e.data["pending"] for e in events if e.data.get("pending")}, key=text.index)):
        text = text.replace(pid, f"<offen {i}>")
    return json.loads(text)


def test_a_roll_lands_in_the_journal_as_the_figure_with_the_given_dice(server, camp):
    link = camp.new_player_link("Ritter")

    async def play():
        page = await Page(server, link.key).open(link.token)
        await frame(page, "view")
        # the actor is the link's figure: a name in the message changes nothing
        answer = await act(page, type="wurf", ausdruck="2W6+1", wuerfel=[3, 4], figur="Söldner", wer="Söldner")
        assert answer == {"result": "Ritter würfelt: 2W6+1 = [3, 4] + 1 = 8  ·  P(≥ 8) = 58,33 %",
                          "wurf": {"figur": "Ritter", "ausdruck": "2W6+1", "wuerfel": "[3, 4] + 1", "ergebnis": "8",
                                   "chance": "P(≥ 8) = 58,33 %", "hinweise": []}}   # the page's card
        rolled = await act(page, type="wurf", ausdruck="W20", wuerfel=None)
        assert rolled["result"].startswith("Ritter würfelt: W20 = [")
        page.ws.close()

    run(play())
    camp.refresh()
    first, second = camp.journal(kind="wurf")
    assert first.data["figures"] == ["Ritter"] and first.data["encounter"] == "Furt"
    assert first.data["text"] == "2W6+1 = [3, 4] + 1 = 8  ·  P(≥ 8) = 58,33 %"
    assert first.data["roll"]["total"] == 8 and second.data["figures"] == ["Ritter"]
    assert 1 <= second.data["roll"]["total"] <= 20


@pytest.mark.parametrize("message, refused", [
    ({"ausdruck": "2W6", "wuerfel": [3, 9]}, "Ein W6 kann keine 9 zeigen (Ergebnis Nr. 2)."),
    ({"ausdruck": "2W6", "wuerfel": [3]}, "Zu wenige Würfelergebnisse: 1 angegeben"),
    ({"ausdruck": "2W6", "wuerfel": [3, 4, 5]}, "Würfelergebnis"),
    ({"ausdruck": "2W6", "wuerfel": ["3", "4"]}, "Eigene Würfel sind bis zu 100 ganze Zahlen von 1 bis 10000."),
    ({"ausdruck": "2W6", "wuerfel": [3, True]}, "ganze Zahlen"),
    ({"ausdruck": "2W6", "wuerfel": [0, 4]}, "ganze Zahlen"),
    ({"ausdruck": "2W6", "wuerfel": list(range(1, 200))}, "bis zu 100"),
    ({"ausdruck": "2W6+"}, "Der Ausdruck endet zu früh"),
    ({"ausdruck": "1000000W6"}, "höchstens"),
    ({"ausdruck": ""}, "Das Feld „Würfelausdruck“ ist leer: bitte eintragen, was gewürfelt wird, z. B. 2W6+1."),
    ({"ausdruck": 12}, "Das Feld „Würfelausdruck“ ist leer"),
    ({"ausdruck": "W6" * 150}, "zu lang (höchstens 200 Zeichen)"),
])
def test_bad_dice_are_refused_in_german_and_write_nothing(server, camp, message, refused):
    link = camp.new_player_link("Ritter")

    async def play():
        page = await Page(server, link.key).open(link.token)
        await frame(page, "view")
        answer = await act(page, type="wurf", **message)
        assert refused in answer["refused"], answer
        assert (await act(page, type="wurf", ausdruck="W6", wuerfel=[2]))["result"]   # the page stays usable
        page.ws.close()

    run(play())
    camp.refresh()
    assert [e.data["text"] for e in camp.journal(kind="wurf")] == ["W6 = [2] = 2  ·  P(≥ 2) = 83,33 %"]


def test_every_closed_set_of_an_attacks_choices_is_a_list(tmp_path):
    """The Ritter's attack leaves a Gambit (a die of 8 in melee: Strong) and Focus: every field whose values
    are a closed set (the dice, the gambits, the Strong Gambit's two options) offers them as a list, on the
    player's page and in the GM's panel alike."""
    from rpgkernel import rules
    from rpgkernel.state import player_view
    from rpgkernel.widgets.panel_data import pending_list
    with make_campaign(tmp_path / "k.sqlite") as c:
        rpgkernel.resolve("angriff Ritter -> Söldner", campaign=c, dice=[8, 4])
        shown = actions.with_fields(c.state, c.ruleset, player_view.view(c.state, "Ritter")["wahlen"])
        fields = {ch["key"]: {f["name"]: f.get("values") for f in ch["felder"]} for ch in shown}
        names = ["Bolster", "Move", "Repel", "Stop", "Impair", "Trap", "Dismount"]
        assert fields == {"gambit": {"würfel": ["8", "4"], "gambit": names, "stark": ["keine_probe", "größer"],
                                     "bolster": ["8", "4"]},
                          "focus": {"gambit": names}}
        panel = {ch["key"]: {f["name"]: f.get("values") for f in ch["fields"]}
                 for rec in pending_list(c.state, rules.get("bastionland")) for ch in rec["choices"]}
        assert panel == {**fields, "deny": {"würfel": ["8", "4"]}}
        labels = {f["name"]: f.get("labels") for ch in shown if ch["key"] == "gambit" for f in ch["felder"]}
        assert labels["stark"] == ["Das Ziel erhält keine Probe", "Der Effekt ist größer"]   # the seed's words
        assert labels["würfel"] == ["8", "4"] and labels["gambit"] == names                   # no text of their own
        # a Gambit with no die for a Strong one (none of 8 or more): no Strong Gambit field, not a free text
        rpgkernel.resolve("verzicht Ritter\nangriff Ritter -> Söldner", campaign=c, dice=[7, 4])
        shown = actions.with_fields(c.state, c.ruleset, player_view.view(c.state, "Ritter")["wahlen"])
        gambit = next(ch for ch in shown if ch["key"] == "gambit")
        assert [f["name"] for f in gambit["felder"]] == ["würfel", "gambit", "bolster"]
        assert all(f.get("values") for f in gambit["felder"])


def test_a_deny_taken_on_the_phone_closes_the_resolution_as_resolve_would(server, camp, tmp_path):
    twin = make_campaign(tmp_path / "zwilling.sqlite")
    ritter, knappe = camp.new_player_link("Ritter"), camp.new_player_link("Knappe")
    twin.new_player_link("Ritter"), twin.new_player_link("Knappe")   # the same seq for the same journal
    rpgkernel.resolve(ATTACK, campaign=camp, dice=DICE)
    rpgkernel.resolve(ATTACK, campaign=twin, dice=DICE)

    async def play():
        phone = await Page(server, ritter.key).open(ritter.token)
        other = await Page(server, knappe.key).open(knappe.token)
        (deny,) = (await frame(phone, "view"))["view"]["wahlen"]
        assert deny["key"] == "deny" and deny["label"].startswith("Deny")
        # what it answers: the resolution's id, who attacks whom, every die rolled; what its field does
        assert deny["id"] == next(iter(pending(camp))) and deny["um"] == "angriff: Söldner → Ritter"
        assert deny["wuerfel"] == ["W8: 6", "W4: 3"]
        assert deny["felder"] == [{"name": "würfel", "kind": "int", "label": "Entfernter Würfel",
                                   "help": t("option.bastionland.deny.würfel.help"), "values": ["6", "3"],
                                   "labels": ["6", "3"]}]
        # the advice in the raw frame: the player's own Deny, each option with what the page fills in
        [advice] = deny["rat"]
        taken = next(o for o in advice["optionen"] if o["label"] == "Deny auf die 6")
        assert taken["zeilen"] == ["deny Ritter würfel=6"] and taken["nehmen"] == {"würfel": 6}
        assert [c["label"] for c in (await frame(other, "view"))["view"]["wahlen"]] == [ALLY_DENY]
        answer = await act(phone, type="wahl", aufloesung=deny["id"], key="deny", optionen=taken["nehmen"],
                           wuerfel=[14])   # the SPI save
        assert answer["result"].startswith("Genommen: Deny")
        assert (await frame(phone, "view"))["view"]["wahlen"] == []
        pushed = (await frame(other, "view"))["view"]   # the other page follows
        assert pushed["figur"]["name"] == "Knappe" and pushed["wahlen"] == []
        phone.ws.close()
        other.ws.close()

    run(play())
    (twin_id,) = pending(twin)   # the page's own dice, thrown by the Ritter, from the Ritter's page
    rpgkernel.resolve(f"deny Ritter würfel=6 auflösung={twin_id}", campaign=twin, dice=[14], dice_by="Ritter",
                      player="Ritter")
    camp.refresh()
    assert not pending(camp) and not pending(twin)
    assert normal(camp.journal()) == normal(twin.journal())
    closed = camp.journal(kind="auflösung")[-1]
    assert closed.data["open"] is False and closed.data["actors"] == ["Söldner"]
    assert closed.data["real_dice"] == {"by": "Ritter", "faces": [[20, 14]]}   # for the dice check
    assert closed.data["player"] == "Ritter"   # the GM's panel shows it as the Ritter's player's
    assert "Ritter setzt Deny ein und entfernt die 6." in [s["text"] for s in closed.data["steps"]]
    assert "Fatigued" in camp.figure("Ritter").conditions
    assert camp.figure("Ritter").resources == twin.figure("Ritter").resources
    twin.close()


def test_the_knappes_player_denies_for_the_ritter_as_the_resolve_line_would(server, camp, tmp_path):
    twin = make_campaign(tmp_path / "zwilling.sqlite")
    knappe, wache = camp.new_player_link("Knappe"), camp.new_player_link("Wache")
    twin.new_player_link("Knappe"), twin.new_player_link("Wache")   # the same seq for the same journal
    rpgkernel.resolve(ATTACK, campaign=camp, dice=DICE)
    rpgkernel.resolve(ATTACK, campaign=twin, dice=DICE)

    async def play():
        laptop = await Page(server, knappe.key).open(knappe.token)
        foe = await Page(server, wache.key).open(wache.token)
        (deny,) = (await frame(laptop, "view"))["view"]["wahlen"]
        assert deny["key"] == "deny" and deny["label"] == ALLY_DENY
        assert [f["name"] for f in deny["felder"]] == ["würfel"] and deny["felder"][0]["values"] == ["6", "3"]
        assert (await frame(foe, "view"))["view"]["wahlen"] == []   # the Söldner's own side: nothing to deny
        refused = await act(foe, type="wahl", aufloesung=deny["id"], key="deny", optionen={"würfel": 6}, wuerfel=[14])
        assert refused == {"refused": t("page.not_yours")}
        answer = await act(laptop, type="wahl", aufloesung=deny["id"], key="deny", optionen={"würfel": 6},
                           wuerfel=[14])   # the SPI save
        assert answer["result"].startswith("Genommen: " + ALLY_DENY)
        assert (await frame(laptop, "view"))["view"]["wahlen"] == []
        laptop.ws.close()
        foe.ws.close()

    run(play())
    (twin_id,) = pending(twin)
    rpgkernel.resolve(f"deny Knappe würfel=6 auflösung={twin_id}", campaign=twin, dice=[14], dice_by="Knappe",
                      player="Knappe")
    camp.refresh()
    assert not pending(camp) and not pending(twin)
    assert normal(camp.journal()) == normal(twin.journal())
    closed = camp.journal(kind="auflösung")[-1]
    assert "Knappe setzt Deny ein und entfernt die 6." in [s["text"] for s in closed.data["steps"]]
    assert "Fatigued" in camp.figure("Knappe").conditions and "Fatigued" not in camp.figure("Ritter").conditions
    twin.close()


def test_acting_for_another_figure_or_taking_anothers_choice_is_refused(server, camp):
    ritter, knappe = camp.new_player_link("Ritter"), camp.new_player_link("Wache")
    rpgkernel.resolve(ATTACK, campaign=camp, dice=DICE)
    not_yours = ("Diese Wahl steht deiner Figur nicht offen. Was deine Figur nicht allein entscheidet, "
                 "kannst du der Spielleitung vorschlagen.")

    async def play():
        phone = await Page(server, ritter.key).open(ritter.token)
        other = await Page(server, knappe.key).open(knappe.token)
        await frame(phone, "view"), await frame(other, "view")
        first = next(iter(pending(camp)))
        # the Söldner's gambit and focus, as the Ritter, and with another name in the message
        for key in ("gambit", "focus", "gambit:Ritter", "verzicht", "*"):
            answer = await act(phone, type="wahl", aufloesung=first, key=key, optionen={"würfel": 6})
            assert answer == {"refused": not_yours}
        assert (await act(phone, type="wahl", aufloesung=first, key="deny", optionen={}, figur="Söldner",
                          wer="Knappe"))["result"]
        # the Wache's player (a foe) may not take the Ritter's Deny; the first attack is closed
        second = rpgkernel.resolve(ATTACK, campaign=camp, dice=DICE).id
        assert (await act(other, type="wahl", aufloesung=second, key="deny")) == {"refused": not_yours}
        assert (await act(other, type="wahl", aufloesung=second, key="deny", figur="Ritter")) == {"refused": not_yours}
        assert (await act(phone, type="wahl", aufloesung=first, key="deny")) == \
            {"refused": t("resolve.answer_closed", id=first)}
        phone.ws.close()
        other.ws.close()

    run(play())
    camp.refresh()
    (left,) = pending(camp).values()   # the second attack is still open for the Ritter
    assert [c["key"] for c in left["choices"]][0] == "deny"
    assert [e.data["actors"] for e in camp.journal(kind="auflösung")].count(["Söldner"]) == 3


def test_a_choice_of_a_resolution_naming_a_hidden_combatant_is_refused_as_an_unknown_one(server, camp):
    link = camp.new_player_link("Ritter")
    camp.encounter.add("Späher Xorg", side="Feinde", sheet={"vig": 9, "cla": 9, "spi": 9, "gd": 5,
                                                             "waffen": ["Dolch (W6)"]})
    camp.encounter.hide("Späher Xorg")
    seen = rpgkernel.resolve(ATTACK, campaign=camp, dice=DICE).id
    unseen = rpgkernel.resolve("angriff \"Späher Xorg\" -> Ritter", campaign=camp, dice=[5]).id   # newer

    async def play():
        phone = await Page(server, link.key).open(link.token)
        frames = [await frame(phone, "view")]
        assert [(c["id"], c["key"]) for c in frames[0]["view"]["wahlen"]] == [(seen, "deny")]   # only the Söldner's
        for pid in (unseen, "0123456789ab"):   # the hidden one's id answers as an id nobody knows
            frames.append(await act(phone, type="wahl", aufloesung=pid, key="deny"))
            assert frames[-1] == {"refused": t("resolve.answer_unknown", id=pid)}
        frames.append(await act(phone, type="wurf", ausdruck="W6", wuerfel=[4]))
        # the Söldner's attack takes the Deny, though the newer hidden one offers a Deny too
        frames.append(await act(phone, type="wahl", aufloesung=seen, key="deny", optionen={"würfel": 3}, wuerfel=[1]))
        assert frames[-1]["result"].startswith("Genommen: Deny")
        text = json.dumps(frames, ensure_ascii=False)
        assert "Xorg" not in text and "Späher" not in text
        phone.ws.close()

    run(play())
    camp.refresh()
    assert list(pending(camp)) == [unseen]   # the hidden attack is untouched


def test_hostile_input_is_refused_or_kept_as_text(server, camp):
    link = camp.new_player_link("Ritter")
    pid = rpgkernel.resolve(ATTACK, campaign=camp, dice=DICE).id

    async def play():
        page = await Page(server, link.key).open(link.token)
        await frame(page, "view")
        for raw, refused in (("x" * (actions.MAX_MESSAGE + 1), "zu lang"), ("{nicht json", "versteht"),
                             ("[1, 2]", "versteht"), (json.dumps({"type": HOSTILE}), "versteht"),
                             (json.dumps({"type": "wurf", "ausdruck": "W6", "wuerfel": [1] * 10**5}), "zu lang")):
            await page.ws.write_message(raw)
            assert refused in (await frame(page, "refused"))["refused"]
        answer = await act(page, type="wurf", ausdruck=HOSTILE)
        assert "erwartet" in answer["refused"]   # refused by the dice parser; the page sets it as text
        for options, refused in (({"würfel": "6\nangriff Ritter -> Söldner"}, "Steuerzeichen"),
                                 ({"würfel": HOSTILE}, "ganze Zahl"), ({"würfel": [6]}, "falsche Art"),
                                 ({"anführer": "Söldner"}, "kennt die Angabe 'anführer' nicht"),
                                 ({HOSTILE: 1}, "kennt die Angabe"), ([6], "Tabelle")):
            answer = await act(page, type="wahl", aufloesung=pid, key="deny", optionen=options)
            assert refused in answer["refused"], (options, answer)
        assert "Steuerzeichen" in (await act(page, type="wahl", aufloesung=pid, key="deny\n"))["refused"]
        camp.lift_player_limit(link.id)   # twenty messages so far: the link's limit is not the subject here
        for pid_ in (HOSTILE, "x" * 201, 7, None):   # the resolution's id: text, checked as every text is
            assert (await act(page, type="wahl", aufloesung=pid_, key="deny"))["refused"]
        assert (await act(page, type="vorschlag", text=HOSTILE))["result"] == "Vorschlag an die Spielleitung geschickt."
        assert "höchstens 500 Zeichen" in (await act(page, type="vorschlag", text="x" * 501))["refused"]
        assert (await act(page, type="wurf", ausdruck=link.token))["refused"] == \
            "Das ging nicht. Bitte die Spielleitung fragen."   # an answer never carries the token
        page.ws.close()

    run(play())
    camp.refresh()
    assert len(pending(camp)) == 1 and not camp.journal(kind="wurf")
    (suggestion,) = camp.player_suggestions()
    assert suggestion["figure"] == "Ritter" and suggestion["text"] == HOSTILE
    html = camp.journal(kind="vorschlag")._repr_html_()
    assert HOSTILE not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert link.token not in server.log()


def test_a_suggestion_reaches_the_gm_who_accepts_or_declines_it(server, camp):
    link = camp.new_player_link("Knappe")

    async def play():
        page = await Page(server, link.key).open(link.token)
        await frame(page, "view")
        for text in ("Der Ritter soll Deny nehmen", "Ich springe in die Furt"):
            assert (await act(page, type="vorschlag", text=text))["result"]
        page.ws.close()

    run(play())
    first, second = camp.player_suggestions()
    shown = run_python(ANSWER.text, {"kampagne": camp})   # the docs accept the first
    assert [s["answer"] for s in shown] == ["angenommen", None]
    camp.undo()
    assert (first["figure"], first["text"], first["answer"]) == ("Knappe", "Der Ritter soll Deny nehmen", None)
    assert camp.accept_suggestion(first["id"])["answer"] == "angenommen"
    assert camp.decline_suggestion(second["id"])["answer"] == "abgelehnt"
    assert camp.player_suggestions() == []
    assert [s["answer"] for s in camp.player_suggestions(open_only=False)] == ["angenommen", "abgelehnt"]
    texts = [e.data["text"] for e in camp.journal(kind="vorschlag")]
    assert texts[-1] == f"Vorschlag {second['id']} von Knappe abgelehnt: Ich springe in die Furt"
    camp.undo()
    assert [s["id"] for s in camp.player_suggestions()] == [second["id"]]
    with pytest.raises(rpgkernel.RpgError, match="schon beantwortet"):
        camp.accept_suggestion(first["id"])
    with pytest.raises(rpgkernel.RpgError, match="Einen Vorschlag 'zzz' gibt es nicht"):
        camp.decline_suggestion("zzz")


#: per ruleset: the figure, the line that leaves it the open choice, its dice, the choice's key and
#: options, the dice of taking it, the choice line typed on the twin campaign
LUCK_AND_GRACE = {
    "adz": ("Alrik", "probe Alrik attribut=GE fertigkeit=Klettern mw=3", [5, 1, 1, 1, 1, 1, 1, 1, 1, 1],
            "glück", {}, [6, 5, 1], "glück Alrik"),
    "midgard": ("Marvelus", "ew Marvelus fertigkeit=Balancieren", [3], "gnade", {}, [5], "gnade Marvelus"),
}


@pytest.mark.parametrize("key", sorted(LUCK_AND_GRACE))
def test_a_player_takes_adzs_glueck_and_midgards_gnade_as_the_resolve_line_would(server, tmp_path, monkeypatch,
                                                                                 key):
    figure, opening, dice, choice, options, taken, typed = LUCK_AND_GRACE[key]
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", server.runtime)
    camp, twin = (ruleset_campaign(key, tmp_path / f"{name}.sqlite") for name in ("kampagne", "zwilling"))
    link = camp.new_player_link(figure)
    twin.new_player_link(figure)   # the same seq for the same journal
    for c in (camp, twin):
        rpgkernel.resolve(opening, campaign=c, dice=dice)

    async def play():
        page_ = await Page(server, link.key).open(link.token)
        (offered,) = (await frame(page_, "view"))["view"]["wahlen"]
        assert offered["key"] == choice
        answer = await act(page_, type="wahl", aufloesung=offered["id"], key=choice, optionen=options, wuerfel=taken)
        assert answer["result"].startswith("Genommen: " + offered["label"])
        page_.ws.close()

    try:
        run(play())
        (twin_id,) = pending(twin)
        rpgkernel.resolve(f"{typed} auflösung={twin_id}", campaign=twin, dice=taken, dice_by=figure, player=figure)
        camp.refresh()
        assert normal(camp.journal()) == normal(twin.journal())
        assert [e.data["open"] for e in camp.journal(kind="auflösung")] == [True, key == "midgard"]
        assert camp.figure(figure).resources == twin.figure(figure).resources
    finally:
        camp.close()
        twin.close()
