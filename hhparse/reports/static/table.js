/* hhparse report tables: click a header to sort (numbers as numbers, empty cells last), and
   pages of PAGE rows. Each <table class="data"> is handled on its own. */
"use strict";
var hhparse = window.hhparse || {};
window.hhparse = hhparse;
(function (H) {
  var PAGE = 100;

  /* The sort key of a cell's text: a number when the column is numeric, else lower-case text. */
  function key(text, numeric) {
    var t = text.trim();
    if (t === "") return null;
    if (!numeric) return t.toLowerCase();
    var v = parseFloat(t.replace(/[^0-9.eE+-]/g, ""));
    return isNaN(v) ? null : v;
  }

  /* Compare two keys; empty cells (null) always sort last. */
  function compare(a, b, dir) {
    if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
    return (a < b ? -1 : a > b ? 1 : 0) * dir;
  }

  function Table(table) {
    var self = this;
    this.table = table;
    this.body = table.tBodies[0];
    this.rows = Array.prototype.slice.call(this.body.rows);
    this.page = 0;
    this.pages = Math.max(1, Math.ceil(this.rows.length / PAGE));
    var ths = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(ths, function (th, col) {
      th.tabIndex = 0;
      th.setAttribute("role", "columnheader");
      function sort() { self.sort(col, th.getAttribute("aria-sort") === "ascending" ? -1 : 1); }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (ev) { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); sort(); } });
    });
    if (this.pages > 1) {
      var pager = document.createElement("div");
      pager.className = "pager";
      this.prev = document.createElement("button");
      this.prev.type = "button";
      this.prev.textContent = "\u25c0 previous";
      this.next = document.createElement("button");
      this.next.type = "button";
      this.next.textContent = "next \u25b6";
      this.label = document.createElement("span");
      this.prev.addEventListener("click", function () { self.show(self.page - 1); });
      this.next.addEventListener("click", function () { self.show(self.page + 1); });
      pager.appendChild(this.prev);
      pager.appendChild(this.label);
      pager.appendChild(this.next);
      var box = table.parentNode;
      box.parentNode.insertBefore(pager, box.nextSibling);
    }
    this.show(0);
  }

  Table.prototype.sort = function (col, dir) {
    var th = this.table.tHead.rows[0].cells[col];
    var numeric = th.classList.contains("n");
    var keyed = this.rows.map(function (tr, i) { return [key(tr.cells[col].textContent, numeric), i, tr]; });
    keyed.sort(function (a, b) { return compare(a[0], b[0], dir) || a[1] - b[1]; });
    this.rows = keyed.map(function (k) { return k[2]; });
    Array.prototype.forEach.call(this.table.tHead.rows[0].cells, function (c) { c.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
    var body = this.body;
    this.rows.forEach(function (tr) { body.appendChild(tr); });
    this.show(0);
  };

  Table.prototype.show = function (page) {
    this.page = Math.max(0, Math.min(this.pages - 1, page));
    var lo = this.page * PAGE, hi = lo + PAGE;
    this.rows.forEach(function (tr, i) { tr.hidden = i < lo || i >= hi; });
    if (this.label) {
      this.label.textContent = "rows " + (lo + 1) + "\u2013" + Math.min(hi, this.rows.length) + " of " + this.rows.length;
      this.prev.disabled = this.page === 0;
      this.next.disabled = this.page === this.pages - 1;
    }
  };

  H.sortKey = key;
  H.compare = compare;
  H.tables = Array.prototype.map.call(document.querySelectorAll("table.data"), function (t) { return new Table(t); });
})(hhparse);
