// The tablet's queue (tournament/static/tournament/matches/queue.js) as a state machine, under
// Node's own test runner: the script runs in a page made by jsdom, with a localStorage and a
// fetch of this file's own (a small server that keeps each submission's key, the match's
// revision, and answers as tournament/matches/views/base.py does: X-Submission, 409 when
// another save came first). tests/tournament/matches/test_scripts_js.py runs it with the suite.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { JSDOM } = require("jsdom");

const QUEUE_JS = fs.readFileSync(
  path.join(__dirname, "..", "..", "tournament", "static", "tournament", "matches", "queue.js"), "utf8");
const MATCH = "7";
const PAGE = `http://tablet.test/tournaments/open/matches/${MATCH}/`;
const TURNS = `/tournaments/open/matches/${MATCH}/turns/`;

/* localStorage as the browser keeps it: strings by name, shared by the tabs of one origin. */
function fakeStorage() {
  const items = new Map();
  return {
    get length() { return items.size; },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (name) => (items.has(name) ? items.get(name) : null),
    setItem: (name, value) => { items.set(name, String(value)); },
    removeItem: (name) => { items.delete(name); },
    clear: () => items.clear(),
  };
}

/* Timers run by hand: `advance(ms)` fires those due, in order. */
function fakeClock() {
  let now = 0;
  let next = 1;
  const timers = new Map();
  return {
    setTimeout: (fn, ms) => { const id = next++; timers.set(id, { at: now + (ms || 0), fn }); return id; },
    clearTimeout: (id) => { timers.delete(id); },
    pending: () => [...timers.values()].map((t) => t.at - now).sort((a, b) => a - b),
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) { break; }
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
        await settle();
      }
      now = until;
    },
  };
}

/* Let the promises the script chained run to their end. */
async function settle() {
  for (let i = 0; i < 20; i++) { await new Promise((resolve) => setImmediate(resolve)); }
}

/* The server's side of a write, as match_write answers it: a key saved before is "already
   saved"; a revision other than the match's is stale (409); a turn whose tile is "bad" is
   refused (400); otherwise saved, the revision raised. `script` answers the next requests
   otherwise: "503", "network", "401"; while `down`, no request arrives. */
function fakeServer() {
  const server = { revision: 3, saved: [], keys: new Set(), posts: [], script: [], down: false };
  server.fetch = async (url, options) => {
    const body = new URLSearchParams(options.body);
    const key = body.get("submission_key");
    server.posts.push({ url, key, revision: body.get("revision") });
    const next = server.down ? "network" : server.script.shift();
    if (next === "network") { throw new TypeError("Failed to fetch"); }
    if (next === "503") { return new Response("busy", { status: 503 }); }
    if (next === "401") { return new Response("", { status: 401, headers: { "X-Login-Url": "/login/?next=x" } }); }
    const answer = (status, submission, text) => new Response(`<div id="match" data-revision="${server.revision}">${text}</div>`, {
      status,
      headers: {
        "X-Submission": submission, "X-Match-Revision": String(server.revision),
        "HX-Trigger-After-Settle": JSON.stringify({ "entry-announce": { kind: submission, text } }),
      },
    });
    if (server.keys.has(key)) { return answer(200, "already-saved", "Already saved."); }
    if (Number(body.get("revision")) !== server.revision) {
      return answer(409, "stale", "Someone else saved a change to this match.");
    }
    if (body.get("tile") === "bad") { return answer(400, "refused", "Tap the cell where the tile went."); }
    server.revision += 1;
    server.keys.add(key);
    server.saved.push(body.get("tile"));
    return answer(200, "saved", "Turn saved.");
  };
  return server;
}

/* A tab of the entry screen: the page's #match, the queue's script, htmx's two calls the
   script makes (a swap, a request for the match). */
