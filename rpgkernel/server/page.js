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

function draw(view) {
  const main = document.getElementById("inhalt");
  const parts = [];
  const head = el("section", "kopf");
  head.append(el("h1", "", view.encounter ?? labels.no_encounter));
  if (view.round !== undefined && view.round !== null) head.append(el("div", "runde", `${labels.round} ${view.round}`));
  if (view.turn) head.append(el("div", "zug", `${labels.turn} ${view.turn}`));
  parts.push(head);
  const fig = view.figure;
  if (fig) {
    const card = el("section", "figur");
    card.append(el("h2", "", fig.name));
    if (fig.ausser_gefecht) card.append(el("div", "aus", fig.ausser_gefecht));
    for (const [name, r] of Object.entries(fig.resources || {})) card.append(line(name, `${r.value} / ${r.max}`));
    const conditions = Object.entries(fig.conditions || {});
    if (conditions.length) {
      card.append(el("h3", "", labels.conditions));
      for (const [name, c] of conditions) card.append(line(name, c && c.runden ? `${c.runden} ${labels.rounds}` : ""));
    }
    const sheet = Object.entries(fig.sheet || {});
    if (sheet.length) {
      card.append(el("h3", "", labels.sheet));
      for (const [name, v] of sheet) card.append(line(name, Array.isArray(v) ? v.join(", ") : v));
    }
    parts.push(card);
  }
  main.replaceChildren(...parts);
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
    if (FINAL.has(ev.code)) { status(ev.reason || labels.closed); return; }
    status(labels.reconnecting);
    setTimeout(connect, wait);
    wait = Math.min(wait * 2, 10000);
  };
}
connect();
