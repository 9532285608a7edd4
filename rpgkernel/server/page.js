// The player's page: the token from the address's fragment, sent as the websocket's first message;
// every pushed view drawn with text nodes only (never HTML).
"use strict";
// The labels of every language; those of the language the server's frames come in are shown (the player's
// choice on the page, else the campaign's).
const every = JSON.parse(document.getElementById("labels").textContent);
let labels = every[document.documentElement.lang];
let chosen = "";   // the language the player chose here ("": the campaign's)
const token = location.hash.slice(1);
try { history.replaceState(null, "", location.pathname + location.search); } catch (e) { location.replace("#"); }

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function line(label, value) {
  const row = el("div", "zeile");
  row.append(el("span", "name", label), el("span", "wert", value));
  return row;
}

function conditionLines(box, conditions) {
  for (const [name, c] of Object.entries(conditions || {})) {
    const n = c && c.runden;
    box.append(line(name, n ? `${labels.left} ${n} ${n === 1 ? labels.round : labels.rounds}` : ""));
  }
}

/** The fight: round, whose turn, the combatants players may see (as the GM lets each side show). */
function fight(enc) {
  const head = el("section", "kopf");
  head.append(el("h1", "", enc.name));
  if (enc.runde) {
    head.append(el("div", "runde", `${labels.round} ${enc.runde}` + (enc.segment != null ? ` · ${labels.segment} ${enc.segment}` : "")));
    if (enc.am_zug) head.append(el("div", "zug", `${labels.turn} ${enc.am_zug}`));
  } else {
    head.append(el("div", "runde", labels.not_started));
  }
  const list = el("ol", "teilnehmer");
  for (const c of enc.teilnehmer || []) {
    const item = el("li", c.name === enc.am_zug ? "dran" : "");
    if (c.name === enc.am_zug) item.setAttribute("aria-current", "true");
    const title = el("div", "kopfzeile");
    title.append(el("strong", "", c.name), el("span", "seite", c.seite || ""));
    item.append(title);
    if (c.wartet) item.append(el("div", "hinweis", labels.waiting));
    if (c.zustand) item.append(el("div", "zustand", c.zustand));
    if (c.ausser_gefecht) item.append(el("div", "aus", c.ausser_gefecht));
    for (const [name, r] of Object.entries(c.ressourcen || {})) item.append(line(name, `${r.value} / ${r.max}`));
    conditionLines(item, c.zustaende);
    list.append(item);
  }
  head.append(list);
  return head;
}

/** A sheet value as the card shows it: yes/no in words, a list as "a, b". */
function shownValue(v) {
  if (typeof v === "boolean") return v ? labels.yes : labels.no;
  return Array.isArray(v) ? v.join(", ") : v;
}

/** The player's own figure in full. */
function own(fig) {
  const card = el("section", "figur");
  card.append(el("h2", "", fig.name));
  if (fig.ausser_gefecht) card.append(el("div", "aus", fig.ausser_gefecht));
  for (const [name, r] of Object.entries(fig.resources || {})) card.append(line(name, `${r.value} / ${r.max}`));
  if (Object.keys(fig.conditions || {}).length) {
    card.append(el("h3", "", labels.conditions));
    conditionLines(card, fig.conditions);
  }
  const shown = new Set(Object.keys(fig.resources || {}).map((k) => k.toLowerCase()));
  const sheet = Object.entries(fig.sheet || {}).filter(([name]) => !shown.has(name.toLowerCase()));   // not twice
  if (sheet.length) {
    card.append(el("h3", "", labels.sheet));
    const names = fig.labels || {};   // the sheet's German labels, as the GM's sheet shows them
    for (const [name, v] of sheet) card.append(line(names[name] || name, shownValue(v)));
  }
  return card;
}

