/* The session clock of a page (templates/tournament/room/_clock.html): the server sends the
   seconds left (data-clock-url); the page counts down from them with its own monotonic timer,
   so a device whose clock is wrong still shows the right time. It asks again every 20 seconds
   only to learn of a change (the clock paused, minutes added, a referee called): the answer
   has an ETag, and while the clock is as it was the server answers 304 and the browser gives
   back its copy, whose "version" is the one counted: the count goes on from its own start.
   The first answer is asked for without the browser's copy (no-store): the seconds in an old
   copy are old. Time's end, and a referee called to the table, are said once in the page's
   status region. On a match page whose stream is open (pages.js), the stream brings the
   same figures (its "clock" events, handed over as "triominos:clock", each with the
   address of the clock it stands for) when it opens and whenever they change: the clock
   then asks for nothing; once the stream is closed ("triominos:stream"), it asks at once,
   then every 20 seconds again. */
(function () {
  "use strict";
  var REFRESH_MS = 20000;

  function two(n) { return (n < 10 ? "0" : "") + n; }
  function shown(seconds) {
    var s = Math.max(0, Math.round(seconds));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return (h ? h + ":" + two(m) : m) + ":" + two(s % 60);
  }

  function setUp(box) {
    var into = box.dataset.clockInto && document.querySelector(box.dataset.clockInto);
    if (into) {  // the referee's tablet: in the header's free space, the screen kept for the turn
      into.appendChild(box);
      box.classList.add("session-clock--header");
    }
    var left = box.querySelector("[data-clock-left]");
    var label = box.querySelector("[data-clock-label]");
    var callLine = box.querySelector("[data-clock-call]");
    var status = box.querySelector("[data-clock-status]");
    var state = null, version = null, remaining = 0, at = 0, said = {};
    var streamed = false;  // the figures come in the match's stream: no asking

    function say(key, text) {
      if (said[key] === text) return;
      said[key] = text;
      status.textContent = text;
    }

    function draw() {
      if (!state || state.state === "none") { box.hidden = true; return; }
      box.hidden = false;
      var seconds = state.state === "running" ? remaining - (performance.now() - at) / 1000 : remaining;
      var up = state.state === "time-up" || seconds <= 0;
      box.dataset.state = up ? "time-up" : state.state;
      label.textContent = box.dataset[up ? "up" : state.state] || "";
      left.textContent = up ? "0:00" : shown(seconds);
      if (up) say("up", box.dataset.up);
    }

    function take(data) {
      if (!data || !data.clock || (version !== null && data.version === version)) return;
      version = data.version || null;
      state = data.clock;
      remaining = state.remaining;
      at = performance.now();
      if (callLine && "call" in data) {
        callLine.hidden = !data.call;
        var text = data.call ? box.dataset.call.replace("{reason}", data.call.reason) : "";
        callLine.textContent = text;
        if (text) say("call", text);
      }
      draw();
    }

    function fetchClock() {
      if (streamed) return;
      // the first answer fresh; then the browser's copy, revalidated (a 304 while unchanged)
      var cache = version === null ? "no-store" : "no-cache";
      fetch(box.dataset.clockUrl, { headers: { Accept: "application/json" }, cache: cache })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(take)
        .catch(function () { /* keep counting from the last figures */ });
    }

    document.addEventListener("triominos:clock", function (event) {
      if (!event.detail || event.detail.url !== box.dataset.clockUrl) return;
      streamed = true;
      take(event.detail);
    });
    document.addEventListener("triominos:stream", function (event) {
      if (event.detail && event.detail.open) return;
      if (streamed) {  // the stream closed: what changed meanwhile is asked for at once
        streamed = false;
        fetchClock();
      }
    });

    fetchClock();
    setInterval(fetchClock, REFRESH_MS);
    setInterval(draw, 1000);
  }

  function ready() {
    // set up once a box (a mark kept by the script, not in the page: a tablet keeps the page
    // as it shows it for a reload offline, offline_page.js)
    document.querySelectorAll("[data-clock-url]").forEach(function (box) {
      if (!box.triominosClock) { box.triominosClock = true; setUp(box); }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
