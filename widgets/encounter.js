// Encounter panel: initiative order, resources, conditions, actions as %%resolve lines, open choices, journal.
// Every piece of data arrives as JSON in traits and is shown as text; nothing is parsed as HTML.
// The order table updates only the rows that changed, so a turn change with hundreds of combatants is cheap.

const PANEL_POLL_MS = 3000;   // how often a visible panel asks Python for other notebooks' writes
const PANEL_LIVE_POLL_MS = 500;   // … while a player link is valid: a player's roll or suggestion shows at once
const PANEL_AGE_MS = 30000;   // how often the suggestions' ages are said anew
const PANEL_ROWS_PER_FRAME = 25;  // rows built per frame: the first frame fills the visible part of the table

/** The form's state as last written by this view (the "form" trait), and a setter that syncs it. */
function panelForm(model) {
  const state = { form: { ...(model.get("form") || {}) }, written: null };
  state.set = (patch) => {
    state.form = { ...state.form, ...patch };
    state.written = JSON.stringify(state.form);
    model.set("form", state.form);
    model.save_changes();
  };
  // A message to Python with the form as this view has it: a state update still held back by
  // ipywidgets (one at a time is in flight) must not make an action run on older choices.
  state.send = (type, payload) => send(model, type, { ...(payload || {}), form: state.form });
  state.pull = () => {  // a change Python made (or another view): take it over; true if it was not ours
    const now = model.get("form") || {};
    const changed = JSON.stringify(now) !== state.written;
    state.form = { ...now };
    state.written = JSON.stringify(state.form);
    return changed;
  };
  return state;
}

function panelNames(model) {
  return (model.get("rows") || []).map((r) => r.name);
}

function panelOptions(names, selected, blank, labels) {
  const chosen = new Set(selected);
  const out = blank === undefined ? [] : [h("option", { value: "", selected: chosen.size === 0 }, blank)];
  names.forEach((n, i) => out.push(h("option", { value: n, selected: chosen.has(n) }, (labels || names)[i] ?? n)));
  return out;
}

function panelCode(text) {
  return text ? h("pre", { class: "rpgk-line" }, h("code", {}, text)) : null;
}

// -- header and buttons -----------------------------------------------------------------
function panelHead(model, form) {
  const p = model.get("panel") || {};
  const rules = model.get("rules") || {};
  if (!p.name) return h("div", {}, h("h3", {}, L(model, "widget.panel.none")));
  const facts = [];
  if (p.round) {
    facts.push(L(model, "widget.panel.round", { round: p.round }));
    if (p.segments && p.segment != null) {
      facts.push(L(model, "widget.panel.segment", { segment: p.segment, segments: p.segments }));
    }
    facts.push(L(model, "widget.panel.turn", { figure: p.current }));
  } else {
    facts.push(L(model, "widget.panel.waiting"), L(model, "widget.panel.count", { n: p.count }));
  }
  if (p.out) facts.push(L(model, "widget.panel.out_count", { n: p.out }));
  const button = (type, key, disabled) => h("button", {
    type: "button", "data-focus": type, disabled: !!disabled, onclick: () => form.send(type),
  }, L(model, key));
  const buttons = p.round
    ? [button("next_turn", "widget.panel.next_turn"), button("next_round", "widget.panel.next_round"),
      h("button", { type: "button", "data-focus": "new_initiative",
        onclick: () => form.send("next_round", { new_initiative: true }) }, L(model, "widget.panel.new_initiative"))]
    : [button("start", "widget.panel.start", !p.count)];
  buttons.push(button("undo", "widget.panel.undo", !p.undo), button("redo", "widget.panel.redo", !p.redo));
  if (!p.active) buttons.push(button("activate", "widget.panel.activate"));
  buttons.push(h("label", { class: "rpgk-field rpgk-flag", title: L(model, "widget.panel.skip_out_help") },
    h("input", { type: "checkbox", "data-focus": "skip_out", checked: p.skip_out !== false,
      onchange: (e) => form.send("skip_out", { skip: e.target.checked }) }),
    L(model, "widget.panel.skip_out")));
  if (p.round && p.segments) {
    const choices = [h("option", { value: "", selected: p.segment == null }, "–")];
    for (let i = 1; i <= p.segments; i++) choices.push(h("option", { value: i, selected: p.segment === i }, i));
    buttons.push(h("label", {}, L(model, "widget.panel.segment_label"), " ",
      h("select", { "data-focus": "segment", onchange: (e) => send(model, "segment", { segment: e.target.value }) },
        choices)));
  }
  const removed = (p.removed || []).length ? h("div", { class: "rpgk-row rpgk-removed" },
    h("span", { class: "rpgk-field-label" }, L(model, "widget.panel.removed")),
    p.removed.map((name) => h("button", {
      type: "button", "data-focus": `restore:${name}`, title: L(model, "widget.panel.restore_help", { name }),
      onclick: () => form.send("restore", { name }),
    }, L(model, "widget.panel.restore", { name })))) : null;
  return h("div", {},
    h("h3", {}, p.name, " ", h("span", { class: "rpgk-muted" }, rules.title || "")),
    h("div", { class: "rpgk-panel-facts", role: "status" }, facts.join(" · ")),
    h("div", { class: "rpgk-row" }, buttons), removed);
}

/** A row's buttons: acts (the action form's actor), remove, delay, act now, move up and down, roll anew,
 * hide or reveal (a running fight: all). */
function panelRowActions(model, form, r, running) {
  const act = (type, key, extra) => h("button", {
    type: "button", "data-focus": `row:${r.name}:${type}${extra ? ":" + extra.direction : ""}`,
    title: L(model, `${key}_help`, { name: r.name }), "aria-label": L(model, `${key}_help`, { name: r.name }),
    onclick: () => form.send(type, { name: r.name, ...(extra || {}) }),
  }, L(model, key));
  const acts = h("button", {
    type: "button", class: "rpgk-acts", "data-focus": `row:${r.name}:acts`, "aria-pressed": "false",
    title: L(model, "widget.panel.row_acts_help", { name: r.name }),
    "aria-label": L(model, "widget.panel.row_acts_help", { name: r.name }),
    onclick: () => form.pickActor(r.name),
  }, L(model, "widget.panel.row_acts"));
  const out = [acts, act("remove", "widget.panel.row_remove")];
  if (running) {
    if (!r.held) out.push(act("delay", "widget.panel.row_delay"));
    out.push(act("now", "widget.panel.row_now"));
    if (!r.held) {
      out.push(act("move", "widget.panel.row_up", { direction: "up" }),
        act("move", "widget.panel.row_down", { direction: "down" }));
    }
    if (r.reroll) out.push(act("reroll", "widget.panel.row_reroll"));
  }
  out.push(r.hidden ? act("reveal", "widget.panel.row_reveal") : act("hide", "widget.panel.row_hide"));
  return h("td", { class: "rpgk-row-actions" }, out);
}

/** What the form acts with: the verb chosen, its actors (none chosen: whose turn it is) and targets. */
function panelChosen(model, form) {
  const verbs = (model.get("rules") || {}).verbs || [];
  const verb = verbs.find((v) => v.name === form.form.verb) || verbs[0] || { actors: "many", targets: "none" };
  const chosen = form.form.actors || [];
  const current = (model.get("panel") || {}).current;
  return { verb, actors: chosen.length ? chosen : (current ? [current] : []), targets: form.form.targets || [] };
}

