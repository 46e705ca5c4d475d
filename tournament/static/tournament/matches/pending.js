/* Entry goes on while turns wait to send (queue.js): the turns of the match's queue are drawn
 * on the table and in the scores as pending (dashed, apart from the saved ones), the places
 * that fit follow them (board.js, the engine's rules), so the next tile can be placed next to
 * a pending one; the way a tile is turned is offered here when the server cannot preview it.
 * From the first write refused on, nothing is drawn: the page shows the server's match, and
 * queue.js lists the refused write with why.
 * The server checks every turn when it arrives, and its verdict wins: its answer replaces
 * all this once the queue is sent.
 */
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";
  var SQRT3_2 = Math.sqrt(3) / 2;
  var rules = window.TriominosBoard;

  function matchId() {
    var found = /\/matches\/(\d+)\//.exec(window.location.pathname);
    return found ? found[1] : null;
  }

  /* The turns waiting to send, up to the first one refused: the page shows the match as the
     server has it from there on (the refused ones are listed by queue.js, with why). */
  function waiting() {
    var id = matchId();
    var queue;
    try { queue = JSON.parse(window.localStorage.getItem("triominos.queue." + id) || "[]"); } catch (e) { queue = []; }
    var refused = queue.findIndex(function (item) { return item.state === "refused"; });
    return queue.slice(0, refused < 0 ? queue.length : refused);
  }

  function queued() {
    return waiting().filter(function (item) { return /\/turns\/$/.test(new URL(item.url, window.location.href).pathname); });
  }

  function field(item, name) {
    var pair = item.fields.filter(function (p) { return p[0] === name; })[0];
    return pair ? pair[1] : "";
  }

  function tileName(text) {
    var digits = (text || "").replace(/[^0-9]/g, "");
    return /^[0-5]{3}$/.test(digits) ? digits.split("").sort().join("-") : null;
  }

  function cellOf(text) {
    var cell = rules.parseCell(text || "");
    return cell ? rules.cellName(cell) : null;
  }

  /* The table: the server's placements, then the pending ones (each with its seat and its
     draws); also what entry.js previews a fitting tile on (window.TriominosPending.table). */
  function table() {
    var board = document.getElementById("board");
    var placements;
    try { placements = JSON.parse((board && board.dataset.placements) || "[]"); } catch (e) { placements = []; }
    var result = {board: new rules.Board(placements), pending: []};
    queued().forEach(function (item) {
      if (item.fields.some(function (p) { return p[0] === "pass"; })) {
        result.pending.push({item: item, pass: true, draws: Number(field(item, "draws")) || 0});
        return;
      }
      var tile = tileName(field(item, "tile"));
      var cell = cellOf(field(item, "cell"));
      if (!tile || !cell) { return; }
      var ways = result.board.orientations(tile, cell);
      var corners = field(item, "corners") ? field(item, "corners").split("-").map(Number) : (ways.length === 1 ? ways[0] : null);
      if (!corners) { return; }
      result.board.push(cell + ":" + corners.join("-"));
      result.pending.push({item: item, tile: tile, cell: cell, corners: corners,
                           points: Number(field(item, "claimed")) || 0,
                           player: field(item, "player"), draws: Number(field(item, "draws")) || 0});
    });
    return result;
  }

  function scoring() {
    var board = document.getElementById("board");
    try { return JSON.parse((board && board.dataset.scoring) || "null"); } catch (e) { return null; }
  }

  function xy(point, side) { return [(point[0] + point[1] / 2) * side, -point[1] * SQRT3_2 * side]; }

  function pointsText(cell, side) {
    return rules.geometry(cell).points.map(function (p) {
      var at = xy(p, side);
      return at[0].toFixed(2) + "," + at[1].toFixed(2);
    }).join(" ");
  }

  function sideOf(svg) {
    var polygon = svg.querySelector("polygon");
    if (!polygon) { return 84; }
    var p = polygon.getAttribute("points").split(" ").map(function (pair) { return pair.split(",").map(Number); });
    return Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]);
  }

  function element(name, attributes) {
    var made = document.createElementNS(SVG, name);
    Object.keys(attributes).forEach(function (key) { made.setAttribute(key, attributes[key]); });
    return made;
  }

  function drawTile(svg, side, pending) {
    var group = element("g", {"class": "tile tile--pending", "data-cell": pending.cell, "data-tile": pending.tile});
    group.appendChild(element("polygon", {points: pointsText(pending.cell, side), fill: "#fff4d6", stroke: "#b07800",
      "stroke-width": (side * 0.04).toFixed(2), "stroke-dasharray": (side * 0.1).toFixed(2) + " " + (side * 0.06).toFixed(2)}));
    var corners = rules.geometry(pending.cell).points.map(function (p) { return xy(p, side); });
    var cx = (corners[0][0] + corners[1][0] + corners[2][0]) / 3;
    var cy = (corners[0][1] + corners[1][1] + corners[2][1]) / 3;
    corners.forEach(function (at, i) {
      var label = element("text", {x: (at[0] + (cx - at[0]) * 0.42).toFixed(2), y: (at[1] + (cy - at[1]) * 0.42).toFixed(2),
        "font-size": (side * 0.22).toFixed(2), "text-anchor": "middle", "dominant-baseline": "central", fill: "#5a4100"});
      label.textContent = String(pending.corners[i]);
      group.appendChild(label);
    });
    svg.appendChild(group);
  }

  /* The open cells as the table with the pending tiles has them; the drawing grown to fit. */
  function openCells(svg, side, board) {
    var open = board.openCells();
    svg.querySelectorAll("polygon.open").forEach(function (polygon) {
      var taken = open.indexOf(polygon.getAttribute("data-cell")) < 0;
      polygon.classList.toggle("open", !taken);
      if (taken) { polygon.classList.add("open--taken"); polygon.setAttribute("display", "none"); }
    });
    var first = svg.querySelector("g.tile");
    open.forEach(function (cell) {
      if (svg.querySelector('polygon.open[data-cell="' + cell + '"]')) { return; }
      var polygon = element("polygon", {"class": "open open--pending", "data-cell": cell, role: "button",
        "aria-label": cell, points: pointsText(cell, side), fill: "#ffffff", "fill-opacity": "0", stroke: "#7a8b99",
        "stroke-width": (side * 0.025).toFixed(2), "stroke-dasharray": (side * 0.08).toFixed(2) + " " + (side * 0.06).toFixed(2)});
      svg.insertBefore(polygon, first);
    });
    var xs = [];
    var ys = [];
    svg.querySelectorAll("polygon:not([display=none])").forEach(function (polygon) {
      polygon.getAttribute("points").split(" ").forEach(function (pair) {
        var at = pair.split(",").map(Number);
        xs.push(at[0]);
        ys.push(at[1]);
      });
    });
    var margin = side * 0.25;
    var left = Math.min.apply(null, xs) - margin;
    var top = Math.min.apply(null, ys) - margin;
    var width = Math.max.apply(null, xs) - Math.min.apply(null, xs) + 2 * margin;
    var height = Math.max.apply(null, ys) - Math.min.apply(null, ys) + 2 * margin;
    svg.setAttribute("viewBox", [left, top, width, height].map(function (v) { return v.toFixed(2); }).join(" "));
    svg.setAttribute("width", width.toFixed(2));
    svg.setAttribute("height", height.toFixed(2));
  }

  /* The scores: each pending turn's points beside its player (a pass's cost: its draws, and
     the failed draws' penalty after the most draws allowed), the settlement of racks waiting
     to send (round_end.js), and who plays next. */
  function seats(pending) {
    var rows = Array.prototype.slice.call(document.querySelectorAll("#match .seats > .seat"));
    if (!rows.length) { return; }
    var next = rows.findIndex(function (row) { return row.classList.contains("seat--next"); });
    var added = rows.map(function () { return null; });
    var figures = scoring();
    pending.forEach(function (turn) {
      var player = turn.player !== undefined && turn.player !== "" ? Number(turn.player) : next;
      if (player < 0 || player >= rows.length) { return; }
      if (!turn.pass) {
        added[player] = (added[player] || 0) + turn.points;
      } else if (figures) {
        added[player] = (added[player] || 0) - rules.passPenalty(turn.draws, figures.rules);
      }
      next = (player + 1) % rows.length;
    });
    var settlement = window.TriominosRoundEnd ? window.TriominosRoundEnd.pendingSettlement() : null;
    (settlement || []).forEach(function (points, index) {
      if (index < rows.length) { added[index] = (added[index] || 0) + points; }
    });
    rows.forEach(function (row, index) {
      var shown = row.querySelector(".seat-pending");
      if (shown) { shown.remove(); }
      if (added[index] !== null) {
        shown = document.createElement("span");
        shown.className = "seat-pending";
        shown.setAttribute("data-points", String(added[index]));
        shown.textContent = (added[index] >= 0 ? "+" : "") + added[index];
        row.querySelector(".seat-total").after(shown);
      }
      row.classList.toggle("seat--next", index === next);
      if (index === next) { row.setAttribute("aria-current", "true"); } else { row.removeAttribute("aria-current"); }
    });
    var toPlay = document.querySelector("#match .to-play");
    if (toPlay && next >= 0) {
      toPlay.textContent = rows[next].querySelector(".seat-letter").textContent + " · " + rows[next].querySelector(".seat-name").textContent;
    }
  }

  function draw() {
    var board = document.getElementById("board");
    var svg = board && board.querySelector("svg");
    if (!rules || !board || !board.hasAttribute("data-placements")) { return; }
    var state = table();
    var placed = state.pending.filter(function (turn) { return !turn.pass; });
    if (!state.pending.length || board.hasAttribute("data-pending")) { return; }  // drawn once per page
    board.setAttribute("data-pending", String(waiting().length));
    if (!board.dataset.legalServer) { board.dataset.legalServer = board.dataset.legal || "{}"; }
    if (placed.length && svg) {
      var side = sideOf(svg);
      placed.forEach(function (turn) { drawTile(svg, side, turn); });
      openCells(svg, side, state.board);
      var played = state.board.tiles;
      board.dataset.legal = JSON.stringify(state.board.legalCells(rules.allTiles().filter(function (t) { return !(t in played); })));
      placed.forEach(function (turn) {
        var button = document.querySelector('.tile-button[data-tile="' + turn.tile + '"]');
        if (button) { button.disabled = true; button.classList.add("tile-button--pending"); }
      });
      board.dispatchEvent(new CustomEvent("entry:board-changed"));
    }
    seats(state.pending);
  }

  /* The way the tile is turned, offered from the table with the pending tiles (the server
     cannot preview a place next to a tile it has not received). */
  function localPreview(form) {
    var preview = form.querySelector("#turn-preview");
    var tile = tileName((form.querySelector("#id_tile") || {}).value);
    var cell = cellOf((form.querySelector("#id_cell") || {}).value);
    if (!preview || !tile || !cell) { return; }
    var ways = table().board.orientations(tile, cell);
    preview.innerHTML = "";
    var head = document.createElement("p");
    head.className = "preview-head preview-head--pending";
    head.setAttribute("data-cell", cell);
    head.textContent = tile + " → " + cell;
    preview.appendChild(head);
    if (ways.length === 1) {
      preview.insertAdjacentHTML("beforeend", '<input type="hidden" name="corners" value="' + ways[0].join("-") + '">');
    } else if (ways.length > 1) {
      var set = document.createElement("fieldset");
      set.className = "orientations";
      ways.forEach(function (way, index) {
        var label = document.createElement("label");
        label.className = "orientation";
        label.innerHTML = '<input type="radio" name="corners" value="' + way.join("-") + '"' + (index ? "" : " checked") + "> " + way.join("-");
        set.appendChild(label);
      });
      preview.appendChild(set);
    }
  }

  document.addEventListener("htmx:configRequest", function (event) {
    if (!/\/preview\/$/.test(event.detail.path) || !queued().length) { return; }
    event.preventDefault();
    var form = event.detail.elt.closest ? event.detail.elt.closest("form") : null;
    if (form) { localPreview(form); }
  });
  document.addEventListener("htmx:sendError", function (event) {  // offline: no preview
    var config = event.detail.requestConfig;
    var form = event.detail.elt && event.detail.elt.closest ? event.detail.elt.closest("form") : null;
    if (config && /\/preview\/$/.test(config.path) && form) { localPreview(form); }
  });
  document.addEventListener("entry:queue-changed", function () {
    var board = document.getElementById("board");
    if (board && board.hasAttribute("data-pending") && Number(board.getAttribute("data-pending")) !== waiting().length) {
      board.removeAttribute("data-pending");
      redraw();
      return;
    }
    draw();
  });

  /* The table drawn again from what the server sent last (kept in the page), then the queue. */
  function redraw() {
    var board = document.getElementById("board");
    if (!board) { return; }
    board.querySelectorAll(".tile--pending, .open--pending").forEach(function (e) { e.remove(); });
    board.querySelectorAll(".open--taken").forEach(function (e) { e.classList.remove("open--taken"); e.classList.add("open"); e.removeAttribute("display"); });
    document.querySelectorAll(".tile-button--pending").forEach(function (b) { b.disabled = false; b.classList.remove("tile-button--pending"); });
    if (board.dataset.legalServer) { board.dataset.legal = board.dataset.legalServer; }
    draw();
    if (!board.hasAttribute("data-pending")) { board.dispatchEvent(new CustomEvent("entry:board-changed")); }
  }

  /* A write of the queue saved while others still wait: the table and the scores as the
     server now has them (the form, where the referee may be typing, is left alone). */
  document.addEventListener("entry:saved", function (event) {
    var fresh = new DOMParser().parseFromString(event.detail.html, "text/html");
    var board = document.getElementById("board");
    var newBoard = fresh.getElementById("board");
    var form = document.getElementById("turn-form");
    var newForm = fresh.getElementById("turn-form");
    if (form && newForm && newForm.hasAttribute("data-pool")) {  // the pool as now drawn
      form.setAttribute("data-pool", newForm.getAttribute("data-pool"));
    }
    if (board && newBoard) {
      ["data-placements", "data-legal"].forEach(function (name) {
        if (newBoard.hasAttribute(name)) { board.setAttribute(name, newBoard.getAttribute(name)); }
      });
      delete board.dataset.legalServer;
      board.removeAttribute("data-pending");
      board.innerHTML = newBoard.innerHTML;
    }
    ["#match .seats", "#match .round-state"].forEach(function (selector) {
      var here = document.querySelector(selector);
      var there = fresh.querySelector(selector);
      if (here && there) { here.replaceWith(document.importNode(there, true)); }
    });
    redraw();
  });

  window.TriominosPending = {table: table};
  document.addEventListener("DOMContentLoaded", draw);
})();
