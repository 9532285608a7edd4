// The dice tray and the roll card (what %roll shows in a kernel). Needs common.js and chart.js before it.
// Entries come from Python's roll_data(): strings and die records, set as text only.

/** One die: faces joined by "+" (explosion) or "→" (reroll), rerolled faces and dropped dice struck through. */
function drawDie(model, die) {
  const faces = [];
  die.faces.forEach((face, i) => {
    if (i) faces.push(die.rerolled[i - 1] ? "→" : "+");
    faces.push(die.rerolled[i] ? h("s", { title: L(model, "roll.rerolled") }, String(face)) : String(face));
  });
  const dropped = L(model, "roll.dropped");
  return h("span", {
    class: "rpgk-die" + (die.kept ? "" : " rpgk-dropped") + (die.success ? " rpgk-success" : ""),
    title: L(model, "widget.tray.die", { sides: die.sides }) + (die.kept ? "" : ` – ${dropped}`),
  }, die.kept ? faces : h("s", {}, faces), die.kept ? null : h("span", { class: "rpgk-sr" }, ` (${dropped})`));
}

function drawParts(model, entry) {
  return entry.parts.map((part) => (typeof part === "string" ? part : drawDie(model, part)));
}

/** A list item: [expression] dice = total [chance] [hints]. */
function drawEntry(model, entry, full) {
  return h("li", { class: "rpgk-entry" },
    full ? h("span", { class: "rpgk-entry-expr" }, entry.expression) : null,
    full && entry.given ? h("span", { class: "rpgk-muted" }, ` · ${L(model, "roll.given")}`) : null,
    full ? " " : null,
    h("span", { class: "rpgk-dice" }, drawParts(model, entry)),
    h("b", { class: "rpgk-entry-total" }, ` = ${entry.total}`),
    full && entry.chance ? h("span", { class: "rpgk-muted rpgk-entry-chance" }, entry.chance) : null,
    full ? drawHints(entry.hints) : null);
}

/** The roll card: one roll like the HTML card, several as a numbered list; the chart below. */
function drawCard(model) {
  const entries = model.get("entries") || [];
  const one = entries.length === 1 && !model.get("head");
  const body = one
    ? [h("div", { class: "rpgk-head" }, entries[0].expression, entries[0].given ? ` · ${L(model, "roll.given")}` : ""),
      h("div", { class: "rpgk-dice" }, drawParts(model, entries[0])),
      h("div", { class: "rpgk-total" }, entries[0].total),
      entries[0].chance ? h("div", { class: "rpgk-chance" }, entries[0].chance) : null, drawHints(entries[0].hints)]
    : [h("div", { class: "rpgk-head" }, model.get("head")), entries.length ? drawHints(entries[0].hints) : null,
      h("ol", { class: "rpgk-entries" }, entries.map((e) => drawEntry(model, e, false))),
      h("div", {}, model.get("summary"))];
  return h("div", { class: "rpgk-rollcard" }, body, errorBox(model), drawChart(model, model.get("chart")));
}

/** The tray's changing part: error, chart of the expression, history (newest first). */
function drawTrayBody(model) {
  const entries = model.get("entries") || [];
  const chart = model.get("chart") || {};
  const title = chart.label ? L(model, "widget.chart.title", { expr: chart.label })
    : model.get("expression").trim() && !model.get("error") ? L(model, "widget.tray.no_chart") : "";
  return h("div", {},
    errorBox(model),
    title ? h("div", { class: "rpgk-head" }, title) : null,
    drawChart(model, chart),
    h("div", { class: "rpgk-head rpgk-tray-history" }, L(model, "widget.tray.history")),
    entries.length
      ? h("ol", { class: "rpgk-entries", reversed: true }, entries.map((e) => drawEntry(model, e, true)))
      : h("div", { class: "rpgk-muted" }, L(model, "widget.tray.empty")));
}

function drawTray(model, el) {
  const field = (trait, hint) => h("input", {
    type: "text", value: model.get(trait), placeholder: L(model, hint), autocomplete: "off", spellcheck: "false",
    "data-focus": trait,
  });
  const expression = field("expression", "widget.tray.expression_hint");
  const given = field("given", "widget.tray.given_hint");
  expression.addEventListener("change", () => {
    model.set("expression", expression.value);
    model.save_changes();
  });
  const form = h("form", {
    class: "rpgk-tray-form",
    onkeydown: submitOnEnter,
    onsubmit: (ev) => {
      ev.preventDefault();
      send(model, "roll", { expression: expression.value, given: given.value });
    },
  },
  h("label", {}, h("span", {}, L(model, "widget.tray.expression")), expression),
  h("label", {}, h("span", {}, L(model, "widget.tray.given")), given),
  h("button", { type: "submit", "data-focus": "roll" }, L(model, "widget.tray.roll")));
  const said = h("div", { class: "rpgk-sr", "aria-live": "polite" });
  const body = h("div", {});
  el.replaceChildren(h("h3", {}, L(model, "widget.tray.title")), form, said, body);

  const follow = (input, trait) => () => {
    const value = model.get(trait) ?? "";
    if (input.value !== value) input.value = value;
  };
  const listeners = [["change:expression", follow(expression, "expression")], ["change:given", follow(given, "given")],
    ["change:entries", () => {
      const last = (model.get("entries") || [])[0];
      said.textContent = last ? `${last.expression} = ${last.total}` : "";
      given.value = model.get("given") ?? "";   // a new roll has used the given dice up
    }]];
  for (const [event, fn] of listeners) model.on(event, fn);
  const stop = redrawOn(model, body, ["entries", "chart", "chart_view", "error"], () => drawTrayBody(model));
  return () => {
    stop();
    for (const [event, fn] of listeners) model.off(event, fn);
  };
}

function render({ model, el }) {
  el.classList.add("rpgk-w", "rpgk-tray");
  if (model.get("controls")) return drawTray(model, el);
  return redrawOn(model, el, ["entries", "head", "summary", "chart", "chart_view", "error"], () => drawCard(model));
}

export default { render: relabelled(render) };
