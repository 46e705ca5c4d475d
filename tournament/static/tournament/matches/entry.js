/* The entry screen of a match (board mode): pick the tile, tap the cell, enter the points.
   A tile that fits the cell is previewed here, as the engine would (board.js, with the rule
   set's figures and words the server put on the form); one that does not, or a table the
   browser does not know, is previewed by the server (htmx), which also checks every save.
   Without the script the form still posts: the tile is typed and the cell chosen from a list.
   Its parts, loaded before it (_entry_scripts.html), by what they do: entry_board.js (the
   table and the tiles by touch and keyboard), entry_preview.js (the preview without a
   request), entry_answer.js (a write's answer applied to the page), entry_correction.js
   (the correction pages' table). */
(function (entry) {
  "use strict";
  var tileName = entry.tileName;
  var boardCells = entry.boardCells;
  var tileGridKeys = entry.tileGridKeys;
  var visible = entry.visible;
  var keepInView = entry.keepInView;
  var fitBoard = entry.fitBoard;
  var showLocalPreview = entry.showLocalPreview;
  var announce = entry.announce;
  var focusRefused = entry.focusRefused;
  var guardDebugSwap = entry.guardDebugSwap;
  var applyBoardChanges = entry.applyBoardChanges;
  var applyLogChanges = entry.applyLogChanges;
  var syncTiles = entry.syncTiles;
  var fillGaps = entry.fillGaps;
  var formsAtRevision = entry.formsAtRevision;
  var initCorrection = entry.initCorrection;
  document.documentElement.classList.add("js");

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
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "match") {
      applyBoardChanges();
      applyLogChanges();
      if (fillGaps(document.getElementById("match"))) { return; }
      formsAtRevision(document.getElementById("match"));
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
})(window.TriominosEntry = window.TriominosEntry || {});
