/* The round's end offline. The turns waiting to send (pending.js) are played on from the round
 * as the server left it (the turn form's data-hands, data-pool, data-idle, data-next): when
 * one of them empties its player's hand, or every player has passed in turn on an empty pool,
 * the round is over, as the engine would say (scoring/replay.py). The turn form gives way to
 * the racks' form, drawn here in the server's words (_round_end_form.html's, sent in the
 * table's data-scoring), and the settlement is shown pending as the racks are typed (board.js,
 * settle: the engine's rules). A rack the server would refuse (a tile that is none, a tile on
 * the table or shown twice, tiles and a total) is refused here, in its words, next to its
 * field; the racks otherwise join the queue behind the turns (queue.js) and are sent in order,
 * at the revision the last turn's answer gives. The server checks them again when they
 * arrive; its verdict wins, and its answer replaces all this.
 */
(function () {
  "use strict";

  var rules = window.TriominosBoard;
  var check = window.TriominosTurnCheck;
  var ENDS = /\/rounds\/\d+\/end\/$/;

  function readJson(text, fallback) {
    try { return JSON.parse(text); } catch (e) { return fallback; }
  }

  function matchId() {
    var found = /\/matches\/(\d+)\//.exec(window.location.pathname);
    return found ? found[1] : null;
  }

  function scoring() {
    var board = document.getElementById("board");
    return readJson((board && board.dataset.scoring) || "null", null);
  }

  function field(item, name) {
    var pair = item.fields.filter(function (p) { return p[0] === name; })[0];
    return pair ? pair[1] : "";
  }

  /* The racks waiting to send for this round (before any write refused), or null. */
  function queuedRacks(url) {
    var queue = readJson(window.localStorage.getItem("triominos.queue." + matchId()) || "[]", []);
    for (var i = 0; i < queue.length; i++) {
      if (queue[i].state === "refused") { return null; }
      if (ENDS.test(new URL(queue[i].url, window.location.href).pathname) && queue[i].url === url) { return queue[i]; }
    }
    return null;
  }

  /* The round in play as the server left it, played on with the turns waiting to send:
     the tiles in each hand, the pool, the turns since the last tile placed; how it ended
     ("out", with who went out, or "blocked"), null while it goes on. */
  function roundState(form) {
    var hands = (form.dataset.hands || "").split(",").filter(function (v) { return v !== ""; }).map(Number);
    var state = {hands: hands, pool: Number(form.dataset.pool), idle: Number(form.dataset.idle) || 0,
                 end: null, out: null, pending: 0};
    var next = form.dataset.next === "" || form.dataset.next === undefined ? null : Number(form.dataset.next);
    var pending = window.TriominosPending ? window.TriominosPending.table().pending : [];
    state.pending = pending.length;
    pending.forEach(function (turn) {
      var player = turn.player !== undefined && turn.player !== "" ? Number(turn.player) : next;
      if (state.end || player === null || !(player >= 0 && player < hands.length)) { return; }
      var draws = turn.draws || 0;
      hands[player] += turn.pass ? draws : draws - 1;
      state.idle = turn.pass ? state.idle + 1 : 0;
      state.pool -= draws;
      if (!turn.pass && hands[player] === 0) {
        state.end = "out";
        state.out = player;
      } else if (state.pool <= 0 && state.idle >= hands.length) {
        state.end = "blocked";
      }
      next = (player + 1) % hands.length;
    });
    return state;
  }

  function seats() {
    return Array.prototype.map.call(document.querySelectorAll("#match .seats > .seat"), function (row) {
      return {letter: row.querySelector(".seat-letter").textContent, name: row.querySelector(".seat-name").textContent};
    });
  }

  function tileValue(name) {
    return name.split("-").reduce(function (sum, v) { return sum + Number(v); }, 0);
  }

  function tokens(text) { return text.trim() ? text.trim().split(/[\s,;]+/) : []; }

  /* Each rack's total from what was typed (its tiles, or its total; neither: an empty
     rack, as the server reads it), null where one cannot be read. */
  function totals(racks) {
    var found = racks.map(function (rack) {
      if (rack.total !== "" && /^\d+$/.test(rack.total)) { return Number(rack.total); }
      if (rack.total !== "") { return null; }
      var names = tokens(rack.tiles).map(check.tileName);
      return names.every(Boolean) ? names.reduce(function (sum, n) { return sum + tileValue(n); }, 0) : null;
    });
    return found.every(function (t) { return t !== null; }) ? found : null;
  }

  /* Why the server would refuse these racks, by seat: [{seat, code, params}]. */
  function refusals(racks, table, players) {
    var found = [];
    var seen = {};
    racks.forEach(function (rack, seat) {
      var player = players[seat] || "";
      if (rack.tiles.trim() && rack.total !== "") {
        found.push({seat: seat, code: "both", params: {}});
        return;
      }
      tokens(rack.tiles).forEach(function (token) {
        var tile = check.tileName(token);
        if (!tile) { found.push({seat: seat, code: "unknown-tile", params: {given: token}}); return; }
        if (tile in table.tiles) {
          found.push({seat: seat, code: "tile-already-played/rack", params: {player: player, tile: tile}});
        } else if (seen[tile] === seat) {
          found.push({seat: seat, code: "tile-already-played/same-rack", params: {player: player, tile: tile}});
        } else if (tile in seen) {
          found.push({seat: seat, code: "tile-already-played/two-racks", params: {player: player, tile: tile, other: players[seen[tile]] || ""}});
        } else {
          seen[tile] = seat;
        }
      });
    });
    return found;
  }

  function racksOf(container, count) {
    var racks = [];
    for (var i = 0; i < count; i++) {
      var tiles = container.querySelector("[name=rack_" + i + "]");
      var total = container.querySelector("[name=total_" + i + "]");
      var claimed = container.querySelector("[name=settlement_" + i + "]");
      racks.push({tiles: tiles ? tiles.value : "", total: total ? total.value.trim() : "",
                  settlement: claimed ? claimed.value.trim() : ""});
    }
    return racks;
  }

  /* The settlement pending, as "A +59 · B 0". */
  function settlementText(points) {
    var names = seats();
    return points.map(function (p, i) { return names[i].letter + " " + (p > 0 ? "+" : "") + p; }).join(" · ");
  }

  function made(tag, attributes, text) {
    var element = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { element.setAttribute(name, attributes[name]); });
    if (text !== undefined) { element.textContent = text; }
    return element;
  }

  /* The racks' form, as the server draws it (_round_end_form.html), for the round ended here. */
  function racksForm(state, words) {
    var form = made("form", {id: "round-end-offline", "class": "round-end-form", novalidate: ""});
    form.appendChild(made("h2", {}, words.title));
    var names = seats();
    var how = state.end === "out" ? words.out.replace("{name}", names[state.out].name) : words.blocked;
    form.appendChild(made("p", {"class": "round-state round-end-offline__end", "data-end": state.end}, how));
    form.appendChild(made("p", {"class": "help"}, words.help));
    var table = made("table", {"class": "racks"});
    var head = made("tr");
    [words.player, words.tiles, words.total, words.settlement].forEach(function (label) { head.appendChild(made("th", {}, label)); });
    table.appendChild(made("thead")).appendChild(head);
    var body = made("tbody");
    names.forEach(function (seat, i) {
      var row = made("tr", {"data-seat": String(i)});
      var th = made("th", {scope: "row"});
      th.appendChild(made("label", {"for": "offline_rack_" + i}, seat.letter + " · " + seat.name));
      row.appendChild(th);
      [["rack_" + i, "text", words.tiles, "rack-input"], ["total_" + i, "number", words.total, "total-input"],
       ["settlement_" + i, "number", words.settlement, "settlement-input"]].forEach(function (spec) {
        var cell = made("td");
        cell.appendChild(made("span", {"class": "cell-label"}, spec[2]));
        var input = made("input", {name: spec[0], type: spec[1], id: "offline_" + spec[0], "class": spec[3], autocomplete: "off"});
        if (spec[1] === "number") { input.setAttribute("inputmode", "numeric"); }
        cell.appendChild(input);
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
    table.appendChild(body);
    form.appendChild(table);
    var pending = made("p", {"class": "round-end-offline__pending", hidden: ""});
    pending.appendChild(made("span", {}, words.pending + " "));
    pending.appendChild(made("strong", {"class": "round-end-offline__points"}));
    form.appendChild(pending);
    form.appendChild(made("button", {type: "submit", "class": "button button--primary"}, words.settle));
    return form;
  }

  function showPending(form, state, figures) {
    var found = totals(racksOf(form, state.hands.length));
    var points = found ? rules.settle(found, state.end, state.out, figures) : null;
    var line = form.querySelector(".round-end-offline__pending");
    line.hidden = !points;
    if (points) {
      line.setAttribute("data-settlement", JSON.stringify(points));
      line.querySelector("strong").textContent = settlementText(points);
    }
  }

  function showErrors(form, found, words) {
    form.querySelectorAll(".field-errors").forEach(function (e) { e.remove(); });
    form.querySelectorAll("tr.field--invalid").forEach(function (e) { e.classList.remove("field--invalid"); });
    found.forEach(function (one) {
      var row = form.querySelector('tr[data-seat="' + one.seat + '"]');
      var cell = row.querySelector("[name=rack_" + one.seat + "]").parentNode;
      var list = cell.querySelector(".field-errors");
      if (!list) {
        list = made("ul", {"class": "field-errors", id: "offline_rack_" + one.seat + "_errors", role: "alert"});
        cell.appendChild(list);
      }
      list.appendChild(made("li", {"data-code": one.code}, check.say({code: one.code, params: one.params}, words)));
      row.classList.add("field--invalid");
    });
    var first = form.querySelector("tr.field--invalid input");
    if (first) { first.focus({preventScroll: true}); }
  }

  /* The racks sent to the queue, behind the turns, as the server's form would post them. */
  function send(form, turnForm, state, words, figures) {
    var scored = scoring() || {};
    var racks = racksOf(form, state.hands.length);
    var table = window.TriominosPending.table().board;
    var found = refusals(racks, table, scored.players || []);
    if (found.length) { showErrors(form, found, words); return; }
    var data = new FormData();
    var token = turnForm.querySelector("[name=csrfmiddlewaretoken]");
    if (token) { data.append("csrfmiddlewaretoken", token.value); }
    data.append("revision", turnForm.querySelector("[name=revision]").value);
    racks.forEach(function (rack, i) {
      data.append("rack_" + i, rack.tiles.trim());
      data.append("total_" + i, rack.total);
      data.append("settlement_" + i, rack.settlement);
    });
    if (window.triominosQueue && window.triominosQueue.enqueue(turnForm.dataset.roundEnd, data, form)) {
      showPending(form, state, figures);
      render();
    }
  }

  /* The settlement of the racks waiting to send, by seat (pending.js adds it to the scores),
     or null. */
  function pendingSettlement() {
    var turnForm = document.getElementById("turn-form");
    var scored = scoring();
    if (!rules || !turnForm || !turnForm.dataset.roundEnd || !scored) { return null; }
    var item = queuedRacks(turnForm.dataset.roundEnd);
    var state = roundState(turnForm);
    if (!item || !state.end) { return null; }
    var racks = state.hands.map(function (h, i) {
      return {tiles: field(item, "rack_" + i), total: field(item, "total_" + i)};
    });
    var found = totals(racks);
    return found ? rules.settle(found, state.end, state.out, scored.rules) : null;
  }

  /* The turn form, or the racks' form once the turns waiting end the round, or the racks
     waiting to send. */
  function render() {
    var turnForm = document.getElementById("turn-form");
    var scored = scoring();
    var words = scored && scored.round_end;
    var shown = document.getElementById("round-end-offline");
    if (!rules || !check || !turnForm || !turnForm.dataset.roundEnd || !words || !window.TriominosPending) { return; }
    var state = roundState(turnForm);
    var ended = !!state.end && state.pending > 0;
    var passForm = document.getElementById("pass-confirm");
    turnForm.hidden = ended;
    if (passForm) { passForm.hidden = ended; }
    if (!ended) {
      if (shown) { shown.remove(); }
      return;
    }
    var item = queuedRacks(turnForm.dataset.roundEnd);
    if (!shown) {
      shown = racksForm(state, words);
      turnForm.after(shown);
      shown.addEventListener("input", function () { showPending(shown, roundState(turnForm), scored.rules); });
      shown.addEventListener("submit", function (event) {
        event.preventDefault();
        send(shown, turnForm, roundState(turnForm), words, scored.rules);
      });
      var first = shown.querySelector("input");
      if (first && !item) { first.focus({preventScroll: true}); }
    }
    shown.setAttribute("data-state", item ? "queued" : "entering");
    shown.querySelectorAll("input, button").forEach(function (element) { element.disabled = !!item; });
    if (item) {
      state.hands.forEach(function (h, i) {
        ["rack_", "total_", "settlement_"].forEach(function (name) {
          var input = shown.querySelector("[name=" + name + i + "]");
          if (input && !input.value) { input.value = field(item, name + i); }
        });
      });
      showPending(shown, state, scored.rules);
    }
  }

  window.TriominosRoundEnd = {pendingSettlement: pendingSettlement, roundState: roundState};
  document.addEventListener("entry:queue-changed", render);
  document.addEventListener("DOMContentLoaded", render);
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "match") { render(); }
  });
})();
