// DistributionChart: the chart alone, under its title and the hints of its expression. Needs common.js and
// chart.js before it.

function render({ model, el }) {
  el.classList.add("rpgk-w", "rpgk-chart-widget");
  return redrawOn(model, el, ["data", "title", "hints", "chart_view", "error"], () => {
    const data = model.get("data") || {};
    const title = model.get("title") || (data.label ? L(model, "widget.chart.title", { expr: data.label }) : "");
    return h("div", {}, title ? h("h3", {}, title) : null, drawHints(model.get("hints")), errorBox(model),
      drawChart(model, data));
  });
}

export default { render: relabelled(render) };
