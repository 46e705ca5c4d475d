/* The placement rules in the browser, for entry without the server (queue.js): which cells a
 * tile fits after the turns waiting to send, and how it is turned there. The engine's rules
 * (scoring/board.py, scoring/geometry.py), the same answers: tests/tournament/matches/test_board_js.py
 * holds them equal on every fitting place of a corpus of simulated boards. The server still
 * checks every turn when it arrives, and its verdict wins.
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
    geo.points.forEach(function (p, i) { this.values[p.join(",")] = corners[i]; }, this);
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

  /* Every tile of the game, named as the engine names them. */
  function allTiles() {
    var tiles = [];
    for (var a = 0; a <= 5; a++) { for (var b = a; b <= 5; b++) { for (var c = b; c <= 5; c++) { tiles.push(a + "-" + b + "-" + c); } } }
    return tiles;
  }

  var api = {Board: Board, geometry: geometry, parseCell: parseCell, cellName: cellName,
             rotations: rotations, tileOf: tileOf, allTiles: allTiles, ORIGIN: ORIGIN};
  if (typeof module !== "undefined" && module.exports) { module.exports = api; } else { root.TriominosBoard = api; }
})(this);
