/* The placement rules in the browser, for entry without the server (queue.js): which cells a
 * tile fits after the turns waiting to send, and how it is turned there; and what a fitting
 * placement scores (the tablet's preview without a request, entry.js); what a pass costs and
 * how a round settles (pending.js, round_end.js). The engine's rules (scoring/board.py,
 * scoring/geometry.py, MatchReplay.preview, scoring/replay.py's settle), the same answers:
 * tests/tournament/matches/test_board_js.py holds them equal on every fitting place of a
 * corpus of simulated boards, under every rule set. The server still checks every turn when
 * it arrives, and its verdict wins.
 *
 * A cell is named as the engine names it, "U(0,0)" or "D(-1,2)"; a placement "U(0,0):2-0-1"
 * (the corners clockwise from the apex); a tile "0-1-2" (its values ascending).
 * Usable as a browser script (window.TriominosBoard) or a CommonJS module (node, the tests).
 */
(function (root) {
  "use strict";

  var ORIGIN = "U(0,0)";

  function parseCell(name) {
    var found = /^([UD])\((-?\d+),(-?\d+)\)$/.exec(String(name).replace(/\s+/g, ""));
    return found ? {o: found[1], x: Number(found[2]), y: Number(found[3])} : null;
  }

  function cellName(cell) { return cell.o + "(" + cell.x + "," + cell.y + ")"; }

  /* The corner points clockwise from the apex, and the neighbour across the side opposite
     each corner (scoring/geometry.py). */
  function geometry(name) {
    var c = parseCell(name);
    var x = c.x;
    var y = c.y;
    if (c.o === "U") {
      return {points: [[x, y + 1], [x + 1, y], [x, y]],
              neighbours: ["D(" + x + "," + (y - 1) + ")", "D(" + (x - 1) + "," + y + ")", "D(" + x + "," + y + ")"]};
    }
    return {points: [[x + 1, y], [x, y + 1], [x + 1, y + 1]],
            neighbours: ["U(" + x + "," + (y + 1) + ")", "U(" + (x + 1) + "," + y + ")", "U(" + x + "," + y + ")"]};
  }

  function tileOf(corners) { return corners.slice().sort(function (a, b) { return a - b; }).join("-"); }

  /* The distinct clockwise corner tuples of a tile: (lo, mid, hi) turned. */
  function rotations(tile) {
    var v = tile.split("-").map(Number);
    var all = [[v[0], v[1], v[2]], [v[1], v[2], v[0]], [v[2], v[0], v[1]]];
    var seen = {};
    return all.filter(function (r) { var k = r.join("-"); if (seen[k]) { return false; } seen[k] = true; return true; });
  }

  /* A table from placements ("U(0,0):5-5-5"), in the order played; no check (push). */
  function Board(placements) {
    this.cells = {};     // cell name -> corners
    this.values = {};    // "x,y" -> the value shown there
    this.frontier = {};  // empty cell name -> sides shared with the table
    this.touch = {};     // "x,y" -> how many tiles touch that point (five: one short of a hexagon)
    this.tiles = {};     // tile -> cell name
    this.order = [];
    (placements || []).forEach(function (text) { this.push(text); }, this);
  }

  Board.prototype.push = function (text) {
    var parts = String(text).split(":");
    var name = cellName(parseCell(parts[0]));
    var corners = parts[1].split("-").map(Number);
    var geo = geometry(name);
    this.cells[name] = corners;
    this.tiles[tileOf(corners)] = name;
    this.order.push(name + ":" + corners.join("-"));
    geo.points.forEach(function (p, i) {
      var key = p.join(",");
      this.values[key] = corners[i];
      this.touch[key] = (this.touch[key] || 0) + 1;
    }, this);
    delete this.frontier[name];
    geo.neighbours.forEach(function (n) {
      if (!(n in this.cells)) { this.frontier[n] = (this.frontier[n] || 0) + 1; }
    }, this);
  };

  Board.prototype.isEmpty = function () { return this.order.length === 0; };

  /* The empty cells sharing a side with the table (the origin on an empty table). */
  Board.prototype.openCells = function () {
    return this.isEmpty() ? [ORIGIN] : Object.keys(this.frontier);
  };

  /* The value each corner of a cell must show (null where no tile touches it). */
  Board.prototype.demanded = function (name) {
    var values = this.values;
    return geometry(name).points.map(function (p) {
      var key = p.join(",");
      return key in values ? values[key] : null;
    });
  };

  /* The corners of the legal placements of a tile in a cell (legal_orientations). */
  Board.prototype.orientations = function (tile, name) {
    if (tile in this.tiles || name in this.cells) { return []; }
    if (this.isEmpty() ? name !== ORIGIN : !(name in this.frontier)) { return []; }
    var demand = this.demanded(name);
    return rotations(tile).filter(function (r) {
      return r.every(function (v, i) { return demand[i] === null || demand[i] === v; });
    });
  };

  /* For each tile given, the open cells where it has a legal placement (legal_cells). */
  Board.prototype.legalCells = function (tiles) {
    var result = {};
    var open = this.openCells();
    tiles.forEach(function (tile) {
      var cells = open.filter(function (name) { return this.orientations(tile, name).length > 0; }, this);
      if (cells.length) { result[tile] = cells; }
    }, this);
    return result;
  };

  var HEXAGONS = ["hexagon", "double-hexagon", "triple-hexagon"];
  //: The figures a placement's score reads, as the server sends them (reading/turn_preview.py,
  //: browser_scoring): a rule set with another figure is one this file does not know.
  var FIGURES = ["opening_bonus", "zero_triple_opening_bonus", "two_sides_bonus", "bridge_bonus",
                 "hexagon_bonuses", "draw_penalty", "max_draws", "failed_draws_penalty",
                 "going_out_bonus", "blocked_others_lose_rack"];

  /* The rule set's figures if this file knows every one of them, else null. */
  function knownRules(rules) {
    if (!rules || typeof rules !== "object") { return null; }
    var names = Object.keys(rules);
    var known = names.length === FIGURES.length && FIGURES.every(function (name) {
      var v = rules[name];
      if (name === "hexagon_bonuses") { return Array.isArray(v) && v.length === 3 && v.every(Number.isInteger); }
      if (name === "blocked_others_lose_rack") { return typeof v === "boolean"; }
      return Number.isInteger(v) || (name === "two_sides_bonus" && v === null);
    });
    return known ? rules : null;
  }

  /* What a legal placement scores without the draws (Board.score): the tile's value, the
     bonus the table gives and its points. No check: for corners orientations() gave. */
  Board.prototype.score = function (name, corners, rules) {
    var value = corners[0] + corners[1] + corners[2];
    var plain = {tile: value, bonus: null, bonusPoints: 0};
    if (this.isEmpty()) {
      var triple = corners[0] === corners[1] && corners[1] === corners[2];
      var opening = value === 0 ? rules.zero_triple_opening_bonus : rules.opening_bonus;
      return triple && opening ? {tile: value, bonus: "opening", bonusPoints: opening} : plain;
    }
    var geo = geometry(name);
    var keys = geo.points.map(function (p) { return p.join(","); });
    var touch = this.touch;
    var hexagons = keys.filter(function (key) { return touch[key] === 5; }).length;
    if (hexagons) {
      return {tile: value, bonus: HEXAGONS[hexagons - 1], bonusPoints: rules.hexagon_bonuses[hexagons - 1]};
    }
    if ((this.frontier[name] || 0) >= 2) {
      if (rules.two_sides_bonus === null) { return plain; }
      return {tile: value, bonus: "two-sides", bonusPoints: rules.two_sides_bonus};
    }
    // one side shared: a bridge when the corner opposite that side touches the table
    var n = geo.neighbours;
    var opposite = n[0] in this.cells ? keys[0] : n[1] in this.cells ? keys[1] : keys[2];
    return touch[opposite] ? {tile: value, bonus: "bridge", bonusPoints: rules.bridge_bonus} : plain;
  };

  /* The turn as MatchReplay.preview scores it: a tile at a cell, with the draws before it;
     figures = {rules: the rule set's figures, pool: the tiles left to draw}. Null where the
     engine would refuse the turn (the tile does not fit, more draws than the pool allows) or
     where the figures are not all known: the server's preview says then. The points are the
     same whichever way the tile is turned. */
  Board.prototype.preview = function (tile, name, draws, figures) {
    var rules = knownRules(figures && figures.rules);
    var pool = figures && figures.pool;
    if (!rules || !Number.isInteger(pool) || !Number.isInteger(draws) || draws < 0) { return null; }
    var ways = this.orientations(tile, name);
    if (!ways.length || draws > Math.min(rules.max_draws, pool)) { return null; }
    var score = this.score(name, ways[0], rules);
    score.penalty = draws * rules.draw_penalty;
    score.points = score.tile + score.bonusPoints - score.penalty;
    score.ways = ways;
    return score;
  };

  /* The engine's sum in words (Score.explain, as engine.score_explained says it): "" for the
     tile's value alone, else "10 + 40 (bridge) − 5 (draws) = 45" with the words given
     ({bonuses: {bridge: ...}, draws: ...}: the page's language). */
  function explain(score, words) {
    if (score.bonus === null && !score.penalty) { return ""; }
    var text = String(score.tile);
    var bonuses = (words && words.bonuses) || {};
    if (score.bonus !== null) { text += " + " + score.bonusPoints + " (" + (bonuses[score.bonus] || score.bonus) + ")"; }
    if (score.penalty) { text += " \u2212 " + score.penalty + " (" + ((words && words.draws) || "draws") + ")"; }
    return text + " = " + score.points;
  }

  /* What a turn without a placement costs (scoring/replay.py): each draw, and after the
     most draws allowed, the failed draws' penalty on top. */
  function passPenalty(draws, rules) {
    return draws * rules.draw_penalty + (draws === rules.max_draws ? rules.failed_draws_penalty : 0);
  }

  /* The round's end points per player from the value left in each rack (scoring/replay.py,
     settle): end "out" (outPlayer gets the bonus and the others' racks) or "blocked" (the
     lowest rack gets the others' racks less its own; under some rule sets the others lose
     their own); null otherwise. */
  function settle(totals, end, outPlayer, rules) {
    var whole = totals.reduce(function (sum, total) { return sum + total; }, 0);
    if (end === "out" && outPlayer !== null && outPlayer !== undefined) {
      return totals.map(function (total, i) { return i === outPlayer ? rules.going_out_bonus + whole - totals[outPlayer] : 0; });
    }
    if (end === "blocked") {
      var lowest = Math.min.apply(null, totals);
      return totals.map(function (total) {
        return total === lowest ? whole - 2 * total : rules.blocked_others_lose_rack ? -total : 0;
      });
    }
    return null;
  }

  /* Every tile of the game, named as the engine names them. */
  function allTiles() {
    var tiles = [];
    for (var a = 0; a <= 5; a++) { for (var b = a; b <= 5; b++) { for (var c = b; c <= 5; c++) { tiles.push(a + "-" + b + "-" + c); } } }
    return tiles;
  }

  var api = {Board: Board, geometry: geometry, parseCell: parseCell, cellName: cellName,
             rotations: rotations, tileOf: tileOf, allTiles: allTiles, explain: explain,
             knownRules: knownRules, passPenalty: passPenalty, settle: settle, ORIGIN: ORIGIN};
  if (typeof module !== "undefined" && module.exports) { module.exports = api; } else { root.TriominosBoard = api; }
})(this);
