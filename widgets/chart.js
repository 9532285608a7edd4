// The distribution chart: SVG bars drawn from Python's chart_data(). No export: every widget that shows
// odds (the chart widget, the dice tray, the encounter panel's previews) puts this file after common.js.

const CHART_W = 600;
const CHART_H = 180;
const CHART_PAD = { l: 6, r: 6, t: 14, b: 18 };
const CHART_STEPS = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 };

/** The hints of a typed expression (another dialect's reading, warnings), a line each. */
function drawHints(hints) {
  return (hints || []).map((hint) => h("div", { class: "rpgk-chance rpgk-hint" }, hint));
}

/** The readout (and aria-label) of one bar of chart_data's "bars". */
function barText(model, bar) {
  return L(model, bar.low === bar.high ? "widget.chart.bar" : "widget.chart.bin",
    { value: bar.label, p: bar.p_text, low: bar.low_text, ge: bar.ge_text });
}

/**
 * The chart of `data` (chart_data's dict) as an element: a toggle between P(=) and P(≥)
 * ("mindestens"), a readout that follows pointer and keyboard focus, the marked bars highlighted.
 * The view is kept in the model's "chart_view" trait when the model has one, else locally.
 * `key` prefixes the data-focus attributes (for widgets that show several charts).
 */
function drawChart(model, data, key = "chart") {
  const box = h("div", { class: "rpgk-chartbox" });
  if (!data || !Array.isArray(data.bars) || !data.bars.length) return box;
  const synced = model.get("chart_view") !== undefined;
  const show = (view, refocus) => {
    box.replaceChildren(...chartParts(model, data, key, view, (next) => {
      show(next, true);
      if (synced) {
        model.set("chart_view", next);
        model.save_changes();
      }
    }));
    if (refocus) box.querySelector(`[data-focus="${CSS.escape(key + "-view")}"]`)?.focus();
  };
  show(synced ? model.get("chart_view") : "verteilung", false);
  return box;
}

function chartParts(model, data, key, view, toggle) {
  const atLeast = view === "mindestens";
  const bars = data.bars;
  const n = bars.length;
  const heights = bars.map((b) => (atLeast ? b.ge : b.p));
  const top = Math.max(...heights) || 1;
  const plotH = CHART_H - CHART_PAD.t - CHART_PAD.b;
  const base = CHART_H - CHART_PAD.b;
  const bw = (CHART_W - CHART_PAD.l - CHART_PAD.r) / n;
  const gap = bw >= 4 ? 1 : 0;
  const x = (i) => CHART_PAD.l + i * bw;
  const barH = (i) => (heights[i] / top) * plotH;
  const marked = new Set((data.marked_bars || []).filter((i) => i >= 0 && i < n));
  const first = marked.size ? Math.min(...marked) : bars.reduce((best, b, i) => (b.p > bars[best].p ? i : best), 0);
  const label = (i) => (marked.has(i) ? L(model, "widget.chart.marked", { text: barText(model, bars[i]) })
    : barText(model, bars[i]));

  const idle = () => (marked.size ? label(first) : L(model, "widget.chart.readout_hint"));
  const readout = h("div", { class: "rpgk-chart-readout", "aria-live": "polite" }, idle());
  const cursor = s("rect", { class: "rpgk-chart-cursor", x: 0, y: CHART_PAD.t, width: bw.toFixed(2),
    height: plotH, visibility: "hidden", "aria-hidden": "true" });
  const rects = bars.map((b, i) => {
    const text = label(i);
    return s("rect", {
      class: marked.has(i) ? "rpgk-bar rpgk-bar-marked" : "rpgk-bar",
      x: x(i).toFixed(2), y: (base - barH(i)).toFixed(2), width: Math.max(bw - gap, 0.5).toFixed(2),
      height: barH(i).toFixed(2), tabindex: i === first ? 0 : -1, role: "img", "aria-label": text,
      "data-i": i, "data-focus": `${key}-bar-${i}`,
    }, s("title", {}, text));
  });
  const marks = [...marked].map((i) => {
    const cx = x(i + 0.5);
    const y = base - barH(i) - 2;
    return s("path", { class: "rpgk-bar-mark", d: `M${(cx - 4).toFixed(2)} ${(y - 7).toFixed(2)}H${(cx + 4).toFixed(2)}L${cx.toFixed(2)} ${y.toFixed(2)}Z`,
      "aria-hidden": "true" });
  });
  const axis = [s("line", { class: "rpgk-chart-axis", x1: CHART_PAD.l, x2: CHART_W - CHART_PAD.r, y1: base + 0.5,
    y2: base + 0.5, "aria-hidden": "true" })];
  for (const tick of data.ticks || []) {
    axis.push(s("text", { x: x(tick.bar + 0.5).toFixed(2), y: CHART_H - 4, "text-anchor": "middle", "aria-hidden": "true" },
      tick.text));
  }

  const point = (i) => {
    cursor.setAttribute("x", x(i).toFixed(2));
    cursor.setAttribute("visibility", "visible");
    readout.textContent = label(i);
  };
  const rest = () => {
    const focused = document.activeElement?.dataset?.i;
    if (focused !== undefined && svg.contains(document.activeElement)) return point(Number(focused));
    cursor.setAttribute("visibility", "hidden");
    readout.textContent = idle();
  };
  const svg = s("svg", {
    class: "rpgk-chart-svg", viewBox: `0 0 ${CHART_W} ${CHART_H}`, role: "group", tabindex: -1,
    "aria-label": L(model, "widget.chart.bars", { expr: data.label }),
    onpointermove: (ev) => {
      const m = svg.getScreenCTM();
      if (!m) return;
      const i = Math.floor((new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse()).x - CHART_PAD.l) / bw);
      if (i >= 0 && i < n) point(i);
    },
    onpointerleave: () => rest(),
    onfocusin: (ev) => {
      const i = ev.target.dataset?.i;
      if (i !== undefined) point(Number(i));
    },
    onfocusout: (ev) => {
      if (!svg.contains(ev.relatedTarget)) {
        cursor.setAttribute("visibility", "hidden");
        readout.textContent = idle();
      }
    },
    onkeydown: (ev) => {
      const at = Number(ev.target.dataset?.i);
      if (Number.isNaN(at)) return;
      const to = ev.key === "Home" ? 0 : ev.key === "End" ? n - 1 : ev.key in CHART_STEPS ? at + CHART_STEPS[ev.key] : null;
      if (to === null) return;
      ev.preventDefault();
      const next = rects[Math.max(0, Math.min(n - 1, to))];
      rects[at].setAttribute("tabindex", "-1");
      next.setAttribute("tabindex", "0");
      next.focus();
    },
  }, cursor, rects, marks, axis);

  const head = h("div", { class: "rpgk-row rpgk-chart-head" },
    h("span", { class: "rpgk-muted" }, L(model, "widget.chart.summary", { mean: data.mean_text, sd: data.sd_text })),
    h("button", { type: "button", "aria-pressed": atLeast ? "true" : "false", "data-focus": `${key}-view`,
      onclick: () => toggle(atLeast ? "verteilung" : "mindestens") }, L(model, "widget.chart.at_least")));
  const hint = h("div", { class: "rpgk-muted rpgk-chart-hint" },
    L(model, atLeast ? "widget.chart.hint_at_least" : "widget.chart.hint_exact"));
  return [head, svg, readout, hint];
}
