// The player's page: the token from the address's fragment, sent as the websocket's first message;
// every pushed view drawn with text nodes only (never HTML).
"use strict";
const labels = JSON.parse(document.getElementById("labels").textContent);
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
    for (const [name, v] of sheet) card.append(line(name, Array.isArray(v) ? v.join(", ") : v));
  }
  return card;
}

function draw(view) {
  const parts = [];
  parts.push(view.begegnung ? fight(view.begegnung) : el("section", "kopf", labels.no_encounter));
  if ((view.wahlen || []).length) {
    const open = el("section", "wahlen");
    open.append(el("h2", "", labels.choices));
    for (const c of view.wahlen) open.append(line(c.label, (c.options || []).join(", ")));
    parts.push(open);
  }
  if (view.figur) parts.push(own(view.figur));
  if ((view.journal || []).length) {
    const log = el("section", "journal");
    log.append(el("h2", "", labels.journal));
    const items = el("ol", "");
    for (const text of view.journal.slice(-8)) items.append(el("li", "", text));
    log.append(items);
    parts.push(log);
  }
  document.getElementById("inhalt").replaceChildren(...parts);
}

function status(text) { document.getElementById("status").textContent = text; }

const FINAL = new Set([4403, 4429]);
let wait = 500;
function connect() {
  if (!token) { status(labels.no_token); return; }
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${location.pathname}ws`);
  ws.onopen = () => { ws.send(token); status(labels.live); wait = 500; };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.error) status(msg.error);
    else draw(msg.view);
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
connect();
