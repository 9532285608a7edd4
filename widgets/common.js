// Shared helpers, placed before each widget's own code in its module.
// User text is only ever set as text (textContent / text nodes), never parsed as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

function _fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h("button", {class: "x", onclick: f}, "Text", otherNode). */
function h(tag, attrs, ...children) {
  return _fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as h(). */
function s(tag, attrs, ...children) {
  return _fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** The German text of a catalogue key, sent by Python in the "labels" trait. */
function L(model, key, fields) {
  let text = (model.get("labels") || {})[key] ?? key;
  for (const [name, value] of Object.entries(fields || {})) text = text.replaceAll(`{${name}}`, () => String(value));
  return text;
}

/**
 * A widget's render, drawn again whole when its labels change (the language switched, %rpg --sprache):
 * a view already on screen speaks the new language without its cell running again.
 */
function relabelled(render) {
  return (view) => {
    let stop = render(view);
    const again = () => {
      if (typeof stop === "function") stop();
      view.el.replaceChildren();
      stop = render(view);
    };
    view.model.on("change:labels", again);
    return () => {
      view.model.off("change:labels", again);
      if (typeof stop === "function") stop();
    };
  };
}

/** Send a message {type, ...payload} to the Python side. */
function send(model, type, payload) {
  model.send({ type, ...(payload || {}) });
}

/**
 * A form's keydown handler: Enter in one of its fields submits the form. JupyterLab cancels the browser's
 * own implicit submission inside notebook cells (it keeps Enter for its shortcuts there).
 */
function submitOnEnter(ev) {
  if (ev.key !== "Enter" || ev.isComposing || !(ev.target instanceof HTMLInputElement)) return;
  ev.preventDefault();
  ev.currentTarget.requestSubmit();
}

/** The error box for the model's "error" trait (empty: nothing). */
function errorBox(model) {
  const text = model.get("error");
  return text ? h("div", { class: "rpgk-card rpgk-error", role: "alert" }, h("pre", {}, text)) : null;
}

/** The quiet line of a widget whose campaign was closed (the "closed" trait), else the error box (or null). */
function statusBox(model) {
  const closed = model.get("closed");
  return closed ? h("div", { class: "rpgk-muted rpgk-closed", role: "status" }, closed) : errorBox(model);
}

/**
 * Send "poll" (Python folds in other notebooks' writes) every `ms` while `el` is on screen and the page is
 * shown; for good no more once the widget's campaign is closed. `ms` is a number, or a function asked
 * before each wait (a widget that polls faster at times). Returns the function that stops it.
 */
function pollWhileShown(model, el, ms) {
  const every = typeof ms === "function" ? ms : () => ms;
  let visible = true;
  let timer = 0;
  const seen = typeof IntersectionObserver === "function"
    ? new IntersectionObserver((entries) => { visible = entries.some((e) => e.isIntersecting); }) : null;
  if (seen) seen.observe(el);
  const stop = () => { clearTimeout(timer); timer = -1; if (seen) seen.disconnect(); };
  const tick = () => {
    if (model.get("closed")) stop();
    else if (visible && !document.hidden && el.isConnected) send(model, "poll");
    if (timer !== -1) timer = setTimeout(tick, every());
  };
  timer = setTimeout(tick, every());
  return stop;
}

/**
 * Re-render `el` with `draw()` whenever one of `traits` changes; keeps focus on the same control. While a
 * pointer is pressed inside `el` the redraw waits until after its release: a button replaced between press
 * and release would get no click, and the user's click would be lost.
 */
function redrawOn(model, el, traits, draw) {
  let pressed = false;   // a pointer went down inside el and is not released yet
  let due = false;       // a change came while pressed: drawn once the click is through
  const paint = () => {
    due = false;
    const focused = document.activeElement && el.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-focus") : null;
    el.replaceChildren(draw());
    if (focused) el.querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus();
  };
  const update = () => { if (pressed) due = true; else paint(); };
  // a press that clicks: the main button, not on a select (its list takes the release, its change redraws)
  const press = (e) => { if (e.button === 0 && !e.target.closest("select")) pressed = true; };
  // the click follows the release in the same task: the waiting redraw comes after it (a window that loses
  // focus while pressed may never see the release)
  const release = () => { if (pressed) { pressed = false; setTimeout(() => { if (due) paint(); }); } };
  el.addEventListener("pointerdown", press);
  document.addEventListener("pointerup", release, true);
  document.addEventListener("pointercancel", release, true);
  window.addEventListener("blur", release);
  for (const trait of traits) model.on(`change:${trait}`, update);
  paint();
  return () => {
    for (const trait of traits) model.off(`change:${trait}`, update);
    el.removeEventListener("pointerdown", press);
    document.removeEventListener("pointerup", release, true);
    document.removeEventListener("pointercancel", release, true);
    window.removeEventListener("blur", release);
  };
}