function tab({ storage, server, clock }) {
  const dom = new JSDOM(`<body><div id="match" data-revision="${server.revision}"></div></body>`,
    { url: PAGE, runScripts: "outside-only" });
  const window = dom.window;
  Object.defineProperty(window, "localStorage", { value: storage, configurable: true });
  window.fetch = server.fetch;
  window.setTimeout = clock.setTimeout;
  window.clearTimeout = clock.clearTimeout;
  const htmx = { swaps: [], asked: [] };
  window.htmx = {
    swap: (target, html) => { htmx.swaps.push(html); target.outerHTML = html; },
    ajax: (verb, where) => { htmx.asked.push([verb, where]); },
  };
  window.eval(QUEUE_JS);
  const queue = window.triominosQueue;
  return {
    window, htmx, queue,
    enter(tile, revision = server.revision) {
      const data = new window.FormData();
      data.append("revision", String(revision));
      data.append("tile", tile);
      data.append("cell", "U(0,0)");
      data.append("claimed", "12");
      return queue.enqueue(TURNS, data, null);
    },
    items: () => queue.load(MATCH),
    panel: () => window.document.getElementById("send-queue"),
  };
}

function setUp() {
  const storage = fakeStorage();
  const server = fakeServer();
  const clock = fakeClock();
  return { storage, server, clock, one: tab({ storage, server, clock }) };
}

test("saved: each write leaves the queue on its own answer, in order, each at the last revision", async () => {
  const { server, one } = setUp();
  server.down = true;  // no network: kept, in order
  one.enter("0-1-2");
  await settle();
  one.enter("1-2-3");  // entered meanwhile: waits behind, at a revision to be given
  one.enter("2-3-4");
  await settle();
  assert.equal(one.items().length, 3);
  assert.equal(one.panel().getAttribute("data-state"), "offline");
  server.down = false;
  const tried = server.posts.length;
  one.window.dispatchEvent(new one.window.Event("online"));
  await settle();
  assert.deepEqual(server.saved, ["0-1-2", "1-2-3", "2-3-4"]);
  assert.equal(one.items().length, 0);
  assert.equal(one.panel(), null);
  assert.deepEqual(server.posts.slice(tried).map((p) => p.revision), ["3", "4", "5"]);
  assert.equal(one.htmx.swaps.length, 1, "the last answer is the match as the server has it");
});

test("already saved: a write sent again after its answer was lost leaves the queue, saved once", async () => {
  const { server, one } = setUp();
  one.enter("0-1-2");
  await settle();
  const key = server.posts[0].key;
  // the same write queued again (the answer was lost on its way back)
  const data = new one.window.FormData();
  data.append("revision", "3");
  data.append("tile", "0-1-2");
  data.append("submission_key", key);
  one.queue.enqueue(TURNS, data, null);
  await settle();
  assert.deepEqual(server.saved, ["0-1-2"]);
  assert.equal(server.posts.length, 2);
  assert.equal(one.items().length, 0);
});

test("refused: kept with the server's reason and what to do; the page asked again; the others wait", async () => {
  const { server, clock, one } = setUp();
  server.down = true;
  one.enter("bad");
  await settle();
  one.enter("1-2-3");
  await settle();
  server.down = false;
  one.window.dispatchEvent(new one.window.Event("online"));
  await settle();
  const [refused, behind] = one.items();
  assert.equal(refused.state, "refused");
  assert.equal(refused.refusal, "refused");
  assert.equal(refused.reason, "Tap the cell where the tile went.");
  assert.equal(behind.state, "waiting");
  assert.deepEqual(one.htmx.asked, [["GET", new URL(PAGE).pathname]], "the page brought to the server's match");
  const rows = one.panel().querySelectorAll("li");
  assert.equal(rows[0].getAttribute("data-state"), "refused");
  assert.ok(rows[0].querySelector(".send-queue__help").textContent.includes("enter it again, corrected"));
  assert.equal(rows[1].getAttribute("data-state"), "blocked");
  assert.ok(rows[1].querySelector(".send-queue__help").textContent.includes("Waits behind"));
  await clock.advance(60000);
  assert.deepEqual(server.saved, [], "nothing behind a refused write is sent by itself");
  // discarded: the next one is sent at the revision of the match shown
  one.window.document.getElementById("match").setAttribute("data-revision", String(server.revision));
  rows[0].querySelector("button[data-action=discard]").click();
  await settle();
  assert.deepEqual(server.saved, ["1-2-3"]);
  assert.equal(one.items().length, 0);
});

