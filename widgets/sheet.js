// Character sheet: a form drawn from the ruleset's fields. What the user types goes to the
// "draft" trait without redrawing (the caret stays put); Python refills the form by bumping
// "revision". Every name and value a user typed is set as text or as an input's value.

const SHEET_TRAITS = ["figure", "ruleset", "extensible", "fields", "revision", "error", "closed", "error_field",
  "stale", "resources", "conditions", "labels"];
const POLL_MS = 5000;   // how often to look for other notebooks' changes while visible

function sheetDraft(model) {
  return model.get("draft") || {};
}

/** Store one field's typed value (no redraw). */
function sheetPut(model, name, value) {
  model.set("draft", { ...sheetDraft(model), [name]: value });
  model.save_changes();
}

/** The number of a number editor, null when it is empty (or not a number). */
function sheetNumber(input) {
  return Number.isNaN(input.valueAsNumber) ? null : input.valueAsNumber;
}

/** The help under a field: its name, its hint (an example, the format), range, required. */
function sheetHint(model, f) {
  const parts = [f.name];
  if (f.hint) parts.push(f.hint);
  if (f.kind === "int" && (f.min !== null || f.max !== null)) {
    parts.push(L(model, "widget.sheet.range", { min: f.min ?? "…", max: f.max ?? "…" }));
  }
  if (f.required) parts.push(L(model, "widget.sheet.required"));
  return parts.join(" · ");
}

function sheetList(model, f, ids, redraw, attrs) {
  const items = () => { const v = sheetDraft(model)[f.name]; return Array.isArray(v) ? [...v] : []; };
  const change = (next, focus) => { sheetPut(model, f.name, next); redraw(focus); };
  const shown = items();
  // the group itself takes focus only from code (an error about the list moves there)
  return h("div", { ...attrs, role: "group", tabindex: "-1", "aria-labelledby": ids.label, class: "rpgk-sheet-list" },
    shown.map((item, k) => h("div", { class: "rpgk-row" },
      h("input", {
        type: "text", value: item, "data-focus": `f:${f.name}:${k}`, "aria-describedby": ids.label,
        "aria-label": L(model, "widget.sheet.list_item", { n: k + 1 }),
        oninput: (e) => { const next = items(); next[k] = e.target.value; sheetPut(model, f.name, next); },
      }),
      h("button", {
        type: "button", "data-focus": `rm:${f.name}:${k}`, "aria-describedby": ids.label,
        "aria-label": L(model, "widget.sheet.list_remove_item", { n: k + 1 }),
        onclick: () => {
          const next = items().filter((_, i) => i !== k);
          change(next, next.length ? `f:${f.name}:${Math.min(k, next.length - 1)}` : `add:${f.name}`);
        },
      }, L(model, "widget.sheet.list_remove")))),
    h("button", {
      type: "button", "data-focus": `add:${f.name}`, "aria-describedby": ids.label,
      onclick: () => { const next = items(); next.push(""); change(next, `f:${f.name}:${next.length - 1}`); },
    }, L(model, "widget.sheet.list_add")));
}

function sheetEditor(model, f, ids, redraw, attrs) {
  const value = sheetDraft(model)[f.name];
  if (f.kind === "list") return sheetList(model, f, ids, redraw, attrs);
  if (f.kind === "bool") {
    return h("input", { ...attrs, id: ids.input, type: "checkbox", checked: value === true,
      onchange: (e) => sheetPut(model, f.name, e.target.checked) });
  }
  if (f.choices.length) {
    const chosen = value === null || value === undefined ? "" : String(value);
    return h("select", {
      ...attrs, id: ids.input,
      onchange: (e) => sheetPut(model, f.name,
        e.target.value === "" ? null : f.kind === "int" ? Number(e.target.value) : e.target.value),
    }, h("option", { value: "", selected: chosen === "" }, L(model, "widget.sheet.no_choice")),
    f.choices.map((c) => h("option", { value: c, selected: chosen === String(c) }, c)));
  }
  if (f.kind === "int") {
    return h("input", { ...attrs, id: ids.input, type: "number", step: 1, min: f.min, max: f.max,
      value: value ?? null, oninput: (e) => sheetPut(model, f.name, sheetNumber(e.target)) });
  }
  return h("input", { ...attrs, id: ids.input, type: "text", value: value ?? "",
    oninput: (e) => sheetPut(model, f.name, e.target.value) });
}

function sheetField(model, f, i, uid, redraw) {
  const base = `${uid}-${i}`;
  const ids = { input: `${base}-in`, label: `${base}-label`, hint: `${base}-hint`, error: `${base}-err` };
  const bad = model.get("error_field") === f.name && model.get("error");
  const attrs = {
    "data-focus": `f:${f.name}`,
    "aria-describedby": [ids.hint, bad ? ids.error : null].filter(Boolean).join(" "),
    "aria-invalid": bad ? "true" : null,
    "aria-required": f.required ? "true" : null,
  };
  const label = f.kind === "list"
    ? h("span", { id: ids.label, class: "rpgk-sheet-label" }, f.label)
    : h("label", { id: ids.label, for: ids.input, class: "rpgk-sheet-label" }, f.label);
  return h("div", { class: "rpgk-sheet-field" + (bad ? " rpgk-sheet-bad" : "") },
    label,
    h("div", { class: "rpgk-sheet-edit" },
      h("div", { class: "rpgk-row" },
        sheetEditor(model, f, ids, redraw, attrs),
        f.own ? h("button", {
          type: "button", "data-focus": `rmf:${f.name}`, "aria-describedby": ids.label,
          onclick: () => send(model, "remove_field", { name: f.name }),
        }, L(model, "widget.sheet.remove_field")) : null),
      h("div", { id: ids.hint, class: "rpgk-muted rpgk-sheet-hint" }, sheetHint(model, f)),
      bad ? h("div", { id: ids.error, class: "rpgk-sheet-err" }, model.get("error")) : null));
}