// -- the order table (keyed rows, only changed rows rebuilt) ---------------------------------
function panelTable(model, form) {
  const tbody = h("tbody");
  const headRow = h("tr");
  const caption = h("caption", { class: "rpgk-sr" });
  const wrap = h("div", { class: "rpgk-order-wrap" },
    h("table", { class: "rpgk-table rpgk-order" }, caption, h("thead", {}, headRow), tbody));
  const cache = new Map();   // name -> {key, tr}
  let rulesKey = null;
  let headKey = null;
  let currentName = null;
  let later = 0;             // a scheduled frame that builds more rows

  // a value typed into a row (-5, +3, =7): the resource edited, on this row or on every row picked with it
  let editing = null;   // {name, resource, text, sent}
  const editNames = (name) => {
    const picks = form.rowPicks().names;
    return picks.includes(name) && picks.length > 1 ? picks : [name];
  };
  const openEdit = (name, resource, text) => {
    editing = { name, resource, text, sent: false };
    update();
    const input = wrap.querySelector(`[data-focus="${CSS.escape(`edit:${name}:${resource}`)}"]`);
    if (input) { input.focus(); input.setSelectionRange(text.length, text.length); }
  };
  const closeEdit = (refocus) => {
    if (!editing) return;
    const name = editing.name;
    editing = null;
    update();
    if (refocus) focusRow(cache.get(name)?.tr);
  };
  const editor = (r, name) => {
    const names = editNames(r.name);
    const label = L(model, names.length > 1 ? "widget.panel.edit_many" : "widget.panel.edit_help",
      { name, who: names.join(", ") });
    return h("input", {
      type: "text", class: "rpgk-res-input", value: editing.text, size: 6, "data-focus": `edit:${r.name}:${name}`,
      placeholder: L(model, "widget.panel.edit_hint"), title: label, "aria-label": label, autocomplete: "off",
      oninput: (e) => { editing.text = e.target.value; editing.sent = false; },
      onkeydown: (e) => {
        if (e.isComposing) return;
        if (e.key === "Enter") {
          editing.sent = true;
          form.send("edit", { names, resource: name, change: e.target.value });
        } else if (e.key === "Escape") {
          closeEdit(true);
        } else {
          return;   // typing stays in the field (and out of the table's keys)
        }
        e.preventDefault();
        e.stopPropagation();
      },
      onblur: () => { if (editing && !editing.sent) setTimeout(() => { if (editing && !editing.sent && !wrap.contains(document.activeElement)) closeEdit(false); }, 0); },
    });
  };
  const resource = (r, res) => {
    if (editing && editing.name === r.name && editing.resource === res[0]) return editor(r, res[0]);
    const label = L(model, "widget.panel.edit_help", { name: res[0], who: r.name });
    return h("button", { type: "button", class: "rpgk-res-edit", "data-focus": `res:${r.name}:${res[0]}`,
      title: label, onclick: () => openEdit(r.name, res[0], "") }, bar(res));
  };

  const bar = ([name, value, max]) => {
    const share = max > 0 ? Math.max(0, Math.min(1, value / max)) : 0;
    const level = share <= 0 ? "empty" : share < 0.34 ? "low" : "ok";
    return h("span", {
      class: `rpgk-meter rpgk-meter-${level}`, role: "meter", "aria-valuemin": 0, "aria-valuemax": Math.max(0, max),
      "aria-valuenow": Math.max(0, Math.min(value, Math.max(0, max))),
      "aria-label": L(model, "widget.panel.bar", { name, value, max }), style: `--fill:${(share * 100).toFixed(1)}%`,
    }, `${name} ${value}/${max}`);
  };

  const row = (r, withRolls, running, withIni) => {
    const about = (model.get("rules") || {}).conditions || {};
    const conds = r.cond.map(([name, left]) => h("span", { class: "rpgk-cond", title: about[name] || null },
      left == null ? name : [name, " ", h("span", { class: "rpgk-cond-left" }, `(${L(model, "condition.left", { n: left })})`)]));
    const marks = [r.hidden ? L(model, "widget.panel.mark_hidden") : null,
      r.held ? L(model, "widget.panel.mark_held") : null,
      r.group ? L(model, "widget.panel.mark_group", { label: r.group }) : null,
    ].filter(Boolean).map((text) => h("span", { class: "rpgk-mark" }, text));
    const cells = [
      h("th", { scope: "row" }, r.name, marks.length ? " " : null, marks,
        r.out ? h("span", { class: "rpgk-out-reason" }, r.out) : null),
      withIni ? h("td", { class: "rpgk-ini" }, r.ini ?? "–") : null,
      h("td", { class: "rpgk-side" }, r.side),
      h("td", { class: "rpgk-res" }, r.res.map((res) => resource(r, res))),
      h("td", { class: "rpgk-conds" }, conds),
    ];
    if (withRolls) {
      const rolls = form.form.rolls || {};
      cells.push(h("td", {}, r.roll ? h("input", {
        type: "number", class: "rpgk-roll", value: rolls[r.name] ?? "", "data-focus": `roll:${r.name}`,
        "aria-label": L(model, "widget.panel.initiative_of", { name: r.name }),
        oninput: (e) => form.set({ rolls: { ...(form.form.rolls || {}), [r.name]: e.target.value } }),
      }) : ""));
    }
    cells.push(panelRowActions(model, form, r, running));
    const kind = [r.out ? "rpgk-out" : "", r.hidden ? "rpgk-hidden-row" : "", r.held ? "rpgk-held-row" : ""].join(" ").trim();
    // out of the fight: greyed, with its reason; a click or Space picks it as a target
    return h("tr", { class: kind || null, "data-name": r.name, tabindex: "-1", "aria-selected": "false" }, cells);
  };

  // the picks (targets, actors) are painted on the rows in place: a click rebuilds no row
  let painted = { targets: new Set(), actors: new Set() };
  const paint = () => {
    const { actors, targets } = panelChosen(model, form);
    const now = { targets: new Set(targets), actors: new Set(actors) };
    for (const name of new Set([...painted.targets, ...painted.actors, ...now.targets, ...now.actors])) {
      const tr = cache.get(name)?.tr;
      if (!tr) continue;
      tr.setAttribute("aria-selected", String(now.targets.has(name)));
      tr.classList.toggle("rpgk-acting", now.actors.has(name));
      tr.querySelector(".rpgk-acts")?.setAttribute("aria-pressed", String(now.actors.has(name)));
    }
    painted = now;
  };
  const rowOf = (node) => node instanceof Element ? node.closest("tr[data-name]") : null;
  const focusRow = (tr) => {
    if (!tr) return;
    for (const other of tbody.querySelectorAll("tr[tabindex='0']")) other.setAttribute("tabindex", "-1");
    tr.setAttribute("tabindex", "0");
    tr.focus();
  };
  tbody.addEventListener("click", (e) => {
    const tr = rowOf(e.target);
    if (!tr || e.target.closest("button, input, select, label, a")) return;
    form.pickTarget(tr.dataset.name, e.ctrlKey || e.metaKey || e.shiftKey);
    focusRow(tr);
  });
  // the keyboard in the table: the row's own keys; every key handled here stays out of JupyterLab
  tbody.addEventListener("keydown", (e) => {
    const tr = rowOf(e.target);
    if (!tr || e.target !== tr || e.isComposing) return;
    const name = tr.dataset.name;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const step = (next) => focusRow(next || null);
    const edit = (sign) => {   // a value of the row's first resource, its sign typed already
      const first = ((model.get("rows") || []).find((r) => r.name === name)?.res || [])[0];
      if (first) openEdit(name, first[0], sign);
    };
    const handled = {
      ArrowDown: () => step(tr.nextElementSibling),
      ArrowUp: () => step(tr.previousElementSibling),
      Home: () => step(tbody.firstElementChild),
      End: () => step(tbody.lastElementChild),
      " ": () => form.pickTarget(name, e.ctrlKey || e.metaKey || e.shiftKey),
      Enter: () => form.pickTarget(name, e.ctrlKey || e.metaKey || e.shiftKey),
      Escape: () => { form.set({ [form.rowPicks().key]: [] }); form.picked(); },
      a: () => form.pickActor(name),
      n: () => form.send("next_turn"),
      s: () => form.send("delay", { name }),
      j: () => form.send("now", { name }),
      v: () => form.send(tr.classList.contains("rpgk-hidden-row") ? "reveal" : "hide", { name }),
      w: () => form.send("reroll", { name }),
      "-": () => edit("-"), "+": () => edit("+"), "=": () => edit("="),
      Delete: () => form.send("remove", { name }),
    };
    let run = e.altKey ? null : handled[key];
    if (e.altKey && (key === "ArrowUp" || key === "ArrowDown")) {
      run = () => form.send("move", { name, direction: key === "ArrowUp" ? "up" : "down" });
    }
    if ((e.ctrlKey || e.metaKey) && key === "Enter") run = () => form.send("act");   // act from the row
    if (!run || (e.ctrlKey && key !== " " && key !== "Enter")) return;
    e.preventDefault();
    e.stopPropagation();
    run();
  });

  const markCurrent = (name) => {
    const old = currentName !== null ? cache.get(currentName) : null;
    if (old) old.tr.removeAttribute("aria-current");
    currentName = name ?? null;
    const now = currentName !== null ? cache.get(currentName) : null;
    if (!now) return;
    now.tr.setAttribute("aria-current", "true");
    requestAnimationFrame(() => {  // keep the current row in view inside the table's own scroll area
      const top = now.tr.offsetTop;  // read after this update's DOM changes: one layout, not two
      if (top < wrap.scrollTop || top + now.tr.offsetHeight > wrap.scrollTop + wrap.clientHeight) {
        wrap.scrollTop = Math.max(0, top - wrap.clientHeight / 3);
      }
    });
  };

  const update = () => {
    const rows = model.get("rows") || [];
    const panel = model.get("panel") || {};
    // a ruleset without an initiative roll has an order, not an initiative order
    caption.textContent = L(model, (model.get("rules") || {}).initiative === false ? "widget.panel.order_plain" : "widget.panel.order");
    const withRolls = !panel.round && rows.some((r) => r.roll);
    const running = !!panel.round;
    const withIni = running && rows.some((r) => r.ini != null);   // this round's initiative, where rolled
    // a row's button keeps the focus when its row is rebuilt (it names the row, not the place)
    const active = wrap.contains(document.activeElement) ? document.activeElement : null;
    const focused = active ? (active.getAttribute("data-focus") || (active.dataset.name && `tr:${active.dataset.name}`)) : null;
    const rk = JSON.stringify((model.get("rules") || {}).conditions || {}) + withRolls + running + withIni;
    if (rk !== rulesKey) { cache.clear(); tbody.replaceChildren(); rulesKey = rk; currentName = null; }
    if (headKey !== rk) {
      headKey = rk;
      const cols = ["col_name", ...(withIni ? ["col_ini"] : []), "col_side", "col_resources", "col_conditions"];
      if (withRolls) cols.push("col_initiative");
      cols.push("col_actions");
      headRow.replaceChildren(...cols.map((k) => h("th", { scope: "col" }, L(model, `widget.panel.${k}`))));
    }
    const seen = new Set();
    let built = 0;
    let i = 0;
    for (; i < rows.length; i++) {
      const r = rows[i];
      const key = JSON.stringify(r) + (editing && editing.name === r.name ? `\u0000${editing.resource}` : "");
      let entry = cache.get(r.name);
      if (!entry || entry.key !== key) {
        if (built === PANEL_ROWS_PER_FRAME) break;
        built++;
        const tr = row(r, withRolls, running, withIni);
        if (entry) {
          entry.tr.replaceWith(tr);
          if (r.name === currentName) currentName = null;
        }
        entry = { key, tr };
        cache.set(r.name, entry);
      }
      seen.add(r.name);
      if (tbody.children[i] !== entry.tr) tbody.insertBefore(entry.tr, tbody.children[i] || null);
    }
    if (i < rows.length) {  // the rows below the first screenful follow in the next frames
      for (const r of rows.slice(i)) seen.add(r.name);
      if (!later) later = requestAnimationFrame(() => { later = 0; update(); });
    }
    for (const [name, entry] of cache) {
      if (!seen.has(name)) { entry.tr.remove(); cache.delete(name); if (name === currentName) currentName = null; }
    }
    if (panel.current !== currentName) markCurrent(panel.current);  // a rebuilt current row reset currentName
    if (!tbody.querySelector("tr[tabindex='0']")) tbody.firstElementChild?.setAttribute("tabindex", "0");
    paint();   // a rebuilt row starts unpicked
    if (focused && !wrap.contains(document.activeElement)) {
      const again = focused.startsWith("tr:") ? cache.get(focused.slice(3))?.tr
        : wrap.querySelector(`[data-focus="${CSS.escape(focused)}"]`);
      if (again && again.tagName === "TR") focusRow(again); else again?.focus();
    }
  };
  // the edit sent: its result closes the field; an error leaves it open with the text typed
  const edited = () => { if (editing?.sent) closeEdit(true); };
  const failed = () => { if (editing?.sent && model.get("error")) editing.sent = false; };
  return { node: wrap, update, paint, edited, failed };
}