test("stale: the match changed on another tablet; the page is the server's answer, said in words", async () => {
  const { server, one } = setUp();
  server.down = true;
  one.enter("0-1-2");
  await settle();
  server.revision = 9;  // another tablet (or a correction) wrote meanwhile
  server.down = false;
  one.window.dispatchEvent(new one.window.Event("online"));
  await settle();
  const [item] = one.items();
  assert.equal(item.state, "refused");
  assert.equal(item.refusal, "stale");
  assert.ok(item.reason.includes("changed on another tablet"));
  assert.equal(one.htmx.swaps.length, 1);
  assert.equal(one.window.document.getElementById("match").getAttribute("data-revision"), "9");
  const row = one.panel().querySelector("li");
  assert.equal(row.getAttribute("data-refusal"), "stale");
  assert.ok(row.querySelector(".send-queue__help").textContent.includes("send it again"));
  // sent again: at the revision of the match now shown, and saved
  row.querySelector("button[data-action=send-again]").click();
  await settle();
  assert.deepEqual(server.saved, ["0-1-2"]);
  assert.equal(server.posts.at(-1).revision, "9");
  assert.equal(one.items().length, 0);
});

test("5xx: kept and tried again, 1 s then longer, until the server answers", async () => {
  const { server, clock, one } = setUp();
  server.script.push("503", "503", "503");
  one.enter("0-1-2");
  await settle();
  assert.equal(one.items()[0].state, "waiting");
  assert.equal(one.panel().getAttribute("data-state"), "offline");
  assert.deepEqual(clock.pending(), [1000]);
  await clock.advance(1000);
  assert.deepEqual(clock.pending(), [2000]);
  await clock.advance(2000);
  assert.deepEqual(clock.pending(), [4000]);
  await clock.advance(4000);
  assert.deepEqual(server.saved, ["0-1-2"]);
  assert.equal(server.posts.length, 4);
  assert.equal(one.items().length, 0);
});

test("network: no answer keeps the write, the wait capped at 30 s", async () => {
  const { server, clock, one } = setUp();
  for (let i = 0; i < 8; i++) { server.script.push("network"); }
  one.enter("0-1-2");
  await settle();
  for (let i = 0; i < 7; i++) { await clock.advance(clock.pending()[0]); }
  assert.deepEqual(clock.pending(), [30000]);
  assert.equal(one.items().length, 1);
  await clock.advance(30000);
  assert.deepEqual(server.saved, ["0-1-2"]);
});

test("401: everything kept, the login offered; sent once the login is back", async () => {
  const { server, one } = setUp();
  server.script.push("401");
  one.enter("0-1-2");
  one.enter("1-2-3");
  await settle();
  assert.equal(one.items().length, 2);
  assert.equal(one.panel().getAttribute("data-state"), "login");
  assert.equal(one.panel().querySelector(".send-queue__login a").getAttribute("href"), "/login/?next=x");
  one.window.dispatchEvent(new one.window.Event("focus"));  // back from the login's tab
  await settle();
  assert.deepEqual(server.saved, ["0-1-2", "1-2-3"]);
  assert.equal(one.items().length, 0);
});

test("two tabs: one sender at a time, each write sent once", async () => {
  const { storage, server, clock, one } = setUp();
  const two = tab({ storage, server, clock });
  server.down = true;
  one.enter("0-1-2");
  two.enter("1-2-3");
  await settle();
  assert.equal(two.items().length, 2, "one queue per match, shared by the tabs");
  server.down = false;
  server.posts.length = 0;
  one.window.dispatchEvent(new one.window.Event("online"));
  two.window.dispatchEvent(new two.window.Event("online"));
  await settle();
  await clock.advance(60000);
  assert.deepEqual(server.saved, ["0-1-2", "1-2-3"]);
  assert.equal(new Set(server.posts.map((p) => p.key)).size, server.posts.length, "no write sent twice");
});

test("refused on the spot: a write a listener refuses is never queued", async () => {
  const { server, one } = setUp();
  one.window.document.addEventListener("entry:before-queue", (event) => {
    if (event.detail.formData.get("cell") === "") { event.preventDefault(); }
  });
  const data = new one.window.FormData();
  data.append("revision", "3");
  data.append("tile", "3-4-5");
  data.append("cell", "");
  assert.equal(one.queue.enqueue(TURNS, data, null), false);
  await settle();
  assert.equal(one.items().length, 0);
  assert.equal(server.posts.length, 0);
  assert.equal(one.enter("3-4-5"), true);
});
