/* A turn checked on the tablet before it is queued offline (queue.js's "entry:before-queue"),
 * as the server checks it when it arrives: the form's checks (forms/entry.py, in its order:
 * the fields as typed, then who opens, the tile, the cell, how it is turned, the points), then
 * the engine's (scoring/replay.py: the draws the pool allows, the tile not already on the
 * table, the cell free, the tile fitting there: board.js). A turn refused here is not queued:
 * the form keeps it, each reason next to its field in the server's words (the table's
 * data-scoring, "refusals": reading/turn_preview.py), so that a mistake is corrected at once
 * rather than found when the queue is sent, with every turn entered after it waiting behind.
 * The server checks every turn again when it arrives; its verdict wins.
 * Usable as a browser script (window.TriominosTurnCheck) or a CommonJS module (node, the
 * tests: tests/js/turn_check.test.js and tests/tournament/matches/test_turn_check_js.py).
 */
(function (root) {
  "use strict";

  var isModule = typeof module !== "undefined" && module.exports;
  var rules = isModule ? require("./board.js") : root.TriominosBoard;
  var CLAIM_LOW = -1000;
  var CLAIM_HIGH = 1000;

  /* A tile's name as the server reads it (clean_tile): three values 0 to 5, any order and
     separators; null when it is not one. */
  function tileName(text) {
    var digits = String(text || "").replace(/[\s\-,./]/g, "");
    return /^[0-5]{3}$/.test(digits) ? digits.split("").sort().join("-") : null;
  }

  function cornersOf(text) {
    var found = /^\s*(\d)\s*-?\s*(\d)\s*-?\s*(\d)\s*$/.exec(String(text || ""));
    return found ? [Number(found[1]), Number(found[2]), Number(found[3])] : null;
  }

  function problem(field, code, params) { return {field: field, code: code, params: params || {}}; }

  /* Why the server would refuse `turn` on `board` (a TriominosBoard.Board: the server's table
     and the turns waiting before it), as a list of {field, code, params}; [] when it would
     take it. turn: what the form holds, as typed ({player, tile, cell, corners, draws,
     claimed}); context: {opening, next (the player to play), players (names), pool (the tiles
     left to draw), rules (the rule set's figures)}. */
  function refusals(board, turn, context) {
    var found = [];
    var tileText = String(turn.tile || "").trim();
    var cellText = String(turn.cell || "").trim();
    var cornersText = String(turn.corners || "").trim();
    var claimText = String(turn.claimed === undefined || turn.claimed === null ? "" : turn.claimed).trim();
    // the fields as typed (Django's clean_<field>, in the form's order)
    var tile = tileText ? tileName(tileText) : "";
    if (tile === null) { found.push(problem("tile", "unknown-tile", {given: tileText})); }
    var parsed = cellText ? rules.parseCell(cellText) : null;
    if (cellText && (!parsed || cellText.length > 30)) { found.push(problem("cell", "invalid-cell", {given: cellText})); }
    var corners = cornersText ? cornersOf(cornersText) : null;
    if (cornersText && !corners) { found.push(problem("corners", "invalid-corners", {given: cornersText})); }
    if (claimText && /^[-+]?\d+$/.test(claimText)) {
      var claim = Number(claimText);
      if (claim < CLAIM_LOW) { found.push(problem("claimed", "min_value")); }
      if (claim > CLAIM_HIGH) { found.push(problem("claimed", "max_value")); }
    } else if (claimText) {
      found.push(problem("claimed", "invalid"));
    }
    if (found.length) { return found; }
    // the form's clean()
    var player = context.opening ? turn.player : context.next;
    if (context.opening && (player === "" || player === null || player === undefined)) {
      found.push(problem("player", "player_required"));
    }
    if (!tile) { found.push(problem("tile", "tile_missing")); return found; }
    if (!cellText) { found.push(problem("cell", "cell_missing")); return found; }
    var cell = rules.cellName(parsed);
    var ways = board.orientations(tile, cell);
    if (!corners) {
      if (ways.length > 1) { found.push(problem("corners", "corners_ambiguous")); return found; }
      corners = ways.length === 1 ? ways[0] : rules.rotations(tile)[0];
    }
    if (!claimText) { found.push(problem("claimed", "claim_missing")); }
    if (found.length) { return found; }
    // the engine's, next to the cell (views/base.py, with_refusal)
    var name = (context.players || [])[Number(player)] || "";
    var draws = Number(turn.draws) || 0;
    var maxDraws = context.rules ? context.rules.max_draws : 3;
    var allowed = Math.min(maxDraws, context.pool);
    if (draws > allowed) {
      found.push(problem("cell", "too-many-draws", {player: name, draws: draws, allowed: allowed, pool: context.pool}));
    }
    if (tile in board.tiles) {
      found.push(problem("cell", "tile-already-played", {player: name, tile: tile}));
    } else if (cell in board.cells) {
      found.push(problem("cell", "occupied", {player: name, tile: tile, other: rules.tileOf(board.cells[cell])}));
    } else if (!ways.some(function (way) { return way.join("-") === corners.join("-"); })) {
      found.push(problem("cell", "no-fit", {player: name, tile: tile}));
    }
    return found;
  }

  /* A refusal in the words the server sent ({name} filled in). */
  function say(found, words) {
    var text = (words && words[found.code]) || found.code;
    return text.replace(/\{(\w+)\}/g, function (all, name) {
      return name in found.params ? String(found.params[name]) : all;
    });
  }

  var api = {refusals: refusals, say: say, tileName: tileName};
  if (isModule) { module.exports = api; return; }
  root.TriominosTurnCheck = api;

  /* -- on the page: a turn about to join the queue ---------------------------------------- */

  var CONTAINERS = {player: "fieldset.opener", tile: ".tile-field", cell: ".cell-field", claimed: ".claim-field"};

  function readJson(text, fallback) {
    try { return JSON.parse(text); } catch (e) { return fallback; }
  }

  function clearErrors(form) {
    form.querySelectorAll("[data-checked-here]").forEach(function (element) {
      if (element.classList.contains("field-errors")) { element.remove(); return; }
      element.classList.remove("field--invalid");
      element.removeAttribute("data-checked-here");
    });
  }

  /* Each reason next to its field, as the server's answer puts it (_turn_form.html). */
  function showErrors(form, found, words) {
    clearErrors(form);
    var byField = {};
    found.forEach(function (one) { (byField[one.field] = byField[one.field] || []).push(say(one, words)); });
    var first = null;
    Object.keys(byField).forEach(function (field) {
      var list = document.createElement("ul");
      list.className = "field-errors";
      list.id = "id_" + field + "_errors";
      list.setAttribute("role", "alert");
      list.setAttribute("data-checked-here", "");
      list.setAttribute("data-codes", found.filter(function (one) { return one.field === field; })
        .map(function (one) { return one.code; }).join(" "));
      byField[field].forEach(function (text) {
        var item = document.createElement("li");
        item.textContent = text;
        list.appendChild(item);
      });
      var old = form.querySelector("#" + list.id);
      if (old) { old.remove(); }
      var container = CONTAINERS[field] && form.querySelector(CONTAINERS[field]);
      if (container) {
        container.classList.add("field--invalid");
        container.setAttribute("data-checked-here", "");
        container.appendChild(list);
      } else {
        var preview = form.querySelector("#turn-preview");
        if (preview) { preview.after(list); } else { form.prepend(list); }
      }
      first = first || (container && container.querySelector("input:not([type=hidden]), select")) || null;
    });
    if (first && first.name !== "cell") { first.focus({preventScroll: true}); }  // the table picks the cell
    document.body.dispatchEvent(new CustomEvent("entry-announce", {bubbles: true, detail: {
      kind: "refused", text: found.map(function (one) { return say(one, words); }).join(" ")}}));
  }

  document.addEventListener("entry:before-queue", function (event) {
    var path = new URL(event.detail.url, window.location.href).pathname;
    var data = event.detail.formData;
    var form = event.detail.form || document.getElementById("turn-form");
    if (!/\/turns\/$/.test(path) || !data || data.has("pass") || !form || form.id !== "turn-form") { return; }
    var board = document.getElementById("board");
    var scoring = readJson((board && board.dataset.scoring) || "null", null);
    if (!rules || !scoring || !scoring.refusals || !board.hasAttribute("data-placements") || !window.TriominosPending) { return; }
    var table = window.TriominosPending.table();
    var pendingDraws = table.pending.reduce(function (sum, turn) { return sum + (turn.draws || 0); }, 0);
    var seats = Array.prototype.slice.call(document.querySelectorAll("#match .seats > .seat"));
    var context = {
      opening: !!form.querySelector("fieldset.opener") && !table.pending.length,
      next: seats.findIndex(function (row) { return row.classList.contains("seat--next"); }),
      players: scoring.players || [], pool: Number(form.dataset.pool) - pendingDraws, rules: scoring.rules,
    };
    var turn = {player: data.get("player") || "", tile: data.get("tile") || "", cell: data.get("cell") || "",
                corners: data.get("corners") || "", draws: data.get("draws") || "0", claimed: data.get("claimed") || ""};
    var found = refusals(table.board, turn, context);
    if (found.length) {
      event.preventDefault();
      showErrors(form, found, scoring.refusals);
    } else {
      clearErrors(form);
    }
  });
})(this);