function draw(view) {
  const parts = [];
  parts.push(view.begegnung ? fight(view.begegnung) : el("section", "kopf", labels.no_encounter));
  if (view.figur) parts.push(own(view.figur));
  if ((view.journal || []).length) {
    const log = el("section", "journal");
    log.append(el("h2", "", labels.journal));
    const items = el("ol", "");
    for (const text of view.journal.slice(-8)) items.append(el("li", "", text));
    log.append(items);
    parts.push(log);
  }
  if ((view.vorschlaege || []).length) parts.push(ownSuggestions(view.vorschlaege));
  document.getElementById("inhalt").replaceChildren(...parts);
  choices(view.wahlen || []);
}

// -- acting: the dice form, a form per open choice, a suggestion; answers shown on this page only,
// each beside the form it answers (the server answers a page's messages in their order) --
let socket = null;
const answering = [];   // the answer boxes of the messages sent, oldest first

function send(message, where) {
  const box = where || document.getElementById("antwort");
  if (!socket || socket.readyState !== WebSocket.OPEN) { answer({ refused: labels.closed }, box); return; }
  answer({ result: labels.sending }, box);
  answering.push(box);
  socket.send(JSON.stringify(message));
}

/** The given dice typed as "3, 4": a list of whole numbers, null when empty, undefined when unreadable. */
function givenDice(text) {
  const parts = text.trim().split(/[\s,;]+/).filter((x) => x);
  if (!parts.length) return null;
  if (!parts.every((x) => /^\d{1,5}$/.test(x))) return undefined;
  return parts.map(Number);
}

function field(labelText, input) {
  const box = el("label", "feld");
  box.append(el("span", "", labelText), input);
  return box;
}

function textInput(name, hint, numeric) {
  const input = el("input", "");
  input.type = "text";
  input.name = name;
  input.autocomplete = "off";
  input.maxLength = 200;
  if (hint) input.placeholder = hint;
  if (numeric) input.inputMode = "numeric";
  return input;
}

/** A form whose button (or Enter in a one-line field) calls ``onSubmit``: no <form>, which the
 * sandboxed page may not submit (and need not: everything goes over the websocket). */
function form(cls, onSubmit, ...children) {
  const box = el("div", "form " + cls);
  box.append(...children);
  for (const button of box.querySelectorAll("button")) {
    button.type = "button";
    button.addEventListener("click", onSubmit);
  }
  box.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && ev.target.tagName === "INPUT") { ev.preventDefault(); onSubmit(); }
  });
  return box;
}

/** A box for the answers to one form, read out when it changes. */
function answerBox(id) {
  const box = el("div", "antwort");
  box.id = id;
  box.setAttribute("role", "status");
  return box;
}

function actions() {
  const box = el("section", "handeln");
  box.id = "handeln";
  const expr = textInput("ausdruck", labels.expression_hint, false);
  const given = textInput("wuerfel", labels.given_hint, true);
  const rolled = answerBox("wurfantwort");
  box.append(el("h2", "", labels.act_dice), form("wurf", () => {
    const dice = givenDice(given.value);
    if (dice === undefined) { answer({ refused: labels.bad_given }, rolled); return; }
    send({ type: "wurf", ausdruck: expr.value, wuerfel: dice }, rolled);
  }, field(labels.expression, expr), field(labels.given, given), el("button", "", labels.roll)), rolled);
  const open = el("section", "wahlen handeln");   // the open choices first, above the fight
  open.id = "wahlformen";
  open.hidden = true;
  document.getElementById("inhalt").before(answerBox("antwort"), open);   // the choices' answers above them
  const idea = el("textarea", "");
  idea.name = "text";
  idea.maxLength = 500;
  idea.rows = 2;
  idea.placeholder = labels.suggestion_hint;
  const sent = answerBox("vorschlagantwort");
  box.append(el("h2", "", labels.suggestion),
             form("vorschlag", () => send({ type: "vorschlag", text: idea.value }, sent), idea, el("button", "", labels.send)),
             sent);
  document.body.append(box);
}

/** A roll as a small card: who rolled what, the dice, the result large, the chance. */
function rollCard(w) {
  const card = el("div", "karte");
  card.append(el("div", "karte-kopf", `${w.figur} · ${w.ausdruck}`),
              el("div", "karte-wuerfel", w.wuerfel),
              el("div", "karte-ergebnis", w.ergebnis));
  if (w.chance) card.append(el("div", "karte-chance", w.chance));
  for (const hint of w.hinweise || []) card.append(el("div", "hinweis", hint));
  return card;
}