/** Under the table: the rows picked, and what can be done with them together (group initiative). */
function panelPicks(model, form) {
  const p = model.get("panel") || {};
  if (!p.name) return h("div");
  const { key, names: picked } = form.rowPicks();
  const rows = new Map((model.get("rows") || []).map((r) => [r.name, r]));
  const button = (type, key, payload, help) => h("button", {
    type: "button", "data-focus": `picks:${type}`, title: help || null, onclick: () => form.send(type, payload),
  }, L(model, key));
  const out = [];
  if (picked.length) {
    const together = [h("span", { class: "rpgk-field-label" }, L(model, "widget.panel.picked")), " ",
      h("strong", {}, picked.join(", "))];
    if (picked.length > 1) {
      together.push(button("group", "widget.panel.group", { names: picked },
        L(model, "widget.panel.group_help")));
    }
    if (picked.some((n) => rows.get(n)?.group)) {
      together.push(button("ungroup", "widget.panel.ungroup", { names: picked.filter((n) => rows.get(n)?.group) },
        L(model, "widget.panel.ungroup_help")));
    }
    together.push(h("button", { type: "button", "data-focus": "picks:clear",
      onclick: () => { form.set({ [key]: [] }); form.picked(); } }, L(model, "widget.panel.clear")));
    out.push(h("div", { class: "rpgk-row rpgk-picks" }, together));
  }
  return h("div", {}, out);
}

/** Under the picks: joining the fight (a character of the campaign, or a new one like a combatant), and
 * the table's keys. */
