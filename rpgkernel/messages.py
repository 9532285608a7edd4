"""The message catalogue: every user-facing text, by language.

Engines and renderers never hold user text themselves; they call
``t("key", **fields)``. German is the default; another language is added by
adding a table here, without touching the engines.
"""

from __future__ import annotations

CATALOGUE: dict[str, dict[str, str]] = {
    "de": {
        # dice syntax
        "dice.empty": "Der Würfelausdruck ist leer.",
        "dice.unexpected": "Unerwartetes Zeichen {char!r}.",
        "dice.unexpected_end": "Der Ausdruck endet zu früh: {expected} fehlt.",
        "dice.expected": "Hier wird {expected} erwartet, nicht {found!r}.",
        "dice.trailing": "Unerwartetes {found!r} nach dem vollständigen Ausdruck.",
        "dice.number": "eine Zahl",
        "dice.operand": "eine Zahl, ein Würfel oder eine Klammer",
        "dice.sides": "die Seitenzahl des Würfels (z. B. W6) oder %",
        "dice.close_paren": "eine schließende Klammer ')'",
        "dice.close_brace": "eine schließende Klammer '}}'",
        "dice.pool_item": "ein Würfel wie W8 oder 2W6",
        "dice.no_dice": "Mindestens ein Würfel: {n}W… ist nicht möglich.",
        "dice.no_sides": "Ein Würfel braucht mindestens eine Seite: W{sides} ist nicht möglich.",
        "dice.modifier_twice": "Der Modifikator {mod!r} steht zweimal.",
        "dice.keep_one": "Es ist nur eine Auswahl (kh, kl, dh oder dl) pro Würfelgruppe erlaubt.",
        "dice.keep_range": "{mod}{k}: Es gibt nur {n} Würfel; möglich ist {low} bis {high}.",
        "dice.reroll_all": "Neu würfeln bei {sel} trifft jede Seite von W{sides}: der Würfel käme nie zur Ruhe.",
        "dice.unknown_function": "Unbekannte Funktion {name!r}; bekannt sind max und min.",
        "dice.function_args": "{name}(…) braucht mindestens zwei durch Komma getrennte Werte.",
        "dice.variable_unknown": "Unbekannte Variable @{name}.",
        "dice.variable_type": "@{name} muss eine ganze Zahl oder ein Würfelausdruck sein, nicht {type}.",
        # limits
        "limit.dice": "Zu viele Würfel: {n} (höchstens {max} pro Ausdruck).",
        "limit.sides": "Zu viele Seiten: W{sides} (höchstens W{max}).",
        "limit.explode": "Explodierende Würfel brauchen eine Obergrenze für Zusatzwürfe, z. B. W6!3 (höchstens {max}).",
        "limit.explode_cap": "Zu viele Zusatzwürfe beim Explodieren: {cap} (höchstens {max}).",
        "limit.number": "Die Zahl {n} ist zu groß (höchstens {max}).",
        "limit.depth": "Der Ausdruck ist zu tief verschachtelt (höchstens {max} Ebenen).",
        "limit.length": "Der Ausdruck ist zu lang: {n} Zeichen (höchstens {max}).",
        "limit.exact": "Die exakte Verteilung ist zu groß, um sie zu berechnen (etwa {size:,} Zustände, höchstens {max:,}).",
        "limit.rolls": "Zu viele Würfe auf einmal: {n} (höchstens {max}).",
        # suggestions
        "suggest.die": "Meinten Sie {suggestion!r}?",
        "suggest.keep": "Meinten Sie {suggestion!r} (behalte die höchsten)?",
        "suggest.explode": "Zum Beispiel {suggestion!r}: höchstens drei Zusatzwürfe.",
        # given dice
        "given.too_few": "Zu wenige Würfelergebnisse: {used} angegeben, aber der Wurf braucht mehr (als Nächstes ein W{sides}).",
        "given.too_many": "Zu viele Würfelergebnisse: {given} angegeben, der Wurf hat nur {used} gebraucht.",
        "given.out_of_range": "Ein W{sides} kann keine {value} zeigen (Ergebnis Nr. {index}).",
        "given.not_int": "Würfelergebnisse müssen ganze Zahlen sein, nicht {value!r}.",
        # rendering
        "roll.successes": "Erfolge",
        "roll.total": "Ergebnis",
        "roll.chance": "P(≥ {value}) = {p}",
        "roll.chance_title": "Wahrscheinlichkeit, dieses Ergebnis oder mehr zu erreichen",
        "roll.no_dist": "keine exakte Verteilung: {reason}",
        "roll.given": "eingegebene Würfel",
        "roll.dropped": "verworfen",
        "roll.rerolled": "neu gewürfelt",
        "rolls.header": "{n} Würfe von {expr}",
        "rolls.summary": "Summe {sum}, Mittel {mean}",
        "dist.summary": "{expr}: {low} bis {high}, Mittelwert {mean}, Standardabweichung {sd}",
        "dist.value": "Wert",
        "dist.p_eq": "P(=)",
        "dist.p_ge": "P(≥)",
        "dist.p_le": "P(≤)",
        "dist.chart_title": "Verteilung von {expr}",
        "error.title": "Fehler",
        # sheets and stat blocks
        "sheet.not_mapping": "Ein Bogen muss aus Feldern mit Werten bestehen, nicht {type}.",
        "sheet.unknown_field": "Unbekanntes Feld {field}. Erlaubt sind: {known}.",
        "sheet.missing_field": "Das Feld '{field}' ({label}) fehlt; erlaubt ist {allowed}.",
        "sheet.bad_value": "Feld '{field}' ({label}): erlaubt ist {allowed}, nicht {value}.",
        "sheet.allowed_int": "eine ganze Zahl von {low} bis {high}",
        "sheet.allowed_text": "ein Text mit höchstens {max} Zeichen",
        "sheet.allowed_bool": "ja oder nein (true/false)",
        "sheet.allowed_list": "eine Liste von höchstens {max} Texten",
        "sheet.allowed_choices": "einer der Werte {choices}",
        "sheet.allowed_any": "eine Zahl, ein Text, ja/nein oder eine Liste von Texten",
        # campaign
        "campaign.figure": "Figur",
        "campaign.encounter": "Begegnung",
        "campaign.resource": "Ressource",
        "campaign.condition": "Zustand",
        "campaign.side": "Seite",
        "campaign.bad_name": "Ungültiger Name für {what}: {name} (nicht leer, höchstens {max} Zeichen, keine Steuerzeichen).",
        "campaign.duplicate": "{name!r} gibt es schon.",
        "campaign.unknown_figure": "Unbekannte Figur {name!r}.",
        "campaign.unknown_resource": "{figure} hat keine Ressource {name!r}; vorhanden: {known}.",
        "campaign.unknown_condition": "{figure} hat keinen Zustand {name!r}.",
        "campaign.bad_resource": "Ressource {name!r}: erwartet wird eine ganze Zahl, nicht {value}.",
        "campaign.bad_condition_key": "Unbekannte Angabe {key!r} zu einem Zustand; erlaubt: runden, endet, von.",
        "campaign.bad_rounds": "Runden eines Zustands: erwartet wird eine ganze Zahl von 1 bis 10000, nicht {value}.",
        "campaign.bad_ends": "Ein Zustand endet bei einem von {known}, nicht {value}.",
        "campaign.bad_count": "Anzahl: erwartet wird eine ganze Zahl von 1 bis 200, nicht {value}.",
        "campaign.empty_encounter": "Die Begegnung {name!r} hat noch keine Teilnehmer.",
        "campaign.bad_order": "Die Reihenfolge muss jeden Teilnehmer genau einmal nennen: {known}.",
        "campaign.not_started": "Die Begegnung {name!r} hat noch nicht begonnen (erst Initiative).",
        "campaign.bad_segment": "Segment: erwartet wird eine ganze Zahl von 1 bis {max}, nicht {value} (dieses Regelwerk teilt die Runde {max}-mal; 0 heißt: gar nicht).",
        "campaign.nothing_to_undo": "Es gibt nichts rückgängig zu machen.",
        "campaign.nothing_to_redo": "Es gibt nichts zu wiederholen.",
        "campaign.repr": "Kampagne {where}: {characters} Figuren, {encounters} Begegnungen, {events} Einträge im Journal",
        "condition.left": "noch {n}",
        "encounter.not_started": "noch nicht begonnen ({n} Teilnehmer)",
        "encounter.turn": "Runde {round} – am Zug: {figure}",
        "journal.ruleset": "Regelwerk: {key}",
        "journal.character": "Figur {name} angelegt",
        "journal.encounter": "Begegnung {name} begonnen",
        "journal.combatant": "{names} nimmt an {encounter} teil",
        "journal.combatants": "{names} nehmen an {encounter} teil",
        "journal.initiative": "Initiative: {order}",
        "journal.turn": "Runde {round}: {figure} ist am Zug",
        "journal.segment": "Segment {segment}",
        "journal.resource": "{figure}: {resource} {old} → {new}",
        "journal.condition_on": "{figure}: {condition}",
        "journal.condition_off": "{figure}: {condition} endet",
        "journal.undo": "rückgängig: {what}",
        "journal.redo": "wiederholt: {what}",
        "journal.empty": "Das Journal ist leer.",
        "journal.no_pandas": "Für eine Tabelle als DataFrame wird pandas gebraucht: pip install pandas",
        "journal.col_seq": "Nr.",
        "journal.col_kind": "Art",
        "journal.col_text": "Eintrag",
        "journal.col_encounter": "Begegnung",
        # session and magics
        "rpg.status_title": "rpgkernel",
        "rpg.ruleset": "Regelwerk",
        "rpg.ruleset_none": "keines gewählt",
        "rpg.seed": "Startwert (Seed)",
        "rpg.seed_none": "zufällig",
        "rpg.campaign": "Kampagne",
        "rpg.campaign_none": "keine",
        "rpg.language": "Sprache",
        "rpg.rulesets": "Regelwerke",
        "rpg.implemented": "verfügbar",
        "rpg.not_implemented": "noch nicht umgesetzt",
        "rpg.unknown_ruleset": "Unbekanntes Regelwerk {key!r}. Bekannt sind: {known}.",
        "rpg.unknown_language": "Unbekannte Sprache {lang!r}. Verfügbar: {known}.",
        "rpg.campaign_unavailable": "Kampagnen (--kampagne) sind noch nicht umgesetzt.",
        "magic.usage": "Aufruf: {usage}",
        "magic.bad_option": "Unbekannte Option {option!r}.",
        "magic.bad_value": "Ungültiger Wert für {option}: {value!r} ({expected}).",
        "magic.missing_value": "Die Option {option} braucht einen Wert.",
        "magic.expected_int": "eine ganze Zahl",
        "magic.expected_dice": "durch Komma getrennte Würfelergebnisse wie 6,2,5",
        "magic.count_range": "eine Zahl von 1 bis {max}",
        "magic.given_with_count": "--würfel und --anzahl zusammen: die Ergebnisse werden der Reihe nach auf alle Würfe verteilt.",
        "magic.no_expression": "Es fehlt ein Würfelausdruck, z. B. %roll 3W6+2.",
        # campaign store
        "store.unknown_scheme": "Unbekannte Adresse {where}: möglich sind ein Dateipfad (SQLite) oder eine URL postgresql://… (PostgreSQL).",
        "store.is_directory": "{where} ist ein Ordner, keine Kampagnendatei.",
        "store.no_folder": "Die Kampagne {where} kann nicht angelegt werden: Der Ordner {folder} existiert nicht.",
        "store.open_failed": "Die Kampagne {where} lässt sich nicht öffnen: {reason}",
        "store.not_campaign": "{where} ist keine rpgkernel-Kampagne (eine andere Datei oder Datenbank); sie bleibt unverändert.",
        "store.newer_schema": "Die Kampagne {where} hat das Schema {found}; diese Version von rpgkernel kennt nur bis {known}. Bitte rpgkernel aktualisieren.",
        "store.other_campaign": "Die Datei {where} enthält die Kampagne {found!r}, nicht {wanted!r}: Eine SQLite-Datei hält genau eine Kampagne.",
        "store.bad_option": "Ungültiger Wert für {name}: {value!r} (möglich: {allowed}).",
        "store.url_malformed": "Die Adresse {where} ist keine gültige PostgreSQL-URL: {reason}",
        "store.unreachable": "Keine Verbindung zur PostgreSQL-Datenbank {where}: {reason}",
        "store.no_driver": "Für {where} wird der PostgreSQL-Treiber psycopg gebraucht: pip install 'rpgkernel[postgres]'.",
        "store.closed": "Die Kampagne {where} ist bereits geschlossen.",
        "store.locked": "Die Kampagne {where} ist seit {timeout} s von einem anderen Prozess gesperrt; bitte erneut versuchen.",
        "store.write_failed": "Schreiben in die Kampagne {where} fehlgeschlagen: {reason}. Nichts wurde gespeichert.",
        "store.read_failed": "Lesen aus der Kampagne {where} fehlgeschlagen: {reason}",
        "store.refused": "{reason} Nichts wurde gespeichert.",
        "store.bad_name": "{what} muss ein nicht leerer Text mit höchstens {max} Zeichen ohne Nullzeichen sein, nicht {value}.",
        "store.what_kind": "Die Art eines Ereignisses",
        "store.what_tx": "Die Transaktionskennung eines Ereignisses",
        "store.what_campaign": "Der Name einer Kampagne",
        "store.not_event": "Ins Journal kommen nur Ereignisse (Event), nicht {type}.",
        "store.data_not_object": "Die Daten des Ereignisses {kind!r} müssen ein dict sein, nicht {type}.",
        "store.not_json": "Die Daten des Ereignisses {kind!r} lassen sich nicht unverändert als JSON speichern: {problem}",
        "store.bad_type": "{path} hat den Typ {type}; erlaubt sind dict mit Text-Schlüsseln, list, str, int, float, bool und None.",
        "store.bad_key": "{path} hat den Schlüssel {key} vom Typ {type}; Schlüssel müssen Text sein.",
        "store.not_finite": "{path} ist {value}; JSON kennt nur endliche Zahlen.",
        "store.too_deep": "Sie sind zu tief verschachtelt (höchstens {max} Ebenen).",
        "store.bad_text": "Sie enthalten Text, der sich nicht als UTF-8 speichern lässt (einzelne Surrogate).",
        "store.too_large": "Das Ereignis {kind!r} ist zu groß: {size:,} Bytes (höchstens {max:,}).",
        "store.append_too_many": "Zu viele Ereignisse auf einmal: {n:,} (höchstens {max:,} pro Transaktion).",
        "store.append_too_large": "Zu viele Daten auf einmal: {n:,} Ereignisse mit zusammen mehr als den erlaubten {max:,} Bytes pro Transaktion.",
        "store.bad_count": "{name} muss eine ganze Zahl ≥ 0 sein, nicht {value}.",
        "store.bad_kinds": "Arten von Ereignissen sind Texte, nicht {value}.",
        "store.snapshot_not_object": "Ein Schnappschuss muss ein dict sein, nicht {type}.",
        "store.snapshot_not_json": "Der Schnappschuss lässt sich nicht unverändert als JSON speichern: {problem}",
        "store.snapshot_too_large": "Der Schnappschuss ist zu groß: {size:,} Bytes (höchstens {max:,}).",
        "store.snapshot_seq": "Ein Schnappschuss gehört zu einer Position im Journal von 0 bis {last}, nicht {seq!r}.",
    },
}

DEFAULT_LANGUAGE = "de"
_language = DEFAULT_LANGUAGE


def languages() -> list[str]:
    """The languages the catalogue holds."""
    return sorted(CATALOGUE)


def set_language(lang: str) -> None:
    """Switch every following message to ``lang``."""
    global _language
    if lang not in CATALOGUE:
        raise KeyError(lang)
    _language = lang


def language() -> str:
    return _language


def t(key: str, /, **fields: object) -> str:
    """The message ``key`` in the current language, filled with ``fields``."""
    table = CATALOGUE[_language]
    template = table.get(key) or CATALOGUE[DEFAULT_LANGUAGE][key]
    return template.format(**fields)