/** ``msg`` in the answer box ``where`` (by default the one above the open choices). */
function answer(msg, where) {
  const box = where || document.getElementById("antwort");
  box.className = "antwort" + (msg.refused ? " abgelehnt" : "");
  if (msg.wurf) box.replaceChildren(rollCard(msg.wurf));
  else box.textContent = String(msg.refused || msg.result || "");
}

/** The server's answer, beside the form of the oldest message not yet answered, brought into view. */
function answered(msg) {
  const box = answering.shift() || document.getElementById("antwort");
  answer(msg, box);
  box.scrollIntoView({ block: "nearest" });
}

/** A form per open choice of the player's figure: what it answers (who acts on whom, every die rolled), its
 * fields (offered values as a list, what each does), own dice, take it; taking it names its resolution.
 * The advice's chances of winning (``sieg``), weighed after the card, are written into the forms in place. */
let shownChoices = "";
let winLines = new Map();   // option's place (id, key, advice, option) -> the element of its chance of winning
function choices(open) {
  const text = JSON.stringify(open, (k, v) => (k === "sieg" ? undefined : v));
  if (text !== shownChoices) {   // unchanged: what the player typed stays
    shownChoices = text;
    winLines = new Map();
    buildChoices(open);
  }
  for (const c of open) {
    (c.rat || []).forEach((r, i) => (r.optionen || []).forEach((o, j) => {
      const line = winLines.get(`${c.id}\u0000${c.key}\u0000${i}\u0000${j}`);
      if (line && line.textContent !== (o.sieg || "")) line.textContent = o.sieg || "";
    }));
  }
}

function buildChoices(open) {
  const box = document.getElementById("wahlformen");
  const forms = [];
  if (open.length) forms.push(el("h2", "", labels.choices));

  for (const c of open) {
    const inputs = [];
    for (const f of c.felder || []) {
      let input;
      if (f.kind === "flag") {
        input = el("input", "");
        input.type = "checkbox";
      } else if ((f.values || []).length) {
        input = el("select", "");
        input.append(el("option", "", labels.choose));
        input.firstChild.value = "";
        f.values.forEach((v, i) => {
          const o = el("option", "", (f.labels || [])[i] ?? v);
          o.value = String(v);
          input.append(o);
        });
      } else {
        input = textInput(f.name, "", f.kind === "int");
      }
      if (f.help) input.title = f.help;
      inputs.push([f, input]);
    }
    const about = el("div", "hinweis wahlum");
    about.append(el("div", "", `${labels.answers} ${c.um}`));
    if ((c.wuerfel || []).length) about.append(el("div", "wahlwuerfel", `${labels.dice_rolled}: ${c.wuerfel.join(" · ")}`));
    const given = textInput("wuerfel", labels.given_hint, true);
    forms.push(form("wahl", () => {
      const optionen = {};
      for (const [f, input] of inputs) optionen[f.name] = f.kind === "flag" ? input.checked : input.value;
      const dice = givenDice(given.value);
      if (dice === undefined) { answer({ refused: labels.bad_given }); return; }
      send({ type: "wahl", aufloesung: c.id, key: c.key, optionen, wuerfel: dice });
    }, el("div", "wahltitel", c.label), about,
       ...inputs.map(([f, input]) => [field(f.label, input), f.help ? el("div", "hinweis", f.help) : null]).flat()
         .filter((x) => x),
       field(labels.given, given), el("button", "", labels.take)));
    (c.rat || []).forEach((r, i) => forms.push(advice(r, inputs, `${c.id}\u0000${c.key}\u0000${i}`)));
  }
  box.replaceChildren(...forms);
  box.hidden = !open.length;
}

/** The advice on a choice: what it weighs, each option with its consequences, its chance of winning (filled
 * in place, ``place`` + its number) and lines; "Eintragen" fills the choice's form with an option (the player
 * still takes it with the form's own button). */