function panelJoin(model, form, join, redraw) {
  const p = model.get("panel") || {};
  if (!p.name) return h("div");
  const keys = h("div", { class: "rpgk-muted rpgk-help rpgk-keys" }, L(model, "widget.panel.keys"));
  const summary = h("summary", { "data-focus": "join:open" }, L(model, "widget.panel.join_open"));
  const toggle = (e) => {
    if (e.target.open === !!join.open) return;
    join.open = e.target.open;
    if (join.open) form.send("library");   // the library as it stands now (another notebook may have kept one)
    redraw();
  };
  if (!join.open) {   // closed: its fields (a choice per combatant) are built when the GM opens it
    return h("div", {}, h("details", { class: "rpgk-join-box", ontoggle: toggle }, summary), keys);
  }
  const rows = new Map((model.get("rows") || []).map((r) => [r.name, r]));
  if (join.count != null && rows.size > join.count) Object.assign(join, { who: "", name: "", initiative: "", count: null });
  // a new one like a combatant without a name: the next free number
  const choices = [h("option", { value: "", selected: !join.who }, L(model, "widget.panel.join_choose"))];
  if ((p.joinable || []).length) {
    choices.push(h("optgroup", { label: L(model, "widget.panel.join_characters") },
      p.joinable.map((n) => h("option", { value: `figur:${n}`, selected: join.who === `figur:${n}` }, n))));
  }
  if (rows.size) {
    choices.push(h("optgroup", { label: L(model, "widget.panel.join_like") },
      [...rows.keys()].map((n) => h("option", { value: `wie:${n}`, selected: join.who === `wie:${n}` }, L(model, "widget.panel.join_like_one", { name: n })))));
  }
  const field = (label, control, help) => h("label", { class: "rpgk-field", title: help }, h("span", { class: "rpgk-field-label" }, label), control);
  const joinForm = h("form", {
    class: "rpgk-row rpgk-join", "aria-label": L(model, "widget.panel.join"), onkeydown: submitOnEnter,
    onsubmit: (e) => {
      e.preventDefault();
      join.count = rows.size;   // the fields empty once the newcomer's row is there (an error keeps them)
      const [kind, name] = [join.who.slice(0, join.who.indexOf(":")), join.who.slice(join.who.indexOf(":") + 1)];
      form.send("join", { figure: kind === "figur" ? name : null, like: kind === "wie" ? name : null,
        name: join.name, initiative: join.initiative });
    },
  },
  field(L(model, "widget.panel.join"), h("select", { "data-focus": "join:who", onchange: (e) => { join.who = e.target.value; } },
    choices), L(model, "widget.panel.join_help")),
  field(L(model, "widget.panel.join_name"), h("input", { type: "text", "data-focus": "join:name", value: join.name,
    placeholder: L(model, "widget.panel.join_name_hint"), oninput: (e) => { join.name = e.target.value; } }),
  L(model, "widget.panel.join_name_help")),
  p.round ? field(L(model, "widget.panel.join_initiative"), h("input", { type: "number", class: "rpgk-num",
    "data-focus": "join:initiative", value: join.initiative, oninput: (e) => { join.initiative = e.target.value; } }),
  L(model, "widget.panel.join_initiative_help")) : null,
  h("button", { type: "submit", "data-focus": "join:add" }, L(model, "widget.panel.join_add")));
  // open while the GM uses it (kept open over redraws)
  return h("div", {}, h("details", { class: "rpgk-join-box", open: true, ontoggle: toggle }, summary, joinForm,
    panelLibrary(model, form, join, rows)), keys);
}

/** In the join box: the library of figures (the seed's stat blocks and the GM's templates of the ruleset),
 * searched as the GM types, a template ×N into the fight; and picked rows or a side kept as a template. */
function panelLibrary(model, form, join, rows) {
  const lib = model.get("library") || {};
  const all = lib.templates || [];
  const field = (label, control, help) => h("label", { class: "rpgk-field", title: help || null },
    h("span", { class: "rpgk-field-label" }, label), control);
  const list = h("ul", { class: "rpgk-library", role: "listbox", "aria-label": L(model, "widget.panel.library") });
  const add = h("button", { type: "submit", "data-focus": "library:add" });
  const sync = () => {   // the list follows the search; the button names what it adds
    const q = (join.query || "").trim().toLocaleLowerCase("de");
    const hits = all.filter((x) => x.name.toLocaleLowerCase("de").includes(q));
    if (!hits.some((x) => x.name === join.template)) join.template = hits.length === 1 ? hits[0].name : "";
    list.replaceChildren(...(hits.length ? hits.slice(0, 12).map((x) => h("li", {
      role: "option", "aria-selected": String(x.name === join.template), "data-template": x.name, tabindex: "-1",
      onclick: () => { join.template = x.name; sync(); },
    }, h("strong", {}, x.name), " ",
    x.source === "regeltext" ? h("span", { class: "rpgk-mark" }, L(model, "widget.panel.library_seed")) : null,
    " ", h("span", { class: "rpgk-muted" }, x.summary))) : [h("li", { class: "rpgk-muted" }, L(model, "widget.panel.library_none"))]));
    add.textContent = L(model, "widget.panel.library_add", { name: join.template || "…", n: join.times || 1 });
    add.disabled = !join.template;
  };
  const sides = [...new Set([...rows.values()].map((r) => r.side).filter(Boolean))];
  const search = h("form", {
    class: "rpgk-row rpgk-join", "aria-label": L(model, "widget.panel.library"), onkeydown: submitOnEnter,
    onsubmit: (e) => {
      e.preventDefault();
      if (join.template) form.send("add_template", { name: join.template, count: join.times || "1", side: join.side || "" });
    },
  },
  field(L(model, "widget.panel.library_search"), h("input", { type: "search", "data-focus": "library:search", value: join.query || "",
    placeholder: L(model, "widget.panel.library_search_hint"), oninput: (e) => { join.query = e.target.value; sync(); } }),
  L(model, "widget.panel.library_help")),
  field(L(model, "widget.panel.library_count"), h("input", { type: "number", min: 1, class: "rpgk-num", "data-focus": "library:count",
    value: join.times || "1", oninput: (e) => { join.times = e.target.value; sync(); } })),
  field(L(model, "widget.panel.library_side"), h("input", { type: "text", "data-focus": "library:side", value: join.side || "",
    list: "rpgk-sides", size: 10, oninput: (e) => { join.side = e.target.value; } })),
  add);
  sync();
  // keep figures of the fight: the rows picked, or a whole side
  const whoChoices = [h("option", { value: "", selected: !join.saveWho }, L(model, "widget.panel.library_save_picked"))];
  for (const side of sides) {
    whoChoices.push(h("option", { value: side, selected: join.saveWho === side }, L(model, "widget.panel.library_save_side", { side })));
  }
  const save = h("form", {
    class: "rpgk-row rpgk-join", "aria-label": L(model, "widget.panel.library_save"), onkeydown: submitOnEnter,
    onsubmit: (e) => {
      e.preventDefault();
      form.send("save_template", join.saveWho ? { template: join.saveName || "", side: join.saveWho }
        : { template: join.saveName || "", names: form.rowPicks().names });
    },
  },
  field(L(model, "widget.panel.library_save_who"), h("select", { "data-focus": "library:save_who",
    onchange: (e) => { join.saveWho = e.target.value; } }, whoChoices)),
  field(L(model, "widget.panel.library_save_name"), h("input", { type: "text", "data-focus": "library:save_name",
    value: join.saveName || "", oninput: (e) => { join.saveName = e.target.value; } })),
  h("button", { type: "submit", "data-focus": "library:save" }, L(model, "widget.panel.library_save_button")));
  return h("div", { class: "rpgk-library-box" },
    h("h5", {}, L(model, "widget.panel.library")), search, list,
    h("datalist", { id: "rpgk-sides" }, sides.map((x) => h("option", { value: x }))),
    h("h5", {}, L(model, "widget.panel.library_save")), save);
}

