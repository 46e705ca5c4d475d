/* The turn's preview said without a request, for a tile that fits (entry.js asks it before
   the server): board.js's rules and scores, the words on the page. */
(function (entry) {
  "use strict";
  var tileName = entry.tileName;
  var miniTile = entry.miniTile;

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

  entry.showLocalPreview = showLocalPreview;
})(window.TriominosEntry = window.TriominosEntry || {});