function advice(r, inputs, place) {
  const box = el("details", "rat");
  box.append(el("summary", "", `${labels.advice}: ${r.ziel}`));
  const list = el("ol", "");
  for (const [j, o] of (r.optionen || []).entries()) {
    const item = el("li", "");
    const win = el("div", "folgen sieg", "");
    winLines.set(`${place}\u0000${j}`, win);
    item.append(el("div", "wahltitel", o.label), el("div", "folgen", (o.folgen || []).join(" · ")), win);
    for (const text of o.zeilen || []) item.append(el("code", "zeile-code", text));
    if (o.nehmen) {
      const fill = el("button", "eintragen", labels.advice_fill);
      fill.type = "button";
      fill.addEventListener("click", () => {
        for (const [f, input] of inputs) {
          const v = o.nehmen[f.name];
          if (f.kind === "flag") input.checked = v === true;
          else input.value = v === undefined || v === null ? "" : String(v);
        }
        inputs[0]?.[1].focus();
      });
      item.append(fill);
    }
    list.append(item);
  }
  box.append(list);
  if (r.hinweis) box.append(el("div", "hinweis", r.hinweis));
  return box;
}

// -- the player's own suggestions and the GM's answers (in the fight's part: a refused page clears it) --
function ownSuggestions(list) {
  const box = el("section", "vorschlaege");
  box.id = "vorschlaege";
  box.setAttribute("aria-live", "polite");
  const items = el("ol", "");
  for (const s of list.slice().reverse()) {   // the latest first
    const item = el("li", "vorschlag " + s.antwort);
    item.append(el("span", "text", s.text), el("span", "antwortwort", labels["answer_" + s.antwort] || s.antwort));
    items.append(item);
  }
  box.append(el("h2", "", labels.own_suggestions), items);
  return box;
}

function status(text) { document.getElementById("status").textContent = text; }

/** The switch between the languages: each a button; the server answers with a frame in that language. */
function languageSwitch() {
  const names = Object.keys(every);
  if (names.length < 2) return;
  const nav = el("nav", "sprachen");
  nav.id = "sprachen";
  for (const lang of names) {
    const button = el("button", "", lang.toUpperCase());
    button.type = "button";
    button.lang = lang;
    button.dataset.sprache = lang;
    button.addEventListener("click", () => {
      chosen = lang;
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "sprache", sprache: lang }));
    });
    nav.append(button);
  }
  document.body.prepend(nav);
  marked();
}

function marked() {
  for (const button of document.querySelectorAll("#sprachen button")) {
    button.setAttribute("aria-pressed", String(button.dataset.sprache === document.documentElement.lang));
  }
}

/** Show the page in ``lang``: its labels, and the forms built anew with them. */
function speak(lang) {
  if (lang === document.documentElement.lang || !every[lang]) return;
  labels = every[lang];
  document.documentElement.lang = lang;
  document.title = labels.title;
  for (const id of ["handeln", "wahlformen", "antwort"]) document.getElementById(id)?.remove();
  shownChoices = "";
  actions();
  marked();
}

const FINAL = new Set([4403, 4429]);
let wait = 500;
function connect() {
  if (!token) { status(labels.no_token); return; }
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${location.pathname}ws`);
  ws.onopen = () => {
    ws.send(token);
    if (chosen) ws.send(JSON.stringify({ type: "sprache", sprache: chosen }));
    status(labels.live); wait = 500; socket = ws; answering.length = 0;
  };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.error) status(msg.error);
    else if (msg.view) { if (msg.sprache) { speak(msg.sprache); status(labels.live); } draw(msg.view); }
    else answered(msg);
  };
  ws.onclose = (ev) => {
    if (FINAL.has(ev.code)) {   // refused or revoked: nothing of the fight stays on screen
      status(ev.reason || labels.closed);
      document.getElementById("inhalt").replaceChildren();
      return;
    }
    status(labels.reconnecting);
    setTimeout(connect, wait);
    wait = Math.min(wait * 2, 10000);
  };
}
languageSwitch();
actions();
connect();