/** Who acts and on whom, as picked in the rows, each with a button that clears the picks. */
function panelWho(model, form, verb) {
  const { actors, targets } = panelChosen(model, form);
  const picked = (label, names, empty, clear, key) => h("div", { class: "rpgk-picked", "data-picked": key },
    h("span", { class: "rpgk-field-label" }, label), " ",
    names.length ? h("strong", {}, names.join(", ")) : h("span", { class: "rpgk-muted" }, empty),
    clear && names.length ? h("button", { type: "button", "data-focus": `clear:${key}`,
      "aria-label": L(model, "widget.panel.clear_help", { what: label }), title: L(model, "widget.panel.clear_help", { what: label }),
      onclick: () => { form.set({ [key]: [] }); form.picked(); } }, "✕") : null);
  const out = [picked(L(model, "widget.panel.actor"), actors, L(model, "widget.panel.no_actor"),
    (form.form.actors || []).length > 0, "actors")];
  if (verb.targets !== "none") {
    const multi = verb.targets === "required";
    out.push(picked(L(model, multi ? "widget.panel.targets" : "widget.panel.target"), targets,
      L(model, "widget.panel.pick_target"), true, "targets"));
  }
  return out;
}

// -- the action form ----------------------------------------------------------------------
function panelAction(model, form, redraw) {
  const rules = model.get("rules") || {};
  const verbs = rules.verbs || [];
  if (!verbs.length || !(model.get("panel") || {}).name) return h("div");
  const f = form.form;
  const verb = verbs.find((v) => v.name === f.verb) || verbs[0];
  const names = panelNames(model);
  const field = (label, control, hint) => h("label", { class: "rpgk-field" },
    h("span", { class: "rpgk-field-label" }, label), control, hint ? h("span", { class: "rpgk-muted" }, hint) : null);

  const verbSelect = h("select", {
    "data-focus": "verb", title: verb.help,
    onchange: (e) => { form.set({ verb: e.target.value, options: {} }); redraw(); },
  }, verbs.map((v) => h("option", { value: v.name, selected: v.name === verb.name, title: v.help },
    v.name.replaceAll("_", " "))));   // the word of the line, spelled as words

  // who acts and on whom: picked in the table's rows, said here (a pick updates only this part)
  const who = h("div", { class: "rpgk-who" }, panelWho(model, form, verb));
  form.redrawWho = () => {
    const focused = who.contains(document.activeElement) ? document.activeElement.getAttribute("data-focus") : null;
    who.replaceChildren(...panelWho(model, form, verb));
    if (focused) (who.querySelector(`[data-focus="${CSS.escape(focused)}"]`) || verbSelect).focus();
  };
  const controls = [field(L(model, "widget.panel.verb"), verbSelect), who];
  const values = f.options || {};
  const setOption = (name, value) => form.set({ options: { ...(form.form.options || {}), [name]: value } });
  // one line under the options: the help of the option the GM points at or is in
  const optionHelp = h("div", { class: "rpgk-muted rpgk-help rpgk-option-help", "aria-live": "polite" });
  const about = (o) => ({ title: o.help, onfocusin: () => { optionHelp.textContent = o.help; },
    onmouseenter: () => { optionHelp.textContent = o.help; } });
  const options = verb.options.map((o) => {
    const focus = `opt:${o.name}`;
    if (o.kind === "flag") {
      return h("label", { class: "rpgk-field rpgk-flag", ...about(o) }, h("input", {
        type: "checkbox", "data-focus": focus, checked: values[o.name] === true,
        onchange: (e) => setOption(o.name, e.target.checked),
      }), o.label);
    }
    const control = o.kind === "name"
      ? h("select", { "data-focus": focus, onchange: (e) => setOption(o.name, e.target.value) },
        panelOptions(names, values[o.name] ? [values[o.name]] : [], L(model, "widget.panel.no_figure")))
      : h("input", {
        type: o.kind === "int" ? "number" : "text", "data-focus": focus, value: values[o.name] ?? "",
        class: o.kind === "int" ? "rpgk-num" : null, oninput: (e) => setOption(o.name, e.target.value),
      });
    return h("label", { class: "rpgk-field", ...about(o) }, h("span", { class: "rpgk-field-label" }, o.label), control);
  });
  const dice = field(L(model, "widget.panel.dice"), h("input", {
    type: "text", "data-focus": "dice", value: f.dice ?? "", placeholder: L(model, "widget.panel.dice_hint"),
    oninput: (e) => form.set({ dice: e.target.value }),
  }));
  return h("section", { class: "rpgk-panel-action", "aria-label": L(model, "widget.panel.action") },
    h("h4", {}, L(model, "widget.panel.action")),
    h("div", { class: "rpgk-row" }, controls),
    h("div", { class: "rpgk-muted rpgk-help" }, verb.help, verb.example ? ` – ${verb.example}` : ""),
    options.length ? h("div", { class: "rpgk-row" }, options) : null,
    options.length ? optionHelp : null,
    h("div", { class: "rpgk-row" }, dice,
      h("button", { type: "button", "data-focus": "preview", onclick: () => form.send("preview") },
        L(model, "widget.panel.preview")),
      h("button", { type: "button", class: "rpgk-primary", "data-focus": "act", onclick: () => form.send("act") },
        L(model, "widget.panel.run"))));
}

// -- preview and result ---------------------------------------------------------------------
function panelPreview(model) {
  const p = model.get("preview") || {};
  if (!p.cell) return h("div");
  const items = (p.items || []).map((item, i) => h("div", { class: "rpgk-preview-item" },
    h("div", {}, item.text),
    item.chart ? drawChart(model, item.chart, `preview${i}`) : null));
  return h("section", { class: "rpgk-panel-preview", "aria-label": L(model, "widget.panel.preview") },
    h("h4", {}, L(model, "widget.panel.preview")), panelCode(p.cell), items,
    h("div", { class: "rpgk-muted" }, (p.steps || []).join(" ")));
}

function panelCard(model, c) {
  const head = `${c.action}: ${c.actors.join(", ")}` + (c.targets.length ? ` → ${c.targets.join(", ")}` : "");
  const steps = c.steps.map((s) => h("li", {}, s.text, " ",
    s.dice.map((d) => h("span", { class: "rpgk-die" + (d.kept ? "" : " rpgk-dropped"), title: `W${d.sides}` },
      d.faces.join("→"))),
    s.rule ? h("span", { class: "rpgk-muted" }, ` [${s.rule}]`) : null));
  return h("div", { class: "rpgk-card rpgk-resolution" },
    h("div", { class: "rpgk-head" }, head),
    c.outcome ? h("div", { class: "rpgk-outcome" }, c.outcome) : null,
    h("ol", {}, steps),
    c.effects.length ? h("ul", {}, c.effects.map((e) => h("li", {}, e))) : null,
    c.choices.length ? h("div", {}, h("div", { class: "rpgk-head" }, L(model, "resolution.open")),
      h("ul", {}, c.choices.map((x) => h("li", {}, x)))) : null);
}

function panelResult(model) {
  const r = model.get("result") || {};
  if (r.notice) return h("div", { class: "rpgk-notice", role: "status" }, r.notice, panelCode(r.cell));
  if (!r.cell && !r.player) return h("div");
  // what a player resolved on their page, marked with whose page it was
  const title = r.player ? L(model, "widget.panel.result_player", { figure: r.player }) : L(model, "widget.panel.result");
  return h("section", { class: "rpgk-panel-result" + (r.player ? " rpgk-by-player" : ""), "aria-label": title },
    h("h4", {}, title), panelCode(r.cell),
    (r.cards || []).map((c) => panelCard(model, c)));
}

/** The open resolution the decision form answers: the one the GM picked while it is open, else the latest. */
function panelAnswered(model, form) {
  const open = model.get("pending") || [];
  return open.find((p) => p.id === form.form.resolution) || open[open.length - 1] || null;
}

