// The entry page kept for offline (tournament/static/tournament/matches/offline_page.js) under
// Node's own test runner, in a page made by jsdom with a service worker container of this
// file's own: what the page gives the worker after a write the server answered, and when the
// worker starts running the page after it opened (the first visit), the page kept then.
// tests/tournament/matches/test_scripts_js.py runs it with the suite.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { JSDOM } = require("jsdom");

const OFFLINE_PAGE_JS = fs.readFileSync(
  path.join(__dirname, "..", "..", "tournament", "static", "tournament", "matches", "offline_page.js"),
  "utf8");
const PAGE = "http://tablet.test/t/open/matches/7/";

/* navigator.serviceWorker as the page sees it: `controller` null until `start()` (the worker
 * claims the page: controllerchange), each message the page posts to it noted. */
function fakeWorkers(window) {
  const posted = [];
  const listeners = [];
  const container = {
    controller: null,
    register: async () => ({}),
    addEventListener: (name, fn) => { if (name === "controllerchange") { listeners.push(fn); } },
    start() {
      container.controller = { postMessage: (message) => posted.push(message) };
      listeners.forEach((fn) => fn(new window.Event("controllerchange")));
    },
  };
  return { container, posted };
}

function page({ entry = true, online = true, waiting = false } = {}) {
  const dom = new JSDOM(`<!DOCTYPE html><body>
    <main class="${entry ? "match-page--entry" : "match-page"}"><div id="match"></div></main>
    </body>`, { url: PAGE, runScripts: "outside-only" });
  const window = dom.window;
  const workers = fakeWorkers(window);
  Object.defineProperty(window.navigator, "serviceWorker", { value: workers.container, configurable: true });
  Object.defineProperty(window.navigator, "onLine", { get: () => online, configurable: true });
  const timers = [];
  window.setTimeout = (fn) => { timers.push(fn); return timers.length; };
  window.clearTimeout = (id) => { if (id) { timers[id - 1] = null; } };
  window.triominosQueue = { waiting: () => waiting };
  window.eval(OFFLINE_PAGE_JS);
  return {
    window,
    posted: workers.posted,
    start: () => workers.container.start(),
    runTimers() { timers.splice(0).forEach((fn) => fn && fn()); },
    // htmx's afterSwap of a write's answer into #match
    answered(status, login) {
      const target = window.document.getElementById("match");
      const xhr = { status, getResponseHeader: (name) => (name === "X-Kept-For" ? login : null) };
      target.dispatchEvent(new window.CustomEvent("htmx:afterSwap", { bubbles: true, detail: { target, xhr } }));
    },
  };
}

test("a write answered while the worker runs the page keeps the page shown, for the write's login", () => {
  const tablet = page();
  tablet.start();
  tablet.runTimers();
  tablet.posted.length = 0;
  tablet.answered(200, "abc");
  tablet.runTimers();
  assert.equal(tablet.posted.length, 1);
  assert.equal(tablet.posted[0].keep, PAGE);
  assert.equal(tablet.posted[0].login, "abc");
  assert.match(tablet.posted[0].page, /^<!DOCTYPE html>\n<html>/);
});

test("a refused write, or one while the queue still waits, keeps nothing", () => {
  const refused = page();
  refused.start();
  refused.runTimers();
  refused.posted.length = 0;
  refused.answered(409, "abc");
  refused.runTimers();
  assert.equal(refused.posted.length, 0);

  const queued = page({ waiting: true });
  queued.start();
  queued.runTimers();
  queued.posted.length = 0;
  queued.answered(200, "abc");
  queued.runTimers();
  assert.equal(queued.posted.length, 0);
});

test("a write saved before the worker started is kept once the worker runs the page", () => {
  const tablet = page();
  tablet.answered(200, "abc");  // the first seconds of the first visit: no worker yet
  tablet.runTimers();
  assert.equal(tablet.posted.length, 0);
  tablet.start();  // the worker claims the page
  tablet.runTimers();
  assert.equal(tablet.posted.length, 1);
  assert.equal(tablet.posted[0].keep, PAGE);
  assert.equal(tablet.posted[0].login, "-");  // the worker asks the server for the page
});

test("the worker starting keeps nothing offline, nor on a page that is not the entry", () => {
  const offline = page({ online: false });
  offline.start();
  offline.runTimers();
  assert.equal(offline.posted.length, 0);

  const reader = page({ entry: false });
  reader.start();
  reader.runTimers();
  assert.equal(reader.posted.length, 0);
});
