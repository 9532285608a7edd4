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

/** Whether this page was reached by a loopback address (127.0.0.1, localhost, ::1): no phone reaches it. */
function loopback() {
  return /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/i.test(location.hostname);
}

const START_OPEN = "jupyter lab --ServerApp.ip=0.0.0.0";   // the start command that listens on the network

/** The note under a loopback link: the addresses of this machine the server answers on (their links, the
 * QR code of the first), or the start command that makes it answer there. */
function networkNote(model, msg, url, showQr) {
  const note = h("div", { class: "rpgk-players-net", role: "note" },
    h("div", { class: "rpgk-players-warn" }, L(model, "widget.players.loopback", { host: location.hostname })));
  const addresses = (msg.addresses || []).filter((a) => /^\d+\.\d+\.\d+\.\d+$/.test(a));
  if (addresses.length) {
    const links = addresses.map((a) => {
      const there = new URL(url);
      there.hostname = a;
      return there.href;
    });
    note.append(h("div", {}, L(model, "widget.players.network")),
      ...links.map((href) => h("a", { href, target: "_blank", rel: "noopener noreferrer", class: "rpgk-players-url" }, href)));
    showQr(links[0]);
  } else {
    note.append(h("div", {}, L(model, "widget.players.start_open")), h("code", { class: "rpgk-players-start" }, START_OPEN),
      h("div", { class: "rpgk-muted" }, L(model, "widget.players.start_then")));
  }
  return note;
}

function render({ model, el }) {
  el.classList.add("rpgk-w", "rpgk-players");
  const fresh = h("div", { class: "rpgk-players-fresh" });
  const qr = h("img", { alt: L(model, "widget.players.qr"), class: "rpgk-players-qr" });
  let url = "";
  const showQr = (address) => send(model, "qr", { url: address });
  const onMessage = (msg) => {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "link") {
      url = `${location.origin}${pageBaseUrl()}${msg.path}${encodeURIComponent(msg.key)}/#${msg.token}`;
      fresh.replaceChildren(
        h("div", {}, L(model, "widget.players.fresh", { figure: model.get("fresh_figure") })),
        h("a", { href: url, target: "_blank", rel: "noopener noreferrer", class: "rpgk-players-url" }, url),
        h("div", { class: "rpgk-muted" }, L(model, "widget.players.once")));
      if (loopback()) send(model, "netz", { port: Number(location.port) || (location.protocol === "https:" ? 443 : 80) });
      else showQr(url);
    } else if (msg.type === "netz") {
      fresh.append(networkNote(model, msg, url, showQr));
      if (!(msg.addresses || []).length) showQr(url);   // the link as it is, for this machine's own browser
    } else if (msg.type === "qr" && typeof msg.svg === "string" && msg.svg.startsWith("data:image/svg+xml")) {
      qr.src = msg.svg;
      fresh.append(qr);
    }
  };
  model.on("msg:custom", onMessage);
  const stop = redrawOn(model, el, ["rows", "error", "closed"], () => drawLinks(model, fresh));
  if (model.get("fresh_id")) send(model, "link");
  return () => { stop(); model.off("msg:custom", onMessage); };
}

export default { render: relabelled(render) };