// -- open choices -----------------------------------------------------------------------------
function panelChoices(model, form, drafts, takenBox, redraw, busy) {
  const open = model.get("pending") || [];
  if (!open.length) return h("div");
  const latest = panelAnswered(model, form);
  const names = panelNames(model);

  const choiceRow = (c) => {
    const d = drafts[c.key] || (drafts[c.key] = { who: c.who[0] || names[0] || "", options: {} });
    const focus = (part) => `choice:${c.key}:${part}`;
    const offered = [...c.who, ...(c.also || [])];   // who takes it, then the allies who may (in reach)
    const others = names.filter((n) => !offered.includes(n));
    const who = h("select", { "data-focus": focus("who"), onchange: (e) => { d.who = e.target.value; redraw(); } },
      panelOptions(offered, [d.who]),
      others.length ? h("optgroup", { label: L(model, "widget.panel.others") }, panelOptions(others, [d.who])) : null);
    const fields = c.fields.map((fl) => {
      const set = (v) => { d.options[fl.name] = v; };
      let control;
      if (fl.kind === "flag") {
        control = h("input", { type: "checkbox", "data-focus": focus(fl.name), checked: d.options[fl.name] === true,
          onchange: (e) => set(e.target.checked) });
      } else if (fl.values) {
        control = h("select", { "data-focus": focus(fl.name), onchange: (e) => set(e.target.value) },
          panelOptions(fl.values, [d.options[fl.name] ?? ""], "–", fl.labels));
      } else {
        control = h("input", { type: fl.kind === "int" ? "number" : "text", "data-focus": focus(fl.name),
          class: fl.kind === "int" ? "rpgk-num" : null, value: d.options[fl.name] ?? "",
          oninput: (e) => set(e.target.value) });
      }
      return h("label", { class: "rpgk-field", title: fl.help }, h("span", { class: "rpgk-field-label" }, fl.label),
        control);
    });
    const take = () => {
      const entry = { id: latest.id, key: c.key, who: d.who, options: { ...d.options } };
      form.set({ decisions: [...(form.form.decisions || []), entry] });
      redraw();
    };
    // an advised option's button takes its lines over into the decisions, as the choice's own button does
    const takeOption = (o) => {
      const entries = o.takes.map((x) => ({ id: latest.id, key: x.key, who: x.who, options: { ...x.options } }));
      form.set({ decisions: [...(form.form.decisions || []), ...entries] });
      redraw();
    };
    return h("fieldset", { class: "rpgk-choice" },
      h("legend", {}, c.label + (c.target ? ` (${c.target})` : "")),
      h("div", { class: "rpgk-row" },
        h("label", { class: "rpgk-field" },
          h("span", { class: "rpgk-field-label" }, L(model, "widget.panel.actor")), who),
        fields,
        h("button", { type: "button", "data-focus": focus("take"), onclick: take }, L(model, "widget.panel.take"))),
      panelAdvice(model, (c.advice || []).find((a) => a.who === d.who), d, takeOption));
  };

  // several open: the GM picks the one the form answers; every decision taken over names it
  const pick = open.length > 1 ? h("label", { class: "rpgk-field" },
    h("span", { class: "rpgk-field-label" }, L(model, "widget.panel.answers_pick")),
    h("select", { "data-focus": "resolution", onchange: (e) => { form.set({ resolution: e.target.value }); redraw(); } },
      open.map((p, i) => h("option", { value: p.id, selected: p.id === latest.id },
        p.head + (i === open.length - 1 ? ` (${L(model, "widget.panel.answers_latest")})` : ""))))) : null;
  // while an action or a decision runs, the form waits (disabled) and says what runs
  return h("section", { class: "rpgk-panel-choices", "aria-label": L(model, "widget.panel.choices") },
    h("h4", {}, L(model, "widget.panel.choices")),
    busy ? h("div", { class: "rpgk-notice rpgk-busy", role: "status" }, L(model, "widget.panel.busy", { line: busy }))
      : null,
    h("fieldset", { class: "rpgk-answers", disabled: !!busy },
    pick,
    h("div", { class: "rpgk-answers-head", "data-resolution": latest.id },
      L(model, "widget.panel.answers", { action: latest.head })),
    panelCode(latest.source),
    h("div", { class: "rpgk-muted rpgk-help" }, L(model, "widget.panel.choices_hint")),
    latest.choices.map(choiceRow),
    takenBox,
    h("div", { class: "rpgk-row" },
      h("label", { class: "rpgk-field" }, h("span", { class: "rpgk-field-label" }, L(model, "widget.panel.dice")),
        h("input", { type: "text", "data-focus": "decision_dice", value: form.form.decision_dice ?? "",
          placeholder: L(model, "widget.panel.dice_hint"),
          oninput: (e) => form.set({ decision_dice: e.target.value }) })),
      h("button", { type: "button", class: "rpgk-primary", "data-focus": "decide",
        onclick: () => form.send("choose") }, L(model, "widget.panel.decide")),
      h("button", { type: "button", "data-focus": "decline",
        onclick: () => form.send("choose", { decline: true, id: latest.id }) },
        L(model, "widget.panel.decline")))));
}

/**
 * The advice on a choice for the figure chosen to take it: what it weighs, each option with its consequences
 * and lines; an option's button ("Vormerken") takes its lines over into the decisions, decided with the others
 * by "Entscheiden" (a decline is the panel's own "Verzicht"). Folded; whether it is open stays in the draft `d`.
 */
function panelAdvice(model, a, d, takeOption) {
  if (!a) return null;
  return h("details", { class: "rpgk-advice", open: d.advice === true,
    ontoggle: (e) => { d.advice = e.target.open; } },
    h("summary", {}, L(model, "resolution.advice_for", { who: a.who, objective: a.objective })),
    h("ul", { class: "rpgk-advice-options" }, a.options.map((o, i) => h("li", {},
      h("div", { class: "rpgk-row" }, h("strong", {}, o.label),
        o.takes.some((x) => x.key === "*") ? null : h("button", {
          type: "button", "data-focus": `advice:${a.key}:${a.who}:${i}`, title: o.lines.join("\n"),
          "aria-label": L(model, "widget.panel.advice_take", { option: o.label }), onclick: () => takeOption(o),
        }, L(model, "widget.panel.advice_mark"))),
      h("div", { class: "rpgk-advice-said" }, o.said.join(" · ")),
      o.lines.map((x) => h("code", { class: "rpgk-advice-line" }, x))))),
    a.note ? h("div", { class: "rpgk-muted" }, a.note) : null);
}

/** The choices taken over so far, as the lines they stand for, each with a button to remove it. */
function panelTaken(model, form, redraw) {
  const taken = form.form.decisions || [];
  const lines = model.get("lines") || {};
  if (!taken.length) return h("div");
  return h("div", {},
    h("ul", { class: "rpgk-taken" }, taken.map((_, i) => {
      const text = (lines.taken || [])[i] || "";
      return h("li", {}, h("code", {}, text), " ", h("button", {
        type: "button", "data-focus": `taken:${i}`, "aria-label": L(model, "widget.panel.remove", { line: text }),
        onclick: () => { form.set({ decisions: taken.filter((__, j) => j !== i) }); redraw(); },
      }, "✕"));
    })),
    panelCode(lines.decision));
}

function panelJournal(model) {
  const entries = model.get("journal") || [];
  return h("section", { class: "rpgk-panel-journal", "aria-label": L(model, "widget.panel.journal") },
    h("h4", {}, L(model, "widget.panel.journal")),
    entries.length
      ? h("ol", { class: "rpgk-journal" }, entries.map((e) => h("li", { value: e.seq, title: e.text },
        h("span", { class: "rpgk-muted" }, `${e.label} `),
        e.player ? h("span", { class: "rpgk-by-player" }, `${L(model, "widget.panel.by_player")} `) : null, e.text)))
      : h("div", { class: "rpgk-muted" }, L(model, "widget.panel.journal_empty")));
}

