// Hex map (Kampfwerte): terrain, obstacles, the combatants on their fields, the active combatant's reachable
// fields with their BP cost; a click (or Enter) on one runs the %%resolve move in Python, with the physical
// dice typed into the "Würfel" field for the movement type's test.
// Every name arrives as JSON data and is set as text; nothing is parsed as HTML.

const HEX_R = 24;                       // hex radius (centre to corner) in SVG units
const HEX_W = Math.sqrt(3) * HEX_R;     // width of a pointy-top hex
const HEX_PAD = 4;
const HEX_POLL_MS = 3000;               // how often a visible map asks Python for other notebooks' writes
const HEX_TERRAIN_CLASSES = 7;          // tints for terrain other than "frei", by its place in the legend
const HEX_NAME_CHARS = 8;               // a longer name is shortened on the map (in full in its tooltip and the list)

/** Centre of field (q, r): axial coordinates, odd rows shifted right (as the Python map). */
function hexCentre(q, r) {
  const col = q + (r - (r & 1)) / 2;
  return [HEX_PAD + HEX_W * (col + 0.5 + 0.5 * (r & 1)), HEX_PAD + HEX_R + 1.5 * HEX_R * r];
}

function hexCorners(x, y, radius) {
  const out = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    out.push(`${(x + radius * Math.cos(a)).toFixed(2)},${(y + radius * Math.sin(a)).toFixed(2)}`);
  }
  return out.join(" ");
}

function hexTerrainClass(model) {
  const tinted = (model.get("legend") || []).map(([name]) => name).filter((name) => name !== "frei");
  const index = new Map(tinted.map((name, i) => [name, 1 + (i % HEX_TERRAIN_CLASSES)]));
  return (name) => `rpgk-hex-t${index.get(name) ?? 0}`;
}

function hexShort(name) {
  const chars = Array.from(name);
  return chars.length > HEX_NAME_CHARS ? chars.slice(0, HEX_NAME_CHARS - 1).join("") + "…" : name;
}

function hexMove(model, q, r) {
  send(model, "move", { q, r, art: model.get("art"), dice: model.get("dice") });
}

function hexSvg(model) {
  const k = model.get("karte") || {};
  const fields = k.fields || [];
  const turn = model.get("turn") || {};
  const terrainClass = hexTerrainClass(model);
  const reach = new Map((model.get("reachable") || []).map(([q, r, cost]) => [`${q},${r}`, cost]));
  const width = 2 * HEX_PAD + HEX_W * ((k.breite || 1) + 0.5);
  const height = 2 * HEX_PAD + HEX_R * (2 + 1.5 * ((k.hoehe || 1) - 1));
  const cells = [];
  const targets = [];
  for (const [q, r, terrain, obstacle] of fields) {
    const [x, y] = hexCentre(q, r);
    const cost = reach.get(`${q},${r}`);
    const cls = ["rpgk-hex", terrainClass(terrain), obstacle ? "rpgk-hex-obstacle" : ""].join(" ");
    const parts = [s("polygon", { points: hexCorners(x, y, HEX_R - 0.5) })];
    if (obstacle) parts.push(s("polygon", { class: "rpgk-hex-block", points: hexCorners(x, y, HEX_R * 0.45) }));
    if (cost === undefined) {
      cells.push(s("g", { class: cls }, s("title", {}, L(model, "widget.hexmap.field", { q, r, terrain })), parts));
      continue;
    }
    const label = L(model, "widget.hexmap.field_move", { q, r, terrain, figure: turn.figure, cost });
    const activate = (ev) => {
      if (ev.type === "keydown" && ev.key !== "Enter" && ev.key !== " ") return;
      ev.preventDefault();
      hexMove(model, q, r);
    };
    targets.push(s("g", {
      class: cls + " rpgk-hex-reach", role: "button", tabindex: 0, "aria-label": label,
      "data-focus": `hex:${q},${r}`, onclick: activate, onkeydown: activate,
    }, s("title", {}, label), parts,
    s("text", { class: "rpgk-hex-cost", x, y: y + HEX_R * 0.55, "text-anchor": "middle" }, cost)));
  }
  const figures = (model.get("figures") || []).map((f) => {
    const [x, y] = hexCentre(f.q, f.r);
    return s("g", { class: "rpgk-hex-figure" + (f.active ? " rpgk-hex-active" : "") },
      s("title", {}, L(model, "widget.hexmap.figure_on", { figure: f.name, q: f.q, r: f.r })),
      s("circle", { cx: x, cy: y - HEX_R * 0.18, r: HEX_R * 0.3 }),
      s("text", { x, y: y + HEX_R * 0.5, "text-anchor": "middle" }, hexShort(f.name)));
  });
  return s("svg", {
    class: "rpgk-hexmap-svg", viewBox: `0 0 ${width.toFixed(1)} ${height.toFixed(1)}`,
    width: Math.ceil(width), height: Math.ceil(height), role: "group",
    "aria-label": L(model, "widget.hexmap.map_label"),
  }, cells, targets, figures);
}

