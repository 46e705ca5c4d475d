/* The entry screen's table and tiles as the referee touches them (entry.js, and the
   correction pages, entry_correction.js): the open cells and the tile grid operable by
   keyboard, a tile drawn turned one way, the table fitted to a tablet's screen; the small
   helpers the other parts share (window.TriominosEntry). */
(function (entry) {
  "use strict";

  function tileName(text) {
    var digits = (text || "").replace(/[^0-9]/g, "");
    if (!/^[0-5]{3}$/.test(digits)) { return null; }
    return digits.split("").sort().join("-");
  }

  // The open cells of a board drawn with named cells (role=button) made operable by keyboard:
  // one tab stop, the arrow keys move to the nearest candidate cell in that direction (the
  // cells the tile fits once a tile is chosen), Enter or Space chooses; each cell's name says
  // its state (fits, does not fit, chosen) in the page's language (data-word-* on the board).
  function boardCells(board, onPick) {
    var cells = [];
    var words = { fits: board.dataset.wordFits || "", nofit: board.dataset.wordNofit || "",
                  chosen: board.dataset.wordChosen || "" };
    function collect() {  // again when the turns waiting to send change the table (pending.js)
      cells = Array.prototype.slice.call(board.querySelectorAll("polygon.open"));
      cells.forEach(function (cell) {
        if (!cell.dataset.label) { cell.dataset.label = cell.getAttribute("aria-label") || cell.getAttribute("data-cell"); }
        if (!cell.getAttribute("role")) { cell.setAttribute("role", "button"); }
      });
    }
    collect();
    function has(cell, name) { return cell.classList.contains(name); }
    function candidates() {
      var fitting = cells.filter(function (c) { return has(c, "fits"); });
      return fitting.length ? fitting : cells.filter(function (c) { return !has(c, "nofit"); });
    }
    function centre(cell) {
      var box = cell.getBoundingClientRect();
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    }
    function refresh() {
      cells.forEach(function (cell) {
        var state = has(cell, "picked") ? words.chosen : has(cell, "fits") ? words.fits : has(cell, "nofit") ? words.nofit : "";
        cell.setAttribute("aria-label", state ? cell.dataset.label + ", " + state : cell.dataset.label);
        cell.setAttribute("aria-pressed", has(cell, "picked") ? "true" : "false");
        cell.setAttribute("tabindex", "-1");
      });
      var stop = cells.filter(function (c) { return has(c, "picked"); })[0] || candidates()[0];
      if (stop) { stop.setAttribute("tabindex", "0"); }
    }
    function neighbour(from, key) {
      var step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
      var here = centre(from);
      var best = null;
      var bestScore = Infinity;
      candidates().forEach(function (cell) {
        var there = centre(cell);
        var dx = there.x - here.x;
        var dy = there.y - here.y;
        var along = dx * step[0] + dy * step[1];
        if (cell === from || along <= 1) { return; }
        var score = along + 2 * (Math.abs(dx * step[1]) + Math.abs(dy * step[0]));
        if (score < bestScore) { best = cell; bestScore = score; }
      });
      return best;
    }
    board.addEventListener("keydown", function (event) {
      var cell = event.target.closest && event.target.closest("polygon.open");
      if (!cell) { return; }
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        onPick(cell.getAttribute("data-cell"));
      } else if (/^Arrow/.test(event.key)) {
        event.preventDefault();
        var next = neighbour(cell, event.key);
        if (next) {
          cell.setAttribute("tabindex", "-1");
          next.setAttribute("tabindex", "0");
          next.focus({ preventScroll: true });
          keepInView(next);
        }
      }
    });
    board.addEventListener("click", function (event) {
      var cell = event.target.closest("polygon.open");
      if (cell) { onPick(cell.getAttribute("data-cell")); }
    });
    refresh();
    return {
      refresh: refresh,
      reload: function () { collect(); refresh(); },
      focus: function () {
        var stop = board.querySelector('polygon.open[tabindex="0"]');
        if (stop) { stop.focus({ preventScroll: true }); keepInView(stop); }
        return !!stop;
      },
    };
  }

  // The tile grid as one tab stop: the arrow keys move through the tiles not yet played
  // (up and down by the grid's columns), Home and End to the first and last.
  function tileGridKeys(grid) {
    var all = Array.prototype.slice.call(grid.querySelectorAll(".tile-button"));
    function enabled() { return all.filter(function (b) { return !b.disabled; }); }
    function setStop(target) {
      all.forEach(function (b) { b.tabIndex = -1; });
      if (target) { target.tabIndex = 0; }
    }
    setStop(grid.querySelector('.tile-button[aria-pressed="true"]') || enabled()[0]);
    grid.addEventListener("keydown", function (event) {
      var button = event.target.closest(".tile-button");
      if (!button) { return; }
      var columns = getComputedStyle(grid).gridTemplateColumns.split(" ").length || 10;
      var steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns, ArrowDown: columns };
      var target = null;
      if (event.key === "Home") { target = enabled()[0]; }
      else if (event.key === "End") { target = enabled().slice(-1)[0]; }
      else if (steps[event.key]) {
        for (var i = all.indexOf(button) + steps[event.key]; i >= 0 && i < all.length; i += steps[event.key]) {
          if (!all[i].disabled) { target = all[i]; break; }
        }
      }
      if (!target && !(event.key in steps) && event.key !== "Home" && event.key !== "End") { return; }
      event.preventDefault();
      if (target) { setStop(target); target.focus(); }
    });
    return { setStop: setStop };
  }

  function visible(element) {
    var box = element.getBoundingClientRect();
    return box.width > 1 && box.height > 1 && box.right > 0 && box.bottom > 0 && element.offsetParent !== null;
  }

  function keepInView(element) {
    var box = element.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      element.scrollIntoView({ block: "center", inline: "nearest" });
    }
  }

  // A tile drawn as the board draws its open cell `polygon`, turned this way ("5-3-4").
  function miniTile(polygon, corners) {
    var points = polygon.getAttribute("points").split(" ").map(function (p) { return p.split(",").map(Number); });
    var xs = points.map(function (p) { return p[0]; });
    var ys = points.map(function (p) { return p[1]; });
    var left = Math.min.apply(null, xs);
    var top = Math.min.apply(null, ys);
    var width = Math.max.apply(null, xs) - left;
    var height = Math.max.apply(null, ys) - top;
    var cx = (xs[0] + xs[1] + xs[2]) / 3;
    var cy = (ys[0] + ys[1] + ys[2]) / 3;
    var pad = width * 0.06;
    var svg = '<svg xmlns="http://www.w3.org/2000/svg" aria-hidden="true" viewBox="' + (left - pad) + " " + (top - pad) + " " +
      (width + 2 * pad) + " " + (height + 2 * pad) + '"><polygon points="' + polygon.getAttribute("points") +
      '" fill="#fdf8ec" stroke="#3b3b3b" stroke-width="' + width * 0.03 + '"/>';
    corners.split("-").forEach(function (value, i) {
      var x = points[i][0] + (cx - points[i][0]) * 0.42;
      var y = points[i][1] + (cy - points[i][1]) * 0.42;
      svg += '<text x="' + x + '" y="' + y + '" font-size="' + width * 0.22 + '" text-anchor="middle" dominant-baseline="central">' + value + "</text>";
    });
    return svg + "</svg>";
  }

  // A tablet shows the whole turn without scrolling: the board takes the height left over
  // by the entry panel (beside it in landscape, under it in portrait). Phones scroll.
  function fitBoard() {
    var board = document.getElementById("board");
    var form = document.getElementById("turn-form");
    if (!board || !form) { return; }
    if (window.innerWidth < 600 || window.innerHeight < 600) {
      board.classList.remove("board--fitted");
      board.style.height = "";
      return;
    }
    var save = form.querySelector(".save-turn") || form;
    board.classList.add("board--fitted");
    board.style.height = "10rem";
    var boardBox = board.getBoundingClientRect();
    var top = boardBox.top + window.scrollY;
    var stacked = save.getBoundingClientRect().left < boardBox.right;  // the panel under the board
    var below = stacked ? save.getBoundingClientRect().bottom - boardBox.bottom : 0;
    var room = window.innerHeight - top - below - 12;
    board.style.height = Math.max(room, 160) + "px";
  }

  entry.tileName = tileName;
  entry.boardCells = boardCells;
  entry.tileGridKeys = tileGridKeys;
  entry.visible = visible;
  entry.keepInView = keepInView;
  entry.miniTile = miniTile;
  entry.fitBoard = fitBoard;
})(window.TriominosEntry = window.TriominosEntry || {});
