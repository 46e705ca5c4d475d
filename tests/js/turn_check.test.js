// The turn's check before it is queued offline (tournament/static/tournament/matches/
// turn_check.js): each refusal the server makes of a turn, found on the tablet's table with
// the turns waiting to send. tests/tournament/matches/test_turn_check_js.py holds its answers
// equal to the server's on a real match; these cases are the ones it cannot reach cheaply
// (a short pool, a tile next to a pending one).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");

const STATIC = path.join(__dirname, "..", "..", "tournament", "static", "tournament", "matches");
const rules = require(path.join(STATIC, "board.js"));
const check = require(path.join(STATIC, "turn_check.js"));

const FIGURES = { opening_bonus: 10, zero_triple_opening_bonus: 40, two_sides_bonus: 40, bridge_bonus: 40,
  hexagon_bonuses: [50, 60, 70], draw_penalty: 5, max_draws: 3 };
const CONTEXT = { opening: false, next: 1, players: ["Ana", "Bo"], pool: 40, rules: FIGURES };

function codes(board, turn, context = CONTEXT) {
  return check.refusals(board, { draws: "0", claimed: "12", ...turn }, context).map((p) => `${p.field}:${p.code}`);
}

test("the form's checks: the fields as typed, then the tile, the cell, the points", () => {
  const board = new rules.Board(["U(0,0):5-5-5"]);
  assert.deepEqual(codes(board, { tile: "349", cell: "D(0,0)" }), ["tile:unknown-tile"]);
  assert.deepEqual(codes(board, { tile: "455", cell: "Z(1)" }), ["cell:invalid-cell"]);
  assert.deepEqual(codes(board, { tile: "", cell: "" }), ["tile:tile_missing"]);
  assert.deepEqual(codes(board, { tile: "3-4-5", cell: "" }), ["cell:cell_missing"]);
  assert.deepEqual(codes(board, { tile: "455", cell: "D(0,0)", claimed: "" }), ["claimed:claim_missing"]);
  assert.deepEqual(codes(board, { tile: "455", cell: "D(0,0)", claimed: "1001" }), ["claimed:max_value"]);
  assert.deepEqual(codes(board, { tile: "455", cell: "D(0,0)", claimed: "-1001" }), ["claimed:min_value"]);
  assert.deepEqual(codes(board, { tile: "455", cell: "D(0,0)", claimed: "douze" }), ["claimed:invalid"]);
  assert.deepEqual(codes(board, { tile: "455", cell: "D(0,0)" }), []);
});

test("the opening: who opens, and how a tile that fits three ways is turned", () => {
  const empty = new rules.Board([]);
  const opening = { ...CONTEXT, opening: true };
  assert.deepEqual(codes(empty, { tile: "5-5-5", cell: "U(0,0)", player: "" }, opening), ["player:player_required"]);
  assert.deepEqual(codes(empty, { tile: "3-4-5", cell: "U(0,0)", player: "0" }, opening), ["corners:corners_ambiguous"]);
  assert.deepEqual(codes(empty, { tile: "3-4-5", cell: "U(0,0)", corners: "3-4-5", player: "0" }, opening), []);
});

test("the engine's: a tile played, a cell taken, a tile that does not fit, more draws than allowed", () => {
  const board = new rules.Board(["U(0,0):5-5-5", "D(0,0):5-5-4"]);
  assert.deepEqual(codes(board, { tile: "5-5-5", cell: "D(-1,0)" }), ["cell:tile-already-played"]);
  assert.deepEqual(codes(board, { tile: "0-1-2", cell: "D(0,0)" }), ["cell:occupied"]);
  assert.deepEqual(codes(board, { tile: "0-1-2", cell: "D(-1,0)" }), ["cell:no-fit"]);
  assert.deepEqual(codes(board, { tile: "0-1-2", cell: "U(5,5)" }), ["cell:no-fit"]);
  const short = { ...CONTEXT, pool: 2 };
  assert.deepEqual(codes(board, { tile: "3-5-5", cell: "D(-1,0)", draws: "3" }, short), ["cell:too-many-draws"]);
  assert.deepEqual(codes(board, { tile: "3-5-5", cell: "D(-1,0)", draws: "2" }, short), []);
});

test("a tile next to a turn waiting to send is checked on the table with it", () => {
  const board = new rules.Board(["U(0,0):5-5-5"]);
  assert.deepEqual(codes(board, { tile: "4-4-5", cell: "U(1,0)" }), ["cell:no-fit"]);
  board.push("D(0,0):5-5-4");  // pending
  assert.deepEqual(codes(board, { tile: "4-5-5", cell: "U(1,0)" }), ["cell:tile-already-played"]);
  assert.deepEqual(codes(board, { tile: "4-4-5", cell: "D(0,0)" }), ["cell:occupied"]);
});

test("said in the server's words, the names filled in", () => {
  const board = new rules.Board(["U(0,0):5-5-5"]);
  const [found] = check.refusals(board, { tile: "5-5-5", cell: "D(0,0)", claimed: "15", draws: "0" }, CONTEXT);
  assert.equal(check.say(found, { "tile-already-played": "{player} a joué {tile}, qui est déjà sur la table" }),
    "Bo a joué 5-5-5, qui est déjà sur la table");
});
