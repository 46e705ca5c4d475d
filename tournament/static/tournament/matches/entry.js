/* The entry screen of a match (board mode): pick the tile, tap the cell, enter the points.
   A tile that fits the cell is previewed here, as the engine would (board.js, with the rule
   set's figures and words the server put on the form); one that does not, or a table the
   browser does not know, is previewed by the server (htmx), which also checks every save.
   Without the script the form still posts: the tile is typed and the cell chosen from a list. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

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

  function initEntry(root) {
    var form = root.querySelector("#turn-form");
    if (!form) { return; }
    var board = document.getElementById("board");
    var legal = {};
    function readLegal() {
      try { legal = JSON.parse((board && board.dataset.legal) || "{}"); } catch (e) { legal = {}; }
    }
    readLegal();
    var tileInput = form.querySelector("#id_tile");
    var cellField = form.querySelector("#id_cell");
    var claim = form.querySelector("#id_claimed");
    var asComputed = form.querySelector(".as-computed");
    var preview = form.querySelector("#turn-preview");
    var openCells = board ? Array.prototype.slice.call(board.querySelectorAll("polygon.open")) : [];
    var grid = form.querySelector(".tile-grid");
    if (grid && form.hasAttribute("data-tiles-kept")) {
      var placed;
      try { placed = JSON.parse((board && board.dataset.placements) || "[]"); } catch (e) { placed = []; }
      syncTiles(grid, legal, placed);
    }
    // a tile kept from the page before the answer (hx-preserve) is not the one chosen now
    form.querySelectorAll('.tile-button[aria-pressed="true"]').forEach(function (b) {
      if (b.getAttribute("data-tile") !== tileInput.value) { b.setAttribute("aria-pressed", "false"); }
    });
    var tiles = grid ? tileGridKeys(grid) : null;
    var picker = board && openCells.length ? boardCells(board, function (cell) { pickCell(cell); }) : null;
    cellField.tabIndex = -1;  // the board takes the cell; the list is for pages without script
    if (board) {  // the turns waiting to send drawn on the table (pending.js): its cells anew
      board.addEventListener("entry:board-changed", function () {
        readLegal();
        openCells = Array.prototype.slice.call(board.querySelectorAll("polygon.open"));
        if (!picker && openCells.length) { picker = boardCells(board, function (cell) { pickCell(cell); }); }
        if (picker) { picker.reload(); }
        markCells(tileInput.value || null);
      });
    }

    function markCells(tile) {
      var fits = legal[tile] || [];
      openCells.forEach(function (polygon) {
        var cell = polygon.getAttribute("data-cell");
        polygon.classList.toggle("fits", tile !== null && fits.indexOf(cell) >= 0);
        polygon.classList.toggle("nofit", tile !== null && fits.indexOf(cell) < 0);
        polygon.classList.toggle("picked", cell === cellField.value);
      });
      if (picker) { picker.refresh(); }
    }

    // A fitting tile previewed here, without a request; otherwise the server's word. An
    // answer to a question asked before the last one is not shown (X-Preview-Asked).
    var previewsAsked = 0;
    function askPreview() {
      if (!tileInput.value || !cellField.value) { return; }
      previewsAsked += 1;
      if (showLocalPreview(form, preview, board)) { afterPreview(); return; }
      if (!window.htmx) { return; }
      htmx.ajax("POST", form.dataset.previewUrl, { source: form, target: preview, swap: "innerHTML",
                                                   headers: { "X-Preview-Asked": String(previewsAsked) } });
    }
    form.addEventListener("htmx:beforeSwap", function (event) {
      var headers = event.detail.requestConfig && event.detail.requestConfig.headers;
      var asked = headers && headers["X-Preview-Asked"];
      if (event.detail.target === preview && asked && Number(asked) !== previewsAsked) {
        event.detail.shouldSwap = false;
      }
    });

    // What follows a preview shown, the server's or this script's.
    function afterPreview() {
      fitBoard();
      var score = preview.querySelector("[data-points]");
      if (asComputed) { asComputed.disabled = !score; }
      if (score && claim && !preview.querySelector('input[name="corners"][type="radio"]:not(:checked)')) {
        claim.focus({ preventScroll: true });
      }
    }

    // The points are typed while the engine's preview is on its way: the field takes the
    // keys at once (a save sent meanwhile waits in htmx's queue for the preview).
    function readyForPoints() {
      if (!claim) { return; }
      claim.focus({ preventScroll: true });
      keepInView(claim);
    }

    // byKeyboard: the focus goes on to the board, the next step of the turn
    function selectTile(name, byKeyboard) {
      var button = form.querySelector('.tile-button[data-tile="' + name + '"]');
      form.querySelectorAll('.tile-button[aria-pressed="true"]').forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
      if (button) { button.setAttribute("aria-pressed", "true"); if (tiles) { tiles.setStop(button); } }
      tileInput.value = name;
      if (openCells.length === 1) {  // the opening: the one place there is
        pickCell(openCells[0].getAttribute("data-cell"));
        return;
      }
      markCells(name);
      askPreview();
      if (byKeyboard && picker && (legal[name] || []).length) { picker.focus(); }
    }

    function pickCell(cell) {
      if (!cell) { return; }
      if (!Array.prototype.some.call(cellField.options || [], function (o) { return o.value === cell; })) {
        var option = document.createElement("option");
        option.value = cell; option.textContent = cell;
        cellField.appendChild(option);
      }
      cellField.value = cell;
      markCells(tileInput.value || null);
      askPreview();
      if (tileInput.value) { readyForPoints(); }
    }

    form.addEventListener("click", function (event) {
      var button = event.target.closest(".tile-button");
      if (button && !button.disabled) { selectTile(button.getAttribute("data-tile"), event.detail === 0); return; }
      if (event.target.closest(".as-computed")) {
        var score = preview.querySelector("[data-points]");
        if (score) { claim.value = score.getAttribute("data-points"); claim.focus({ preventScroll: true }); claim.select(); }
      }
    });
    var passConfirm = root.querySelector("#pass-confirm");
    if (passConfirm) {
      passConfirm.addEventListener("toggle", function () {
        if (passConfirm.open) { passConfirm.querySelector("button[type=submit]").focus(); }
      });
    }
    tileInput.addEventListener("keydown", function (event) {
      if (event.key === "Enter") { event.preventDefault(); }
    });
    tileInput.addEventListener("input", function () {
      var name = tileName(tileInput.value);
      if (name) {
        var button = form.querySelector('.tile-button[data-tile="' + name + '"]');
        if (button && !button.disabled) { selectTile(name, true); }
      }
    });
    form.addEventListener("change", function (event) {
      if (event.target.name === "draws" || event.target.name === "player" || event.target === cellField) {
        askPreview();
      }
    });
    preview.addEventListener("htmx:afterSwap", afterPreview);
    if (asComputed) { asComputed.disabled = !preview.querySelector("[data-points]"); }
    if (tileInput.value) { markCells(tileInput.value); } else { markCells(null); }
    var invalid = Array.prototype.filter.call(
      form.querySelectorAll(".field--invalid input:not([type=hidden]), .field--invalid select"), visible)[0];
    if (!invalid && form.querySelector(".cell-field.field--invalid") && picker && picker.focus()) { return; }
    var start = invalid || tileInput;
    start.focus({ preventScroll: true });
    keepInView(start);
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

  // The outcome of a write, said where the referee is looking: a persistent live region
  // pinned to the bottom of the screen (outside #match, so that it survives the swaps). The
  // server names it (the event "entry-announce" of its HX-Trigger-After-Settle header, or the
  // queue's answer): saved (green, fades), pending (a decision awaited: amber, stays),
  // already saved, stale or refused (red, stays).
  function announce(kind, text) {
    var region = document.getElementById("entry-status");
    var toast = document.getElementById("entry-toast");
    if (!region || !toast) { return; }
    window.clearTimeout(announce.timer);
    region.textContent = text || "";
    var failed = kind === "stale" || kind === "refused";
    toast.setAttribute("data-kind", kind || "");
    toast.classList.toggle("entry-toast--error", failed);
    toast.classList.toggle("entry-toast--pending", kind === "pending");
    toast.classList.toggle("entry-toast--shown", !!text);
    if (text && (kind === "saved" || kind === "already-saved")) {
      announce.timer = window.setTimeout(function () { toast.classList.remove("entry-toast--shown"); }, 6000);
    }
  }

  // After a refused write, the first field refused is brought into view with the focus on it.
  function focusRefused(root) {
    var fieldError = root.querySelector(".field-errors, .form-errors");
    if (!fieldError) { return; }
    var holder = fieldError.closest(".field, tr, .keep-claim, form") || fieldError;
    var field = Array.prototype.filter.call(holder.querySelectorAll("input:not([type=hidden]), select, textarea"), visible)[0];
    if (field) { field.focus({ preventScroll: true }); keepInView(field); } else { keepInView(fieldError); }
  }

  // A refused or stale write (400, 409) answers with the match and its message, and a 5xx
  // leaves the write to the tablet's queue (queue.js): with DEBUG on, django-htmx's debug
  // script would otherwise replace the whole document with the answer, and the turn with it.
  function guardDebugSwap() {
    document.body.addEventListener("htmx:beforeOnLoad", function (event) {
      var xhr = event.detail.xhr;
      if (xhr && (xhr.status === 400 || xhr.status === 409 || xhr.status >= 500) && event.target.closest && event.target.closest("#match")) {
        event.stopPropagation();
      }
    });
  }

  // The correction and insertion pages: the table before the turn. The tile typed lights the
  // cells it fits; a tap (or Enter) on one fills the cell, and the ways the tile fits there
  // are offered, drawn; one tap fills the corners. Typing the cell and corners still works.
  function initCorrection(root) {
    var board = root.querySelector("#board[data-fits]");
    var form = root.querySelector("form.turn-edit");
    if (!board || !form) { return; }
    var fits = {};
    try { fits = JSON.parse(board.dataset.fits || "{}"); } catch (e) { fits = {}; }
    var tileInput = form.querySelector("#id_tile");
    var cellInput = form.querySelector("#id_cell");
    var cornersInput = form.querySelector("#id_corners");
    var choice = root.querySelector("#orientation-choice");
    var options = choice.querySelector(".orientation-options");
    var cells = Array.prototype.slice.call(board.querySelectorAll("polygon.open"));
    var picker = boardCells(board, function (cell) {
      cellInput.value = cell;
      update();
      var first = options.querySelector("input");
      if (first) { first.focus({ preventScroll: true }); keepInView(first); }
    });


    function update() {
      var tile = tileName(tileInput.value);
      var here = tile ? (fits[tile] || {}) : null;
      cells.forEach(function (polygon) {
        var cell = polygon.getAttribute("data-cell");
        polygon.classList.toggle("fits", !!here && cell in here);
        polygon.classList.toggle("nofit", !!here && !(cell in here));
        polygon.classList.toggle("picked", cell === cellInput.value.replace(/\s+/g, "").toUpperCase());
      });
      picker.refresh();
      var ways = here ? (here[cellInput.value.replace(/\s+/g, "").toUpperCase()] || []) : [];
      options.innerHTML = "";
      ways.forEach(function (corners) {
        var label = document.createElement("label");
        label.className = "orientation";
        var radio = document.createElement("input");
        radio.type = "radio";
        radio.name = "orientation-choice";
        radio.value = corners;
        radio.checked = corners === cornersInput.value.replace(/\s+/g, "");
        radio.setAttribute("aria-label", corners);
        label.appendChild(radio);
        label.insertAdjacentHTML("beforeend", miniTile(board.querySelector('polygon.open[data-cell="' + cellInput.value.replace(/\s+/g, "").toUpperCase() + '"]'), corners));
        options.appendChild(label);
      });
      if (ways.length === 1) { cornersInput.value = ways[0]; options.querySelector("input").checked = true; }
      choice.hidden = !ways.length;
    }

    options.addEventListener("change", function (event) {
      if (event.target.name === "orientation-choice") { cornersInput.value = event.target.value; }
    });
    tileInput.addEventListener("input", update);
    cellInput.addEventListener("input", update);
    cornersInput.addEventListener("input", update);
    update();
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

  // The turn's preview said here, as the server's (_turn_preview.html) says it, for a tile
  // that fits the cell on the table with the turns waiting to send (pending.js): the ways it
  // is turned, the engine's points, bonus and sum (board.js, from the figures and words on
  // the table, data-scoring, and the pool on the form, data-pool). False when the browser
  // cannot say it: no table or figures, a tile that does not fit, more draws than the pool
  // holds; the server says it then.
  function showLocalPreview(form, preview, board) {
    var rules = window.TriominosBoard;
    var scoring;
    try { scoring = JSON.parse((board && board.dataset.scoring) || "null"); } catch (e) { scoring = null; }
    var pool = Number(form.dataset.pool);
    if (!rules || !scoring || !board || !board.hasAttribute("data-placements") || !form.hasAttribute("data-pool")) { return false; }
    var tile = tileName(form.querySelector("#id_tile").value);
    var cell = rules.parseCell(form.querySelector("#id_cell").value);
    if (!tile || !cell) { return false; }
    cell = rules.cellName(cell);
    var table = window.TriominosPending ? window.TriominosPending.table() : null;
    if (!table) {
      var placements;
      try { placements = JSON.parse(board.dataset.placements || "[]"); } catch (e) { return false; }
      table = { board: new rules.Board(placements), pending: [] };
    }
    var pendingDraws = table.pending.reduce(function (sum, turn) { return sum + (turn.draws || 0); }, 0);
    var drawn = form.querySelector('input[name="draws"]:checked');
    var draws = drawn && /^[0-3]$/.test(drawn.value) ? Number(drawn.value) : 0;
    var score = table.board.preview(tile, cell, draws, { rules: scoring.rules, pool: pool - pendingDraws });
    if (!score) { return false; }
    var words = scoring.words || {};
    var ways = score.ways.map(function (way) { return way.join("-"); });
    var shown = preview.querySelector('input[name="corners"]:checked, input[name="corners"][type="hidden"]');
    var chosen = shown && ways.indexOf(shown.value) >= 0 ? shown.value : ways.length === 1 ? ways[0] : "";
    var polygon = board.querySelector('polygon.open[data-cell="' + cell + '"]');

    function made(tag, className, text) {
      var element = document.createElement(tag);
      if (className) { element.className = className; }
      if (text !== undefined) { element.textContent = text; }
      return element;
    }
    var parts = [];
    var head = made("p", "preview-head");
    head.setAttribute("data-cell", cell);
    head.appendChild(made("span", "tile-name", tile));
    var where = made("span", "visually-hidden", " \u2192 ");
    where.appendChild(made("span", "cell-name", polygon ? polygon.dataset.label || polygon.getAttribute("aria-label") || cell : cell));
    head.appendChild(where);
    parts.push(head);
    if (ways.length > 1) {
      var set = made("fieldset", "orientations");
      set.appendChild(made("legend", "", words.turned || ""));
      ways.forEach(function (way) {
        var label = made("label", "orientation");
        var radio = made("input");
        radio.type = "radio";
        radio.name = "corners";
        radio.value = way;
        radio.checked = way === chosen;
        radio.setAttribute("aria-label", way);
        label.appendChild(radio);
        if (polygon) { label.insertAdjacentHTML("beforeend", miniTile(polygon, way)); }
        set.appendChild(label);
      });
      parts.push(set);
    } else {
      var hidden = made("input");
      hidden.type = "hidden";
      hidden.name = "corners";
      hidden.value = chosen;
      parts.push(hidden);
    }
    var result = made("p", "preview-score");
    result.setAttribute("data-points", String(score.points));
    result.appendChild(made("span", "engine-label", words.engine || ""));
    result.appendChild(document.createTextNode(" "));
    result.appendChild(made("strong", "engine-points", String(score.points)));
    if (score.bonus) {
      result.appendChild(document.createTextNode(" "));
      result.appendChild(made("span", "bonus-found", (words.bonuses || {})[score.bonus] || score.bonus));
    }
    result.appendChild(document.createTextNode(" "));
    result.appendChild(made("span", "explain", rules.explain(score, words)));
    parts.push(result);
    preview.replaceChildren.apply(preview, parts);
    return true;
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

  function scrollLogs(root) {
    root.querySelectorAll(".round-log[open] .log-scroll").forEach(function (box) {
      box.scrollTop = box.scrollHeight;
    });
  }

  function init(root) {
    fitBoard();
    initEntry(root);
    initCorrection(root);
    scrollLogs(root);
  }

  document.addEventListener("DOMContentLoaded", function () {
    guardDebugSwap();
    var close = document.querySelector(".entry-toast__close");
    if (close) {
      close.addEventListener("click", function () { close.parentNode.classList.remove("entry-toast--shown"); });
    }
    init(document);
  });
  // after the settling, in which htmx puts back the attributes the server sent
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target && event.detail.target.id === "match") { fitBoard(); }
  });
  // A save's answer leaves the page its table (hx-preserve) and sends what changed on it
  // (template#board-changes): each element drawn new or changed put in place of the one with
  // its id, or added (an open cell under the tiles, a tile on top); those gone removed; the
  // drawing's frame and name, the places each tile fits and the placements added taken from
  // the answer.
  function applyBoardChanges() {
    var changes = document.getElementById("board-changes");
    if (!changes) { return; }
    var board = document.getElementById("board");
    var svg = board && board.querySelector("svg");
    var drawn = changes.content && changes.content.querySelector("svg");
    if (svg && drawn) {
      (changes.getAttribute("data-gone") || "").split(" ").forEach(function (id) {
        var gone = id && document.getElementById(id);
        if (gone) { gone.remove(); }
      });
      putInPlace(svg, drawn);
      ["viewBox", "width", "height", "role", "aria-label"].forEach(function (name) {
        if (drawn.hasAttribute(name)) { svg.setAttribute(name, drawn.getAttribute(name)); }
      });
      var title = svg.querySelector("title");
      var newTitle = drawn.querySelector("title");
      if (title && newTitle) { title.textContent = newTitle.textContent; }
      board.setAttribute("data-legal", changes.getAttribute("data-legal") || "{}");
      var placements;
      var placed;
      try { placements = JSON.parse(board.getAttribute("data-placements") || "[]"); } catch (e) { placements = []; }
      try { placed = JSON.parse(changes.getAttribute("data-placed") || "[]"); } catch (e) { placed = []; }
      board.setAttribute("data-placements", JSON.stringify(placements.concat(placed)));
    }
    changes.remove();
  }

  // Each element of `changes` with an id in place of the page's element of that id, or added
  // after the container's last child of its kind (an open cell under the tiles, a tile or a
  // turn's row at the end).
  function putInPlace(container, changes) {
    Array.prototype.slice.call(changes.children).forEach(function (element) {
      if (!element.id) { return; }
      var made = document.importNode(element, true);
      var old = document.getElementById(element.id);
      if (old) { old.replaceWith(made); return; }
      var same = Array.prototype.filter.call(container.children, function (child) {
        return child.tagName === made.tagName;
      });
      var last = same[same.length - 1];
      container.insertBefore(made, last ? last.nextSibling : null);
    });
  }

  // A save's answer leaves the page the rows of the round's turns it shows (hx-preserve), and
  // sends the rows new or changed (template#log-changes).
  function applyLogChanges() {
    var changes = document.getElementById("log-changes");
    if (!changes) { return; }
    var body = document.getElementById(changes.getAttribute("data-into"));
    var rows = changes.content && changes.content.querySelector("tbody");
    if (body && rows) { putInPlace(body, rows); }
    changes.remove();
  }

  // The tiles' grid left to the page by a save's answer: each tile played or not, fitting
  // somewhere or not, as the table now says (as the server writes the grid).
  function syncTiles(grid, legal, placements) {
    var played = {};
    placements.forEach(function (placement) {
      played[placement.split(":")[1].split("-").map(Number).sort().join("-")] = true;
    });
    var opening = !placements.length;
    var words = { played: grid.dataset.wordPlayed || "", nofit: grid.dataset.wordNofit || "" };
    grid.querySelectorAll(".tile-button").forEach(function (button) {
      var name = button.getAttribute("data-tile");
      var short = button.textContent;
      var fits = opening || (legal[name] || []).length > 0;
      button.disabled = !!played[name];
      button.classList.toggle("tile-button--nofit", !fits);
      button.setAttribute("aria-label", played[name] ? short + " (" + name + ", " + words.played + ")"
        : fits ? short + " (" + name + ")" : short + " (" + name + ", " + words.nofit + ")");
    });
  }

  // An answer's part left for the page to fill with its own (hx-preserve) that the page did
  // not have: the match is asked for again, whole.
  function fillGaps(match) {
    if (match && match.querySelector("[hx-preserve]") && window.htmx) {
      window.htmx.ajax("GET", window.location.pathname, { target: "#match", swap: "outerHTML" });
      return true;
    }
    return false;
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "match") {
      applyBoardChanges();
      applyLogChanges();
      if (fillGaps(document.getElementById("match"))) { return; }
      init(document);
      var match = document.getElementById("match");
      if (match) { focusRefused(match); }
    }
  });
  document.addEventListener("entry-announce", function (event) {
    announce(event.detail && event.detail.kind, event.detail && event.detail.text);
  });
  window.addEventListener("resize", function () {
    window.clearTimeout(fitBoard.timer);
    fitBoard.timer = window.setTimeout(fitBoard, 100);
  });
})();
