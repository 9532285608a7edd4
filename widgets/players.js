// %rpg spieler: the campaign's player links; a new one as a link and a QR code.
// The token arrives in a custom message only (never a synced trait), so the notebook file never holds it.

function pageBaseUrl() {
  const data = document.getElementById("jupyter-config-data");
  let base = "/";
  try { base = JSON.parse(data ? data.textContent : "{}").baseUrl || "/"; } catch (e) { base = "/"; }
  return base.endsWith("/") ? base : base + "/";
}

function drawLinks(model, fresh) {
  const rows = model.get("rows") || [];
  const table = rows.length
    ? h("table", { class: "rpgk-table" },
      h("thead", {}, h("tr", {}, ["id", "figure", "created", "state"].map((k) => h("th", {}, L(model, `widget.players.col_${k}`))))),
      h("tbody", {}, rows.map((r) => h("tr", {}, h("td", {}, r.id), h("td", {}, r.figure), h("td", {}, r.created),
        h("td", {}, L(model, r.revoked ? "widget.players.revoked" : "widget.players.live"), r.limit ? `; ${r.limit}` : null)))))
    : h("div", { class: "rpgk-muted" }, L(model, "widget.players.none"));
  return h("div", {}, h("h3", {}, L(model, "widget.players.title")), fresh, table, statusBox(model));
}

function render({ model, el }) {
  el.classList.add("rpgk-w", "rpgk-players");
  const fresh = h("div", { class: "rpgk-players-fresh" });
  let url = "";
  const onMessage = (msg) => {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "link") {
      url = `${location.origin}${pageBaseUrl()}${msg.path}${encodeURIComponent(msg.key)}/#${msg.token}`;
      fresh.replaceChildren(
        h("div", {}, L(model, "widget.players.fresh", { figure: model.get("fresh_figure") })),
        h("a", { href: url, target: "_blank", rel: "noopener noreferrer", class: "rpgk-players-url" }, url),
        h("div", { class: "rpgk-muted" }, L(model, "widget.players.once")));
      send(model, "qr", { url });
    } else if (msg.type === "qr" && typeof msg.svg === "string" && msg.svg.startsWith("data:image/svg+xml")) {
      fresh.append(h("img", { src: msg.svg, alt: L(model, "widget.players.qr"), class: "rpgk-players-qr" }));
    }
  };
  model.on("msg:custom", onMessage);
  const stop = redrawOn(model, el, ["rows", "error", "closed"], () => drawLinks(model, fresh));
  if (model.get("fresh_id")) send(model, "link");
  return () => { stop(); model.off("msg:custom", onMessage); };
}

export default { render };