// -- the players' suggestions ---------------------------------------------------------------------
/** How long ago a suggestion came ("vor 3 Min."); older than a day: its date. */
function panelAge(model, created) {
  const when = Date.parse(created);
  if (Number.isNaN(when)) return "";
  const minutes = Math.floor((Date.now() - when) / 60000);
  if (minutes < 1) return L(model, "widget.panel.suggestion_now");
  if (minutes < 60) return L(model, "widget.panel.suggestion_minutes", { n: minutes });
  if (minutes < 24 * 60) return L(model, "widget.panel.suggestion_hours", { n: Math.floor(minutes / 60) });
  return new Date(when).toLocaleDateString("de-DE");
}

/** The players' open suggestions (only when there are any), each with "Annehmen" and "Ablehnen". */
function panelSuggestions(model, form) {
  const open = (model.get("players") || {}).suggestions || [];
  if (!open.length) return h("div");
  const button = (s, type, key, line) => h("button", {
    type: "button", "data-focus": `suggestion:${s.id}:${type}`, title: L(model, "widget.panel.suggestion_help", { line }),
    onclick: () => form.send(type, { id: s.id }),
  }, L(model, key));
  return h("section", { class: "rpgk-panel-suggestions", "aria-label": L(model, "widget.panel.suggestions") },
    h("h4", {}, L(model, "widget.panel.suggestions")),
    h("ul", { class: "rpgk-suggestions" }, open.map((s) => h("li", { "data-id": s.id },
      h("strong", {}, s.figure), " ", h("span", { class: "rpgk-suggestion-text" }, s.text), " ",
      h("span", { class: "rpgk-muted" }, panelAge(model, s.created)), " ",
      button(s, "accept_suggestion", "widget.panel.suggestion_accept", s.accept),
      button(s, "decline_suggestion", "widget.panel.suggestion_decline", s.decline)))));
}

// -- assembly -------------------------------------------------------------------------------
/** A tiny event source with the model's on/off, so redrawOn() can redraw a section on local events too. */
// -- forecast ---------------------------------------------------------------------------------
/** The forecast: the target picking and a button; while the fights are played a progress bar and a button
 * that stops it, then the headline (a stopped forecast: what it counts), the win bar by side, the rounds'
 * chart and who falls. */
function panelForecast(model, form, picked) {
  const f = model.get("forecast") || {};
  const choice = picked.zielwahl || f.zielwahl || "schwächste";
  const select = h("select", { "data-focus": "forecast_zielwahl", disabled: !!f.running,
    onchange: (e) => { picked.zielwahl = e.target.value; } },
  ["schwächste", "verteilen", "gefährlichste"].map((z) => h("option", { value: z, selected: z === choice },
    L(model, `widget.panel.forecast_${z === "schwächste" ? "weakest" : z === "verteilen" ? "spread" : "dangerous"}`))));
  const precision = picked.precision || "0.01";
  const margins = h("select", { "data-focus": "forecast_precision", disabled: !!f.running,
    onchange: (e) => { picked.precision = e.target.value; } },
  [["0.01", "±1 %"], ["0.02", "±2 %"], ["0.05", "±5 %"]].map(([v, text]) => h("option", { value: v, selected: v === precision }, text)));
  const controls = h("div", { class: "rpgk-row" },
    h("label", { class: "rpgk-field" }, h("span", { class: "rpgk-field-label" }, L(model, "widget.panel.forecast_targets")),
      select),
    h("label", { class: "rpgk-field", title: L(model, "widget.panel.forecast_precision_help") },
      h("span", { class: "rpgk-field-label" }, L(model, "widget.panel.forecast_precision")), margins),
    h("button", { type: "button", "data-focus": "forecast", disabled: !!f.running,
      title: L(model, "widget.panel.forecast_help"),
      onclick: () => form.send("forecast", { zielwahl: picked.zielwahl || choice, precision: Number(picked.precision || precision) }) },
    L(model, "widget.panel.forecast")));
  const body = [controls];
  if (f.running) {
    body.push(h("div", { class: "rpgk-progress", role: "status" },
      h("progress", { value: f.done, max: Math.max(f.planned, f.done, 1) }), " ",
      L(model, "widget.panel.forecast_running", { done: f.done, planned: Math.max(f.planned, f.done) }), " ",
      f.stopping ? h("span", { class: "rpgk-muted" }, L(model, "widget.panel.forecast_stopping"))
        : h("button", { type: "button", "data-focus": "forecast_stop", title: L(model, "widget.panel.forecast_stop_help"),
          onclick: () => form.send("stop_forecast") }, L(model, "widget.panel.forecast_stop"))),
      f.notice ? h("div", { class: "rpgk-forecast-slow", role: "status" }, f.notice) : null);
  } else if (f.result) {
    const r = f.result;
    body.push(h("div", { class: "rpgk-muted" }, r.head), h("div", { class: "rpgk-outcome" }, r.headline),
      r.stopped ? h("div", { class: "rpgk-forecast-stopped", role: "status" }, r.notes[0]) : null,
      h("div", { class: "rpgk-winbar", role: "img", "aria-label": r.headline },
        r.win.filter((w) => w.p > 0).map((w) => h("div", { title: `${w.label}: ${w.text}`,
          style: `width:${(100 * w.p).toFixed(3)}%;background:${w.colour}` }))),
      h("ul", { class: "rpgk-legend" }, r.win.map((w) => h("li", {},
        h("span", { class: "rpgk-swatch", style: `background:${w.colour}` }), `${w.label}: `, h("b", {}, w.text)))),
      h("div", { class: "rpgk-muted" }, r.rounds), drawChart(model, r.chart, "forecast"),
      h("table", { class: "rpgk-table" }, h("thead", {}, h("tr", {}, r.columns.map((c) => h("th", {}, c)))),
        h("tbody", {}, r.figures.map((x) => h("tr", {}, h("td", { style: "text-align:left" }, x.name),
          h("td", { style: "text-align:left" }, x.side),
          h("td", {}, h("span", { class: "rpgk-fallbar" }, h("span", { style: `width:${(100 * x.falls).toFixed(2)}%` })),
            " ", x.falls_text),
          x.resources.map((v) => h("td", {}, v)))))),
      (r.stopped ? r.notes.slice(1) : r.notes).map((n) => h("div", { class: "rpgk-muted" }, n)));
  }
  return h("details", { class: "rpgk-panel-forecast", open: !!(f.running || f.result) || null },
    h("summary", {}, L(model, "widget.panel.forecast_title")), body);
}

function panelEvents() {
  const handlers = new Map();
  return {
    on(name, f) { if (!handlers.has(name)) handlers.set(name, new Set()); handlers.get(name).add(f); },
    off(name, f) { handlers.get(name)?.delete(f); },
    emit(name) { for (const f of [...(handlers.get(name) || [])]) f(); },
  };
}