function sheetState(model) {
  const none = () => h("p", { class: "rpgk-muted" }, L(model, "widget.sheet.none"));
  const resources = model.get("resources") || [];
  const conditions = model.get("conditions") || [];
  return h("div", { class: "rpgk-sheet-state" },
    h("h4", {}, L(model, "widget.sheet.resources")),
    resources.length ? h("table", { class: "rpgk-table" }, h("tbody", {}, resources.map((r) =>
      h("tr", {}, h("th", { scope: "row" }, r.name), h("td", {}, `${r.value} / ${r.max}`))))) : none(),
    h("h4", {}, L(model, "widget.sheet.conditions")),
    conditions.length ? h("ul", {}, conditions.map((c) => h("li", {}, c.name,
      c.left === null || c.left === undefined ? null : [" ", L(model, "widget.sheet.left", { n: c.left })])))
      : none());
}

function render({ model, el }) {
  // unique in the page: each widget's module is a separate instance, so a module-level counter is not
  const uid = `rpgk-sheet-${Math.random().toString(36).slice(2, 10)}`;
  const added = { name: "", kind: "text" };   // the "new field" inputs survive redraws
  let shownError = "";
  let focusNext = null;
  let known = new Set();   // field names at the last draw

  const redraw = (focus) => {
    el.replaceChildren(draw());
    if (focus) el.querySelector(`[data-focus="${CSS.escape(focus)}"]`)?.focus();
  };

  const addForm = () => h("form", {
    class: "rpgk-row rpgk-sheet-add", novalidate: true, onkeydown: submitOnEnter,
    onsubmit: (e) => {
      e.preventDefault();
      focusNext = `f:${added.name.trim()}`;
      send(model, "add_field", { name: added.name, kind: added.kind });
    },
  },
  h("span", { class: "rpgk-sheet-label" }, L(model, "widget.sheet.new_field")),
  h("label", { for: `${uid}-new` }, L(model, "widget.sheet.field_name")),
  h("input", { id: `${uid}-new`, type: "text", value: added.name, "data-focus": "new-name",
    oninput: (e) => { added.name = e.target.value; } }),
  h("label", { for: `${uid}-kind` }, L(model, "widget.sheet.field_kind")),
  h("select", { id: `${uid}-kind`, "data-focus": "new-kind", onchange: (e) => { added.kind = e.target.value; } },
    ["int", "text", "bool", "list"].map((k) =>
      h("option", { value: k, selected: k === added.kind }, L(model, `widget.sheet.kind_${k}`)))),
  h("button", { type: "submit", "data-focus": "new-add" }, L(model, "widget.sheet.add_field")));

  const draw = () => {
    const fields = model.get("fields") || [];
    const names = new Set(fields.map((f) => f.name));
    if (names.has(added.name.trim()) && !known.has(added.name.trim())) added.name = "";   // it was added
    known = names;
    const ruleset = model.get("ruleset");
    const form = h("form", {
      class: "rpgk-sheet-form", novalidate: true, "aria-label": L(model, "widget.sheet.form"),
      onsubmit: (e) => { e.preventDefault(); send(model, "save", { draft: sheetDraft(model) }); },
      onkeydown: submitOnEnter,   // Enter saves from every editor, also from a checkbox
    },
    fields.length ? fields.map((f, i) => sheetField(model, f, i, uid, redraw))
      : h("p", { class: "rpgk-muted" }, L(model, "widget.sheet.empty")),
    h("div", { class: "rpgk-row" },
      h("button", { type: "submit", "data-focus": "save" }, L(model, "widget.sheet.save")),
      h("button", { type: "button", "data-focus": "discard", onclick: () => send(model, "reload") },
        L(model, "widget.sheet.discard"))));
    const root = h("div", { class: "rpgk-w rpgk-sheet" },
      h("h3", {}, L(model, "widget.sheet.heading"), " ", h("span", {}, model.get("figure")),
        ruleset ? h("span", { class: "rpgk-muted" }, ` (${ruleset})`) : null),
      model.get("stale") ? h("div", { class: "rpgk-sheet-stale", role: "status" },
        L(model, "widget.sheet.stale"), " ",
        h("button", { type: "button", "data-focus": "stale-reload", onclick: () => send(model, "reload") },
          L(model, "widget.sheet.reload"))) : null,
      statusBox(model),
      h("div", { class: "rpgk-sheet-body" }, form, sheetState(model)),
      model.get("extensible") ? addForm() : null);
    // after a refused save, go to the field the error is about; after adding a field, to its editor
    const error = `${model.get("error_field")}\n${model.get("error")}`;
    const target = model.get("error_field") && error !== shownError ? `f:${model.get("error_field")}` : focusNext;
    shownError = error;
    focusNext = null;
    if (target) {
      queueMicrotask(() => el.querySelector(`[data-focus="${CSS.escape(target)}"]`)?.focus());
    }
    return root;
  };

  const stop = redrawOn(model, el, SHEET_TRAITS, draw);
  const stopPolling = pollWhileShown(model, el, POLL_MS);   // other notebooks' writes
  return () => { stop(); stopPolling(); };
}

export default { render: relabelled(render) };
