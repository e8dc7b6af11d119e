// SPDX-License-Identifier: GPL-3.0-or-later
// html_dom.js - what tests/cdp.py reads of a page laid out in Chromium
// (tests/cli/html_multi.sh): per plot its kind, op, whether it shows,
// its series and runs, and the pairs of its labels whose boxes overlap;
// the op picker; the verdict table's cells; the headline.
(() => {
  const shown = e => e.getClientRects().length > 0 &&
    getComputedStyle(e).display != "none" &&
    !e.closest("[style*='display: none']");
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
    a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const plots = [];
  for (const svg of document.querySelectorAll("svg.plot")) {
    const texts = Array.from(svg.querySelectorAll("text")).filter(shown);
    const boxes = texts.map(t => t.getBoundingClientRect());
    const overlaps = [];
    for (let i = 0; i < texts.length; i++)
      for (let j = i + 1; j < texts.length; j++)
        if (meet(boxes[i], boxes[j]))
          overlaps.push([texts[i].textContent, texts[j].textContent]);
    plots.push({
      kind: svg.dataset.plot, op: svg.dataset.op || null, shown: shown(svg),
      series: Array.from(svg.querySelectorAll("g[data-op]")).map(g =>
        [g.dataset.op, shown(g)]),
      runs: Array.from(svg.querySelectorAll("polyline[data-run]")).map(p =>
        [p.dataset.run, p.getAttribute("class") || ""]),
      lanes: Array.from(svg.querySelectorAll("g[data-lane]")).map(g =>
        [g.dataset.lane, g.querySelectorAll("rect").length]),
      overlaps: overlaps,
      texts: texts.map(t => t.textContent),
    });
  }
  const table = name => {
    const t = document.querySelector("table[data-table=" + name + "]");
    return t ? Array.from(t.tBodies[0].rows).map(r =>
      Array.from(r.cells).map(c => c.textContent.trim())) : null;
  };
  const h = document.querySelector(".headline");
  return {
    title: document.title,
    plots: plots,
    picker: Array.from(document.querySelectorAll(".opsel input")).map(i =>
      [i.dataset.op, i.checked]),
    verdicts: table("verdicts"),
    shown_verdicts: (() => {
      const t = document.querySelector("table[data-table=verdicts]");
      return t ? Array.from(t.tBodies[0].rows).filter(shown).length : null;
    })(),
    runs: table("runs"),
    ops_table: (() => {
      const t = Array.from(document.querySelectorAll("h2")).find(e =>
        e.textContent == "Operations");
      const tb = t && t.nextElementSibling.querySelector("table");
      return tb ? Array.from(tb.tBodies[0].rows).map(r =>
        [r.cells[0].textContent.trim(), r.cells[3].textContent.trim()]) : null;
    })(),
    headline: h ? h.textContent.trim() : null,
    verdict: h ? h.dataset.verdict : null,
    width: document.documentElement.scrollWidth,
    height: document.documentElement.scrollHeight,
  };
})()