function render({ model, el }) {
  const form = panelForm(model);
  const local = panelEvents();
  const drafts = { id: null, of: {} };   // choice fields not yet taken over (this view only)
  const box = (cls) => h("div", { class: cls });
  const parts = {
    error: box("rpgk-panel-error"), head: box("rpgk-panel-head"), choices: box(""), taken: box(""),
    picks: box("rpgk-panel-picks"), join: box(""), action: box(""), line: box(""), preview: box(""), result: box(""),
    suggestions: box(""), journal: box(""), forecast: box(""),
  };
  const forecastPick = { zielwahl: null };   // the target picking chosen here (kept over redraws)
  const join = { who: "", name: "", initiative: "", open: false };   // the join fields as typed (kept over redraws)
  const table = panelTable(model, form);
  // a pick in the table: painted on its rows, said in the form and under the table
  form.picked = () => { table.paint(); form.redrawWho?.(); local.emit("change:picks"); };
  // a click (or Space) on a row picks it: as a target where the verb has targets, else as who acts;
  // alone, or with Ctrl/Shift one more (again: one less)
  form.rowPicks = () => {
    const key = panelChosen(model, form).verb.targets === "none" ? "actors" : "targets";
    return { key, names: form.form[key] || [] };
  };
  form.pickTarget = (name, add) => {
    const { key, names } = form.rowPicks();
    const one = key === "targets" ? panelChosen(model, form).verb.targets !== "required"
      : panelChosen(model, form).verb.actors === "one";
    const next = names.includes(name) ? (add || names.length === 1 ? names.filter((n) => n !== name) : [name])
      : add && !one ? [...names, name] : [name];
    form.set({ [key]: next });
    form.picked();
  };
  form.pickActor = (name) => {
    const { verb } = panelChosen(model, form);
    const chosen = form.form.actors || [];
    const next = chosen.includes(name) ? chosen.filter((n) => n !== name) : verb.actors === "one" ? [name] : [...chosen, name];
    form.set({ actors: next });
    form.picked();
  };
  // a roll and the decisions it leaves open stand together, right under the form that rolled it
  const outcome = h("div", { class: "rpgk-panel-outcome" }, parts.result, parts.choices);
  // every control in one fieldset: disabled for good once the campaign is closed (the line above says why)
  const body = h("fieldset", { class: "rpgk-panel-body" }, parts.head, table.node, parts.picks,
    parts.join, parts.action, parts.line, parts.preview, outcome, parts.suggestions, parts.forecast, parts.journal);
  const root = h("div", { class: "rpgk-w rpgk-panel" }, parts.error, body);
  el.replaceChildren(root);
  // after this view's roll or decision, its outcome is scrolled into view as far as needed
  let awaiting = false;
  // the lines of the action or decision the kernel runs ("": none): the decision form waits until Python
  // says it is done (a "done" message, after its result or its error)
  let busy = "";
  const sendForm = form.send;
  form.send = (type, payload) => {
    if (type === "act" || type === "choose") {
      awaiting = true;
      const lines = model.get("lines") || {};
      const cell = type === "act" ? lines.action : payload?.decline
        ? `${L(model, "widget.panel.decline")}: ${panelAnswered(model, form)?.head || ""}` : lines.decision;
      busy = (cell || type).split("\n").filter((x) => !x.startsWith("%%")).join("; ");
      redrawChoices();
    }
    sendForm(type, payload);
  };
  const done = (msg) => { if (msg && msg.type === "done") { busy = ""; redrawChoices(); } };
  model.on("msg:custom", done);
  const reveal = () => {
    if (!awaiting) return;
    awaiting = false;
    requestAnimationFrame(() => outcome.scrollIntoView({ block: "nearest" }));
  };

  const redrawAction = () => local.emit("change:action");
  const redrawChoices = () => local.emit("change:choices");
  let ageTimer = 0;   // while suggestions stand (and the campaign is open), their ages are said anew
  const suggestions = () => {
    clearTimeout(ageTimer);
    if (((model.get("players") || {}).suggestions || []).length && !model.get("closed")) {
      ageTimer = setTimeout(() => local.emit("change:ages"), PANEL_AGE_MS);
    }
    return panelSuggestions(model, form);
  };
  const choices = () => {
    const answered = panelAnswered(model, form);
    const id = answered ? answered.id : null;
    if (id !== drafts.id) { drafts.id = id; drafts.of = {}; }
    return panelChoices(model, form, drafts.of, parts.taken, redrawChoices, busy);
  };
  const status = () => {
    body.disabled = !!model.get("closed");
    return body.disabled ? h("div", {}, statusBox(model),
      h("div", { class: "rpgk-muted rpgk-closed-why" }, L(model, "widget.panel.closed_buttons")))
      : statusBox(model) || h("div");
  };
  const offs = [
    redrawOn(model, parts.error, ["error", "closed"], status),
    redrawOn(model, parts.head, ["panel", "rules"], () => panelHead(model, form)),
    redrawOn(model, parts.preview, ["preview"], () => panelPreview(model)),
    redrawOn(model, parts.result, ["result"], () => panelResult(model)),
    redrawOn(model, parts.journal, ["journal"], () => panelJournal(model)),
    redrawOn(model, parts.forecast, ["forecast"], () => panelForecast(model, form, forecastPick)),
    redrawOn(model, parts.suggestions, ["players"], suggestions),
    redrawOn(local, parts.suggestions, ["ages"], suggestions),
    redrawOn(local, parts.action, ["action"], () => panelAction(model, form, redrawAction)),
    redrawOn(local, parts.picks, ["picks"], () => panelPicks(model, form)),
    redrawOn(local, parts.join, ["join"], () => panelJoin(model, form, join, () => local.emit("change:join"))),
    redrawOn(model, parts.join, ["library"], () => panelJoin(model, form, join, () => local.emit("change:join"))),
    redrawOn(model, parts.choices, ["pending"], choices),
    redrawOn(local, parts.choices, ["choices"], choices),
    redrawOn(model, parts.taken, ["lines"], () => panelTaken(model, form, redrawChoices)),
    redrawOn(model, parts.line, ["lines"], () => h("div", {},
      h("div", { class: "rpgk-field-label rpgk-muted" }, L(model, "widget.panel.line")),
      panelCode((model.get("lines") || {}).action))),
  ];
  // the action form redraws when what it offers changes, not on the keystrokes it syncs itself
  let actionKey = null;
  const actionCheck = () => {
    const p = model.get("panel") || {};
    const key = JSON.stringify([model.get("rules"), panelNames(model), p.name,
      (form.form.actors || []).length ? null : p.current]);
    if (key !== actionKey) { actionKey = key; redrawAction(); }
  };
  const formChanged = () => {   // Python changed the form (cleared dice, decisions, the actor)
    if (form.pull()) { actionKey = null; actionCheck(); redrawChoices(); table.paint(); local.emit("change:picks"); }
  };
  // the picks and the join fields redraw when the names, groups or joinable characters change
  let picksKey = null;
  const picksCheck = () => {
    const p = model.get("panel") || {};
    const key = JSON.stringify([p.name, p.round > 0, p.joinable, (model.get("rows") || []).map((r) => [r.name, r.group])]);
    if (key !== picksKey) { picksKey = key; local.emit("change:picks"); local.emit("change:join"); }
  };
  const tableChanged = () => { table.update(); actionCheck(); picksCheck(); };
  const listen = [["change:rows", tableChanged], ["change:panel", tableChanged], ["change:rules", tableChanged],
    ["change:form", formChanged], ["change:result", reveal], ["change:result", table.edited], ["change:error", table.failed],
    ["change:error", () => { awaiting = false; }]];
  for (const [name, f] of listen) model.on(name, f);
  tableChanged();

  // other notebooks' and the player pages' writes: faster while a player's page may be open
  const stopPolling = pollWhileShown(model, root,
    () => ((model.get("players") || {}).live ? PANEL_LIVE_POLL_MS : PANEL_POLL_MS));

  return () => {
    stopPolling();
    clearTimeout(ageTimer);
    for (const off of offs) off();
    for (const [name, f] of listen) model.off(name, f);
    model.off("msg:custom", done);
  };
}

export default { render: relabelled(render) };
