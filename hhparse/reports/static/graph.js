/* hhparse net-won graph: one SVG panel per unit (a currency, or tournament chips), one line per
   series (net won, showdown, non-showdown; or one per tournament). The legend is an HTML list
   under the panel, never over the lines. x by hands or by date; y in money or big blinds. */
"use strict";
var hhparse = window.hhparse || {};
window.hhparse = hhparse;
(function (H) {
  var SVGNS = "http://www.w3.org/2000/svg";
  var W = 1000, HT = 280, L = 64, R = 12, T = 10, B = 28, LEGEND_MAX = 12;

  /* About `count` round tick values covering [lo, hi]. */
  function ticks(lo, hi, count) {
    if (hi <= lo) return [lo];
    var raw = (hi - lo) / count, mag = Math.pow(10, Math.floor(Math.log(raw) / Math.LN10));
    var step = [1, 2, 2.5, 5, 10].map(function (m) { return m * mag; }).filter(function (s) { return s >= raw; })[0];
    var out = [];
    for (var v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.round(v / step) * step);
    return out;
  }

  function node(tag, attrs, text) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function day(t) { return new Date(t * 1000).toISOString().slice(0, 10); }

  function draw(panel, xmode, ymode) {
    var xs = xmode === "date" ? "t" : "n", ys = ymode === "bb" ? "b" : "v";
    var x0 = Infinity, x1 = -Infinity, y0 = 0, y1 = 0;
    panel.lines.forEach(function (line) {
      line[xs].forEach(function (v) { if (v < x0) x0 = v; if (v > x1) x1 = v; });
      line[ys].forEach(function (v) { if (v < y0) y0 = v; if (v > y1) y1 = v; });
    });
    if (x1 <= x0) x1 = x0 + 1;
    if (y1 <= y0) y1 = y0 + 1;
    var pad = (y1 - y0) * 0.05;
    y0 -= pad; y1 += pad;
    function X(v) { return L + (v - x0) / (x1 - x0) * (W - L - R); }
    function Y(v) { return T + (y1 - v) / (y1 - y0) * (HT - T - B); }
    var svg = node("svg", {viewBox: "0 0 " + W + " " + HT, role: "img", "aria-label": panel.title});
    var axis = node("g", {"class": "axis"});
    ticks(y0, y1, 5).forEach(function (v) {
      axis.appendChild(node("line", {x1: L, x2: W - R, y1: Y(v), y2: Y(v)}));
      axis.appendChild(node("text", {x: L - 6, y: Y(v) + 4, "text-anchor": "end"}, String(+v.toFixed(2))));
    });
    var xt = xmode === "date" ? ticks(x0, x1, 6) : ticks(x0, x1, 8).filter(function (v) { return v === Math.round(v); });
    xt.forEach(function (v) {
      var anchor = X(v) > W - 50 ? "end" : X(v) < L + 30 ? "start" : "middle";
      axis.appendChild(node("text", {x: X(v), y: HT - 8, "text-anchor": anchor}, xmode === "date" ? day(v) : String(v)));
    });
    svg.appendChild(axis);
    svg.appendChild(node("line", {"class": "zero", x1: L, x2: W - R, y1: Y(0), y2: Y(0)}));
    panel.lines.forEach(function (line) {
      var pts = line[xs].map(function (v, i) { return X(v).toFixed(1) + "," + Y(line[ys][i]).toFixed(1); });
      var pl = node("polyline", {points: pts.join(" "), stroke: line.color});
      pl.appendChild(node("title", {}, line.label));
      svg.appendChild(pl);
    });
    return svg;
  }

  function boot() {
    var data = document.getElementById("hh-graph"), box = document.getElementById("graph");
    if (!data || !box) return;
    var g = JSON.parse(data.textContent), state = {x: g.x, y: g.y};
    var controls = box.querySelector(".graph-controls");
    var panels = box.querySelector(".panels");
    function render() {
      panels.textContent = "";
      g.panels.forEach(function (p) {
        var div = document.createElement("div");
        div.className = "panel";
        var h = document.createElement("h3");
        h.textContent = p.title + " \u2014 " + (state.y === "bb" ? "big blinds" : p.unit);
        div.appendChild(h);
        div.appendChild(draw(p, state.x, state.y));
        var legend = document.createElement("ul");
        legend.className = "legend";
        p.lines.slice(0, LEGEND_MAX).forEach(function (line) {
          var li = document.createElement("li"), sw = document.createElement("i");
          sw.style.background = line.color;
          li.appendChild(sw);
          li.appendChild(document.createTextNode(line.label));
          legend.appendChild(li);
        });
        if (p.lines.length > LEGEND_MAX) {
          var more = document.createElement("li");
          more.textContent = "and " + (p.lines.length - LEGEND_MAX) + " more";
          legend.appendChild(more);
        }
        div.appendChild(legend);
        panels.appendChild(div);
      });
    }
    Array.prototype.forEach.call(controls.querySelectorAll("input"), function (input) {
      if (input.value === "bb" && !g.bb) input.disabled = true;
      input.checked = state[input.name] === input.value;
      input.addEventListener("change", function () { state[input.name] = input.value; render(); });
    });
    render();
  }

  H.ticks = ticks;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})(hhparse);