function hexHead(model) {
  const k = model.get("karte") || {};
  const turn = model.get("turn") || {};
  if (!k.breite) return h("div", {}, h("p", { class: "rpgk-muted" }, L(model, "widget.hexmap.no_map")));
  let facts;
  if (!turn.figure) facts = L(model, "widget.hexmap.waiting");
  else if (turn.q === null || turn.q === undefined) facts = L(model, "widget.hexmap.turn_unplaced", { figure: turn.figure });
  else facts = L(model, "widget.hexmap.turn", { figure: turn.figure, q: turn.q, r: turn.r, bp: turn.bp });
  const chosen = model.get("art");
  const select = h("select", {
    "data-focus": "art",
    onchange: (e) => { model.set("art", e.target.value); model.save_changes(); },
  }, (model.get("arten") || []).map(([name, kosten]) =>
    h("option", { value: name, selected: name === chosen }, L(model, "widget.hexmap.art_option", { art: name, kosten }))));
  return h("div", {},
    h("h3", {}, L(model, "widget.hexmap.title", { breite: k.breite, hoehe: k.hoehe })),
    h("div", { class: "rpgk-row" }, h("span", { class: "rpgk-hexmap-turn" }, facts),
      h("label", {}, L(model, "widget.hexmap.art"), " ", select)),
    model.get("probe") ? h("div", { class: "rpgk-muted rpgk-hexmap-probe" }, model.get("probe")) : null);
}

/** The physical dice for the move's test: one input kept across redraws (typing is not interrupted);
 *  Python empties it after a move. */
function hexDice(model) {
  const input = h("input", {
    type: "text", "data-focus": "dice", value: model.get("dice") ?? "", size: 16,
    placeholder: L(model, "widget.hexmap.dice_hint"),
    oninput: (e) => { model.set("dice", e.target.value); model.save_changes(); },
  });
  const sync = () => { if (input.value !== (model.get("dice") ?? "")) input.value = model.get("dice") ?? ""; };
  model.on("change:dice", sync);
  const el = h("div", { class: "rpgk-row" }, h("label", {}, L(model, "widget.hexmap.dice"), " ", input));
  return [el, () => model.off("change:dice", sync)];
}

function hexLegend(model) {
  const terrainClass = hexTerrainClass(model);
  const swatch = (cls) => s("svg", { class: "rpgk-hex-swatch", viewBox: "0 0 20 20", width: 16, height: 16, "aria-hidden": "true" },
    s("g", { class: cls }, s("polygon", { points: hexCorners(10, 10, 9) })));
  const items = (model.get("legend") || []).map(([name, faktor]) =>
    h("li", {}, swatch("rpgk-hex " + terrainClass(name)), " ", L(model, "widget.hexmap.terrain", { name, faktor })));
  if ((model.get("karte")?.fields || []).some((f) => f[3])) {
    items.push(h("li", {}, swatch("rpgk-hex rpgk-hex-obstacle"), " ", L(model, "widget.hexmap.obstacle")));
  }
  items.push(h("li", {}, swatch("rpgk-hex rpgk-hex-reach"), " ", L(model, "widget.hexmap.reachable")));
  return h("div", { class: "rpgk-hexmap-legend" },
    h("span", { class: "rpgk-muted" }, L(model, "widget.hexmap.legend")), h("ul", {}, items),
    h("ul", { class: "rpgk-hexmap-figures" }, (model.get("figures") || []).map((f) =>
      h("li", { "aria-current": f.active ? "true" : null }, L(model, "widget.hexmap.figure_on", { figure: f.name, q: f.q, r: f.r })))));
}

function hexResult(model) {
  const res = model.get("result") || {};
  if (!res.cell) return h("div");
  const card = res.card || {};
  return h("div", { class: "rpgk-hexmap-result" },
    h("div", { class: "rpgk-muted" }, L(model, "widget.hexmap.line")),
    h("pre", { class: "rpgk-line" }, h("code", {}, res.cell)),
    h("ol", {}, (card.steps || []).map((st) => h("li", {}, st.text))),
    card.effects && card.effects.length ? h("ul", {}, card.effects.map((e) => h("li", {}, e))) : null);
}

function render({ model, el }) {
  const root = h("div", { class: "rpgk-w rpgk-hexmap" });
  el.replaceChildren(root);
  const [dice, offDice] = hexDice(model);
  const parts = { error: h("div"), head: h("div"), map: h("div", { class: "rpgk-hexmap-wrap" }),
    legend: h("div"), result: h("div") };
  root.append(parts.head, dice, parts.error, parts.map, parts.legend, parts.result);
  const board = ["karte", "legend", "figures", "turn", "reachable", "art", "labels"];
  const offs = [
    redrawOn(model, parts.error, ["error", "closed"], () => statusBox(model) || h("div")),
    offDice,
    redrawOn(model, parts.head, ["karte", "turn", "arten", "art", "probe", "labels"], () => hexHead(model)),
    redrawOn(model, parts.map, board, () => hexSvg(model)),
    redrawOn(model, parts.legend, ["legend", "karte", "figures", "labels"], () => hexLegend(model)),
    redrawOn(model, parts.result, ["result"], () => hexResult(model)),
  ];
  const stopPolling = pollWhileShown(model, root, HEX_POLL_MS);   // other notebooks' writes
  return () => {
    stopPolling();
    for (const off of offs) off();
  };
}

export default { render: relabelled(render) };
