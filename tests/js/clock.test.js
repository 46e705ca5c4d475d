// The page's session clock (tournament/static/tournament/room/clock.js) under Node's own test
// runner, in a page made by jsdom: it asks its clock.json at once and every 20 seconds while
// no stream brings its figures; on a match page whose stream is open (pages.js hands the
// stream's "clock" events over as "triominos:clock"), it takes them and asks for nothing;
// once the stream is closed ("triominos:stream"), it asks at once, then every 20 s again.
// tests/tournament/matches/test_scripts_js.py runs it with the suite.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { JSDOM } = require("jsdom");

const CLOCK_JS = fs.readFileSync(
  path.join(__dirname, "..", "..", "tournament", "static", "tournament", "room", "clock.js"), "utf8");
const URL = "/t/open/sessions/1/tables/3/clock.json";

/* Intervals run by hand: `advance(ms)` fires those due, in order. */
function fakeTimers() {
  let now = 0;
  const intervals = [];
  return {
    setInterval: (fn, ms) => { intervals.push({ fn, ms, next: now + ms }); return intervals.length; },
    now: () => now,
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = intervals.filter((t) => t.next <= until).sort((a, b) => a.next - b.next)[0];
        if (!due) { break; }
        now = due.next;
        due.next += due.ms;
        due.fn();
        await settle();
      }
      now = until;
    },
  };
}

async function settle() {
  for (let i = 0; i < 20; i++) { await new Promise((resolve) => setImmediate(resolve)); }
}

/* The server's clock.json: each GET counted, answered with `server.answer`. */
function fakeServer() {
  const server = { asked: [], answer: null };
  server.fetch = async (url, options) => {
    server.asked.push({ url, cache: options.cache });
    return new Response(JSON.stringify(server.answer), { status: 200 });
  };
  return server;
}

function answer(state, remaining, version, call = null) {
  return { clock: { state, total: 3600, remaining }, version, call };
}

async function page(server, timers) {
  const dom = new JSDOM(`<body>
    <div class="session-clock" data-clock-url="${URL}" hidden data-running="Time left"
         data-paused="Clock paused" data-ready="Session time" data-up="Time is up"
         data-call="Referee called: {reason}">
      <span data-clock-label></span><strong data-clock-left>--:--</strong>
      <span data-clock-call hidden></span><span role="status" data-clock-status></span>
    </div></body>`, { url: "http://phone.test/t/open/matches/9/", runScripts: "outside-only" });
  const window = dom.window;
  window.fetch = server.fetch;
  window.setInterval = timers.setInterval;
  Object.defineProperty(window, "performance", { value: { now: timers.now }, configurable: true });
  window.eval(CLOCK_JS);
  await settle();
  const box = window.document.querySelector(".session-clock");
  return {
    window,
    left: () => box.querySelector("[data-clock-left]").textContent,
    label: () => box.querySelector("[data-clock-label]").textContent,
    call: () => box.querySelector("[data-clock-call]"),
    send(name, detail) {
      window.document.dispatchEvent(new window.CustomEvent(name, { detail }));
    },
  };
}

test("without a stream the clock asks every 20 seconds and counts down by itself", async () => {
  const server = fakeServer();
  const timers = fakeTimers();
  server.answer = answer("running", 600, "a");
  const phone = await page(server, timers);
  assert.deepEqual(server.asked.map((a) => a.cache), ["no-store"]);
  assert.equal(phone.left(), "10:00");
  await timers.advance(20000);
  assert.equal(server.asked.length, 2);
  assert.equal(server.asked[1].cache, "no-cache");
  assert.equal(phone.left(), "9:40");
  await timers.advance(40000);
  assert.equal(server.asked.length, 4);
});

test("while the stream brings the clock, the clock asks for nothing and takes each change",
  async () => {
    const server = fakeServer();
    const timers = fakeTimers();
    server.answer = answer("running", 600, "a");
    const phone = await page(server, timers);
    phone.send("triominos:stream", { open: true });
    phone.send("triominos:clock", { ...answer("running", 590, "a"), url: URL });
    await timers.advance(120000);
    assert.equal(server.asked.length, 1);  // the first answer only, before the stream
    assert.equal(phone.left(), "8:00");  // counted from its own start: the same clock
    // the head referee pauses it: the stream says so
    phone.send("triominos:clock", { ...answer("paused", 470, "b"), url: URL });
    await timers.advance(60000);
    assert.equal(phone.label(), "Clock paused");
    assert.equal(phone.left(), "7:50");
    // a table calls a referee
    phone.send("triominos:clock",
      { ...answer("paused", 470, "c", { reason: "a question", times: 1 }), url: URL });
    assert.equal(phone.call().hidden, false);
    assert.equal(phone.call().textContent, "Referee called: a question");
    // another clock's figures (another address) are not this one's
    phone.send("triominos:clock", { ...answer("running", 10, "z"), url: "/elsewhere/clock.json" });
    assert.equal(phone.label(), "Clock paused");
    assert.equal(server.asked.length, 1);
  });

test("once the stream closes, the clock asks at once and polls again", async () => {
  const server = fakeServer();
  const timers = fakeTimers();
  server.answer = answer("running", 600, "a");
  const phone = await page(server, timers);
  phone.send("triominos:clock", { ...answer("running", 600, "a"), url: URL });
  await timers.advance(40000);
  assert.equal(server.asked.length, 1);
  server.answer = answer("paused", 300, "b");
  phone.send("triominos:stream", { open: false });
  await settle();
  assert.equal(server.asked.length, 2);
  assert.equal(phone.label(), "Clock paused");
  assert.equal(phone.left(), "5:00");
  await timers.advance(20000);
  assert.equal(server.asked.length, 3);
});

test("a stream that never brings a clock (a private tournament) leaves the polls on",
  async () => {
    const server = fakeServer();
    const timers = fakeTimers();
    server.answer = answer("ready", 3600, "a");
    const phone = await page(server, timers);
    phone.send("triominos:stream", { open: true });
    await timers.advance(60000);
    assert.equal(server.asked.length, 4);
    assert.equal(phone.label(), "Session time");
  });
