"""The encounter panel as the browser shows it: its rows, and the text below the WCAG contrast minimum
in whatever theme is on (the light and dark gallery screenshots are only taken once this is empty)."""

from __future__ import annotations

# WCAG contrast of text against the colour behind it, from computed styles: translucent colours are
# laid over the backgrounds of the element and its ancestors
COLOURS = """
  const pixel = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
  const parse = (text) => {
    if (!text) return null;
    const m = /^rgba?\\(([^)]*)\\)$/.exec(text);
    if (m) {
      const v = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
      return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
    }
    // any other form the browser computes (color(srgb …), oklab(…) while a colour is mixed or in
    // transition): painted on one pixel and read back
    pixel.clearRect(0, 0, 1, 1);
    pixel.fillStyle = text;
    pixel.fillRect(0, 0, 1, 1);
    const d = pixel.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2], d[3] / 255];
  };
  const over = (top, below) => [0, 1, 2].map((i) => top[i] * top[3] + below[i] * (1 - top[3])).concat(1);
  const behind = (el) => {
    const layers = [];
    for (let n = el; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    return layers.reverse().reduce((acc, c) => over(c, acc), [255, 255, 255, 1]);
  };
  const linear = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
  const lum = (c) => 0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2]);
  const ratio = (el, bg) => {
    const [hi, lo] = [lum(over(parse(getComputedStyle(el).color), bg)), lum(bg)].sort((a, b) => b - a);
    return (hi + 0.05) / (lo + 0.05);
  };
"""
CONTRAST = "(elements) => {" + COLOURS + """
  // an element re-rendered away meanwhile has no computed colour: it is not shown
  return elements.filter((el) => getComputedStyle(el).color).map((el) => ({
    text: el.innerText.trim().slice(0, 40), ratio: ratio(el, behind(el)), light: lum(behind(el)) > 0.5 }));
}"""
# a meter's text against every colour the meter paints (backgrounds and gradients of it and its parts)
METER_CONTRAST = "(meters) => {" + COLOURS + """
  const painted = (el) => {
    const style = getComputedStyle(el);
    return [style.backgroundColor, ...(style.backgroundImage.match(/rgba?\\([^)]*\\)/g) || [])]
      .map(parse).filter((c) => c && c[3] > 0);
  };
  return meters.flatMap((meter) => {
    const base = behind(meter.parentElement);
    const colours = [meter, ...meter.querySelectorAll("*")].flatMap(painted).map((c) => over(c, base));
    const walker = document.createTreeWalker(meter, NodeFilter.SHOWTEXT);
    const texts = [];
    while (walker.nextNode()) if (walker.currentNode.textContent.trim()) texts.push(walker.currentNode.parentElement);
    const text = meter.getAttribute("aria-label");
    return texts.flatMap((el) => colours.map((bg) => ({ text, ratio: ratio(el, bg) })));
  });
}"""
# the panel's text: heading, facts, order table, buttons, conditions, form labels, lines, cards, journal
TEXT = ("h3, h4, .rpgk-panel-facts, th, td.rpgk-side, .rpgk-cond, .rpgk-mark, button:enabled, .rpgk-field-label, "
        ".rpgk-muted, .rpgk-line, .rpgk-resolution li, .rpgk-notice, .rpgk-journal li")


def illegible(panel, minimum: float = 4.5) -> list[dict]:
    """The panel's text below the contrast ``minimum`` (WCAG AA for body text: 4.5)."""
    found = panel.locator(TEXT).evaluate_all(CONTRAST)
    assert len(found) > 30, found   # the selector still finds the panel's text
    return [f for f in found if f["ratio"] < minimum]


def illegible_meters(panel, minimum: float = 4.5) -> list[dict]:
    """The meters' text below the contrast ``minimum`` against any colour the meter paints."""
    return [f for f in panel.get_by_role("meter").evaluate_all(METER_CONTRAST) if f["ratio"] < minimum]


def row(panel, name: str):
    """The table row of the combatant ``name``."""
    return panel.locator("tbody tr").filter(has=panel.page.get_by_role("rowheader", name=name))
