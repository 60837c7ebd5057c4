/* hhparse replayer: draws one step of a replay document (hhparse.reports.replay) at a time.
   Every amount, board and card shown is the document's: nothing about the hand is computed here. */
"use strict";
var hhparse = window.hhparse || {};
window.hhparse = hhparse;
(function (H) {
  var SVGNS = "http://www.w3.org/2000/svg";
  var SYMBOLS = {USD: "$", EUR: "\u20ac", GBP: "\u00a3", CAD: "C$", AUD: "A$"};
  var SUITS = {s: "spades", h: "hearts", d: "diamonds", c: "clubs"};
  var STREETS = ["Pre-flop", "Flop", "Turn", "River", "Showdown"];

  /* An amount in minor units as text: the same rules as hhparse.reports.replay.money_text. */
  function fmt(v, unit, scale) {
    var sign = v < 0 ? "-" : "", a = Math.abs(v), text;
    if (scale === 1) {
      text = String(a);
    } else {
      var cents = a % 100;
      text = String((a - cents) / 100) + "." + (cents < 10 ? "0" : "") + cents;
    }
    if (scale === 1 || unit === "chips" || unit === "play") return sign + text;
    var sym = SYMBOLS[unit];
    return sym ? sign + sym + text : sign + text + " " + unit;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function svg(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }

  /* A drawn card: "Ah" face up, null face down. */
  function card(code, extra) {
    var s = svg("svg", {viewBox: "0 0 40 57", "class": "card" + (code ? "" : " back") + (extra ? " " + extra : "")});
    s.appendChild(svg("rect", {x: 1, y: 1, width: 38, height: 55, rx: 4}));
    if (!code) {
      s.appendChild(svg("path", {d: "M6 6h28v45H6z M6 6l28 45 M34 6L6 51"}));
      s.setAttribute("aria-label", "face-down card");
      return s;
    }
    var rank = code.charAt(0) === "T" ? "10" : code.charAt(0), suit = code.charAt(1);
    s.setAttribute("data-card", code);
    s.setAttribute("aria-label", code);
    s.setAttribute("role", "img");
    var t = svg("text", {x: 4, y: 18, "class": suit});
    t.textContent = rank;
    s.appendChild(t);
    s.appendChild(svg("use", {href: "#suit-" + suit, x: 13, y: 27, width: 24, height: 24, "class": suit}));
    var title = svg("title", {});
    title.textContent = rank + " of " + (SUITS[suit] || suit);
    s.appendChild(title);
    return s;
  }

  function readHash() {
    var out = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      var i = part.indexOf("=");
      if (i > 0) out[decodeURIComponent(part.slice(0, i))] = decodeURIComponent(part.slice(i + 1));
    });
    return out;
  }

  /* One replayer in `root` for document `doc`; opts: {all: bool, hashKey: string|null}. */
  function Replayer(root, doc, opts) {
    var self = this;
    this.doc = doc;
    this.opts = opts || {};
    this.all = !!this.opts.all;
    this.i = 0;
    this.timer = null;
    var h = doc.hand, unit = h.unit, scale = h.scale;
    this.money = function (v) { return fmt(v, unit, scale); };
    this.el = root;
    var options = document.getElementById("rp-opts");
    root.textContent = "";
    root.classList.add("rp");

    var head = el("div", "rp-head");
    head.appendChild(el("h1", null, "Hand #" + h.id));
    var meta = [h.game, h.stakes + (scale === 1 ? "" : " " + unit)];
    if (h.tournament) meta.push("Tournament #" + h.tournament + (h.level ? " level " + h.level : ""));
    meta.push("table \u2018" + h.table + "\u2019", h.start);
    head.appendChild(el("p", "meta", meta.join(" \u00b7 ")));
    root.appendChild(head);
    if (options) {
      options.hidden = false;
      root.appendChild(options);
    }

    var table = el("div", "rp-table");
    table.appendChild(el("div", "rp-felt"));
    var center = el("div", "rp-center");
    this.boardEl = el("div", "rp-board");
    this.potEl = el("div", "rp-pot");
    this.potsEl = el("ol", "rp-pots");
    center.appendChild(this.boardEl);
    center.appendChild(this.potEl);
    center.appendChild(this.potsEl);
    table.appendChild(center);
    this.seatEls = [];
    this.betEls = [];
    doc.seats.forEach(function (seat, k) {
      var x = seat.xy[0], y = seat.xy[1];
      var s = el("div", "seat" + (seat.hero ? " hero" : "") + (seat.dealt_in ? "" : " out"));
      s.style.left = (7 + x * 0.86) + "%";
      s.style.top = y + "%";
      s.setAttribute("data-i", k);
      s.setAttribute("data-seat", seat.seat);
      var cards = el("div", "cards");
      var box = el("div", "box");
      box.appendChild(el("div", "name", seat.name));
      var stack = el("div", "stack");
      box.appendChild(stack);
      var allin = el("div", "allin");
      box.appendChild(allin);
      if (seat.seat === h.button) box.appendChild(el("span", "tag btn", "D"));
      if (seat.pos === "SB" || seat.pos === "BB") box.appendChild(el("span", "tag", seat.pos));
      box.title = "Seat " + seat.seat + (seat.pos ? " \u00b7 " + seat.pos : "") + (seat.dealt_in ? "" : " \u00b7 sitting out");
      var desc = el("div", "desc");
      s.appendChild(cards);
      s.appendChild(box);
      s.appendChild(desc);
      table.appendChild(s);
      var bet = el("div", "bet");
      bet.style.left = (7 + (50 + (x - 50) * 0.58) * 0.86) + "%";
      bet.style.top = (50 + (y - 50) * 0.5) + "%";
      table.appendChild(bet);
      self.seatEls.push({root: s, cards: cards, stack: stack, allin: allin, desc: desc, key: ""});
      self.betEls.push(bet);
    });
    root.appendChild(table);

    var controls = el("div", "rp-controls");
    controls.setAttribute("role", "toolbar");
    function button(label, title, fn) {
      var b = el("button", null, label);
      b.type = "button";
      b.title = title;
      b.addEventListener("click", fn);
      controls.appendChild(b);
      return b;
    }
    this.firstBtn = button("\u00ab", "First step (Home)", function () { self.go(0); });
    this.prevBtn = button("\u25c0", "Step back (\u2190)", function () { self.go(self.i - 1); });
    this.playBtn = button("\u25b6 Play", "Play / pause (space)", function () { self.toggle(); });
    this.nextBtn = button("\u25b6", "Step forward (\u2192)", function () { self.go(self.i + 1); });
    this.lastBtn = button("\u00bb", "Last step (End)", function () { self.go(doc.steps.length - 1); });
    controls.appendChild(el("span", "sep"));
    this.jumps = [];
    STREETS.forEach(function (name, street) {
      var target = self.firstOfStreet(street);
      var b = button(name, "Jump to " + name.toLowerCase(), function () { self.go(target); });
      b.disabled = target < 0;
      b.setAttribute("data-street", street);
    });
    this.counter = el("span", "rp-count");
    controls.appendChild(el("span", "sep"));
    controls.appendChild(this.counter);
    root.appendChild(controls);
    this.nowEl = el("p", "rp-now");
    this.nowEl.setAttribute("aria-live", "polite");
    root.appendChild(this.nowEl);

    var cols = el("div", "rp-cols");
    this.logEl = el("ol", "rp-log");
    this.logEl.start = 0;
    doc.steps.forEach(function (step, k) {
      var li = el("li", step.kind === "street" || step.kind === "deal" ? "street" : null, step.label);
      li.value = k;
      li.addEventListener("click", function () { self.go(k); });
      self.logEl.appendChild(li);
    });
    cols.appendChild(this.logEl);
    var res = el("table", "rp-results");
    var thead = el("thead");
    var hr = el("tr");
    ["Pot", "Run", "Half", "Amount", "Winner", "Won", "Hand"].forEach(function (t) { hr.appendChild(el("th", null, t)); });
    thead.appendChild(hr);
    res.appendChild(thead);
    var tbody = el("tbody");
    this.resultRows = [];
    doc.results.forEach(function (r) {
      r.winners.forEach(function (w, j) {
        var tr = el("tr", "pending");
        tr.appendChild(el("td", null, j ? "" : (r.pot === 0 ? "Main pot" : "Side pot " + r.pot)));
        tr.appendChild(el("td", null, j || !r.run ? "" : String(r.run)));
        tr.appendChild(el("td", null, j ? "" : r.half));
        tr.appendChild(el("td", "n", j ? "" : self.money(r.amount)));
        tr.appendChild(el("td", null, doc.seats[w.seat].name));
        tr.appendChild(el("td", "n", self.money(w.amount)));
        tr.appendChild(el("td", null, w.desc));
        tr.setAttribute("data-pot", r.pot);
        tbody.appendChild(tr);
        self.resultRows.push(tr);
      });
    });
    res.appendChild(tbody);
    var resBox = el("div");
    resBox.appendChild(el("h2", null, "Pots, halves and winners"));
    resBox.appendChild(res);
    resBox.appendChild(el("p", "note", "Total pot " + this.money(h.total_pot) + " \u00b7 rake " + this.money(h.rake) +
      (h.warnings.length ? " \u00b7 warnings: " + h.warnings.join(", ") : "")));
    cols.appendChild(resBox);
    root.appendChild(cols);
  }

  Replayer.prototype.firstOfStreet = function (street) {
    var steps = this.doc.steps;
    for (var k = 0; k < steps.length; k++) {
      var s = steps[k];
      if (street === 0 && s.kind === "deal") return k;
      if (street > 0 && street < 4 && s.kind === "street" && s.street === street) return k;
      if (street === 4 && (s.kind === "showdown" || s.kind === "award")) return k;
    }
    return -1;
  };

  Replayer.prototype.go = function (k) {
    var n = this.doc.steps.length;
    k = Math.max(0, Math.min(n - 1, k | 0));
    this.render(k);
    if (this.opts.onStep) this.opts.onStep(k);
  };

  Replayer.prototype.toggle = function () {
    var self = this;
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    } else {
      if (this.i >= this.doc.steps.length - 1) this.go(0);
      this.timer = setInterval(function () {
        if (self.i >= self.doc.steps.length - 1) self.toggle();
        else self.go(self.i + 1);
      }, 900);
    }
    this.playBtn.textContent = this.timer ? "\u23f8 Pause" : "\u25b6 Play";
  };

  Replayer.prototype.setAll = function (all) {
    this.all = !!all;
    this.seatEls.forEach(function (e) { e.key = ""; });
    this.render(this.i);
  };

  Replayer.prototype.render = function (k) {
    var doc = this.doc, h = doc.hand, s = doc.steps[k], self = this;
    this.i = k;
    var data = this.el.dataset;  /* what step is shown, for tests and for styling */
    data.step = k;
    data.kind = s.kind;
    data.seq = s.seq === null ? "" : s.seq;
    data.street = s.street;
    data.run = s.run || 0;
    data.award = s.award ? s.award.join(",") : "";
    var folded = {}, allin = {}, shown = {}, winners = {};
    s.folded.forEach(function (j) { folded[j] = true; });
    s.allin.forEach(function (j) { allin[j] = true; });
    s.shown.forEach(function (j) { shown[j] = true; });
    if (s.award) {
      doc.results.forEach(function (r) {
        if (r.pot === s.award[0] && r.run === s.award[1]) r.winners.forEach(function (w) { winners[w.seat] = true; });
      });
    }
    var late = s.kind === "showdown" || s.kind === "award" || s.kind === "end";
    doc.seats.forEach(function (seat, j) {
      var e = self.seatEls[j];
      e.root.classList.toggle("folded", !!folded[j]);
      e.root.classList.toggle("actor", s.actor === j);
      e.root.classList.toggle("winner", !!winners[j]);
      e.stack.textContent = self.money(s.stacks[j]);
      e.stack.setAttribute("data-v", s.stacks[j]);
      e.allin.textContent = allin[j] && s.stacks[j] === 0 ? "ALL-IN" : "";
      var bet = self.betEls[j];
      bet.textContent = s.bets[j] ? self.money(s.bets[j]) : "";
      bet.setAttribute("data-v", s.bets[j]);
      bet.style.display = s.bets[j] ? "" : "none";
      /* Which cards: face up when known and visible from where we sit, backs otherwise. */
      var faceUp = seat.cards.length > 0 && (self.all || seat.hero || !!shown[j]);
      var mode = !s.dealt || !seat.dealt_in ? "none" : folded[j] && !faceUp ? "none" : faceUp ? "up" : "down";
      var key = mode + (mode === "up" ? seat.cards.join("") : "");
      if (key !== e.key) {
        e.key = key;
        e.cards.textContent = "";
        if (mode === "up") seat.cards.forEach(function (c) { e.cards.appendChild(card(c)); });
        if (mode === "down") for (var c = 0; c < h.hole; c++) e.cards.appendChild(card(null));
      }
      var lines = [];
      if (late && shown[j]) {
        doc.shown.forEach(function (sh) {
          if (sh.seat !== j) return;
          var text = (sh.run ? "Run " + sh.run + ": " : "") + sh.high + (sh.low ? "; low " + sh.low : (h.hilo ? "; no low" : ""));
          lines.push(text);
        });
      }
      e.desc.textContent = lines.join("\n");
      e.desc.style.display = lines.length ? "" : "none";
    });
    this.potEl.textContent = "Pot " + this.money(s.pot);
    this.potEl.setAttribute("data-v", s.pot);
    this.potsEl.textContent = "";
    var awarded = {};
    s.awarded.forEach(function (p) { awarded[p] = true; });
    if (s.pots.length > 1 || (s.pots.length === 1 && s.pots[0][0] !== s.pot)) {
      s.pots.forEach(function (p, j) {
        var li = el("li", awarded[j] ? "awarded" : null, (j ? "Side pot " + j : "Main pot") + " " + self.money(p[0]));
        li.setAttribute("data-v", p[0]);
        li.title = p[1].map(function (x) { return doc.seats[x].name; }).join(", ");
        self.potsEl.appendChild(li);
      });
    }
    this.drawBoard(s);
    this.resultRows.forEach(function (tr) {
      tr.classList.toggle("pending", !awarded[+tr.getAttribute("data-pot")]);
    });
    this.nowEl.textContent = s.label;
    this.counter.textContent = "Step " + k + " / " + (doc.steps.length - 1);
    this.prevBtn.disabled = this.firstBtn.disabled = k === 0;
    this.nextBtn.disabled = this.lastBtn.disabled = k === doc.steps.length - 1;
    var items = this.logEl.children;
    for (var j = 0; j < items.length; j++) items[j].classList.toggle("cur", j === k);
    if (items[k] && items[k].scrollIntoView && this.logEl.scrollHeight > this.logEl.clientHeight) {
      var top = items[k].offsetTop - this.logEl.offsetTop;
      if (top < this.logEl.scrollTop || top > this.logEl.scrollTop + this.logEl.clientHeight - 20) this.logEl.scrollTop = top - 60;
    }
  };

  Replayer.prototype.drawBoard = function (s) {
    var b = this.boardEl, boards = this.doc.hand.boards, exposed = this.doc.hand.exposed;
    var key = s.board.join(",");
    if (b.getAttribute("data-k") === key) return;
    b.setAttribute("data-k", key);
    b.textContent = "";
    [0, 1].forEach(function (run) {
      var n = s.board[run];
      if (!n || !boards[run]) return;
      var row = el("div", "row");
      row.setAttribute("data-run", run + 1);
      if (s.board[1]) row.appendChild(el("b", null, run ? "Run 2" : "Run 1"));
      boards[run].slice(0, n).forEach(function (c, j) {
        row.appendChild(card(c, j === 0 && exposed && c === exposed ? "door" : ""));
      });
      b.appendChild(row);
    });
  };

  /* Hands the page its keyboard and URL fragment: arrows, Home/End, space; #step=N (and #hand=ID). */
  function wire(getReplayer, onHash) {
    document.addEventListener("keydown", function (ev) {
      var r = getReplayer();
      var tag = ev.target && ev.target.tagName;
      if (!r || tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      if (ev.key === "ArrowRight") r.go(r.i + 1);
      else if (ev.key === "ArrowLeft") r.go(r.i - 1);
      else if (ev.key === "Home") r.go(0);
      else if (ev.key === "End") r.go(r.doc.steps.length - 1);
      else if (ev.key === " " && tag !== "BUTTON") r.toggle();
      else return;
      ev.preventDefault();
    });
    window.addEventListener("hashchange", onHash);
    onHash();
  }

  function setHash(params) {
    var parts = [];
    for (var k in params) parts.push(encodeURIComponent(k) + "=" + encodeURIComponent(params[k]));
    var hash = "#" + parts.join("&");
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  /* The page of one or several replays: its data is the JSON element #hh-replay. */
  function boot() {
    var data = document.getElementById("hh-replay");
    var root = document.getElementById("replay");
    if (!data || !root) return;
    var payload = JSON.parse(data.textContent);
    var docs = payload.docs, byId = {}, current = null;
    docs.forEach(function (d) { byId[d.hand.id] = d; });
    var many = docs.length > 1 || payload.list;
    var deck = document.getElementById("deck4"), all = document.getElementById("allcards");
    if (deck) {
      deck.checked = payload.deck === 4;
      document.body.classList.toggle("deck4", deck.checked);
      deck.addEventListener("change", function () { document.body.classList.toggle("deck4", deck.checked); });
    }
    if (all) {
      all.checked = !!payload.all;
      all.addEventListener("change", function () { if (current) current.setAll(all.checked); });
    }
    function open(doc) {
      current = new Replayer(root, doc, {
        all: all ? all.checked : !!payload.all,
        onStep: function (k) {
          var p = many ? {hand: doc.hand.id, step: k} : {step: k};
          setHash(p);
        }
      });
      root.hidden = false;
    }
    function onHash() {
      var p = readHash();
      var doc = many ? byId[p.hand] : docs[0];
      if (!doc) {
        if (!many) return;
        root.hidden = true;
        current = null;
        return;
      }
      if (!current || current.doc !== doc) {
        open(doc);
        if (many) root.scrollIntoView();
      }
      var step = parseInt(p.step, 10);
      current.render(isNaN(step) ? 0 : Math.max(0, Math.min(doc.steps.length - 1, step)));
    }
    wire(function () { return current; }, onHash);
    H.current = function () { return current; };
  }

  H.fmt = fmt;
  H.card = card;
  H.Replayer = Replayer;
  H.readHash = readHash;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})(hhparse);
