/* The public pages' enhancements (the pages work without them):
   - a live part of a page (class "live") that htmx refreshes keeps the keyboard focus where the
     user had it, and a change is said once in the page's status region (#live-status);
   - a match's live part (#match-live) says which settled rounds go with it (data-log): when
     they are not the ones the page shows (a round ended, a correction, a confirmation), the
     whole match is taken again;
   - a match's live part is put in place when its stream's event brings it (taken when the
     event says the new revision alone; polled where there is no stream, and while a stream
     refused waits to be asked for again);
   - "Find your table" (and the check-in's list): the search box filters the players' list as
     one types. */
(function () {
  "use strict";

  // Names compared as tournament/names.py folds them: case and accents aside, and the
  // letters Unicode does not decompose (œ, æ, ß...) as a phone keyboard types them; the page
  // hands that table over in the search box's data-fold.
  function fold(text, letters) {
    var lower = text.toLowerCase();
    if (letters) {
      lower = Array.prototype.map.call(lower, function (c) {
        return Object.prototype.hasOwnProperty.call(letters, c) ? letters[c] : c;
      }).join("");
    }
    return lower.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").trim();
  }

  /* -- a refreshed live part keeps the focus and says what changed ------------------------ */

  // What finds the focused element again in the new content: its id, else its address (a
  // link's text may change with the refresh: a match's state) and its rank among the elements
  // of the same kind that share it.
  function sameKind(root, tag, href) {
    return Array.prototype.filter.call(root.querySelectorAll(tag), function (other) {
      return other.getAttribute("href") === href;
    });
  }

  function focusKey(root, element) {
    if (element.id) return { id: element.id };
    var href = element.getAttribute("href");
    return { tag: element.tagName, href: href, rank: sameKind(root, element.tagName, href).indexOf(element) };
  }

  function findByKey(root, key) {
    if (key.id) return document.getElementById(key.id);
    var same = sameKind(root, key.tag, key.href);
    return same[Math.min(key.rank, same.length - 1)] || null;
  }

  var pending = null;

  function beforeLiveSwap(target) {
    if (!target || !target.classList || !target.classList.contains("live")) return;
    var active = document.activeElement;
    pending = {
      id: target.id,
      text: target.textContent.replace(/\s+/g, " "),
      focus: active && active !== document.body && target.contains(active) ? focusKey(target, active) : null,
      scrollY: window.scrollY,
    };
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    beforeLiveSwap(event.detail.target);
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (!pending) return;
    var done = pending;
    pending = null;
    var live = document.getElementById(done.id);
    if (!live) return;
    if (done.focus) {
      var again = findByKey(live, done.focus) || live;
      if (again === live) live.setAttribute("tabindex", "-1");
      again.focus({ preventScroll: true });
      window.scrollTo(window.scrollX, done.scrollY);
    }
    var status = document.getElementById("live-status");
    if (status && live.textContent.replace(/\s+/g, " ") !== done.text) {
      var time = new Date().toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
      status.textContent = status.dataset.message.replace("{time}", time);
    }
  });

  /* -- a match's settled rounds, taken again when its live part says they changed ------- */

  document.addEventListener("htmx:afterSettle", function (event) {
    // a fetched live part is the request's target; one an event brought, the settled element
    var live = event.detail.target || event.detail.elt;
    if (!live || live.id !== "match-live" || !window.htmx) return;
    var match = document.getElementById("match");
    if (match && match.dataset.log !== live.dataset.log) {
      window.htmx.ajax("GET", window.location.pathname, { target: "#match", swap: "outerHTML" });
    }
  });

  /* -- a match followed by its stream: its live part taken again when the match moved ---- */

  // The live part's data-stream (tournament/matches/stream/views.py) tells when the match is
  // at a new revision, its event bringing the new live part, which the page puts in place
  // (or, when the event carries the revision alone, takes it: the "moved" trigger of its
  // hx-trigger); it skips its polls while the stream is open. While a dropped stream is
  // opened again (the browser does it), the polls go on. A stream refused (a 429 or a 503
  // beyond the server's bounds, a 204 from a WSGI server, an error status) is asked for again
  // later, the page polling meanwhile: after twice the page's polling interval
  // (data-poll-seconds: 30 s), then twice as long each time, 10 minutes at most (a stream's
  // life: by then the streams in the way have ended), each wait drawn between its half and
  // its whole so that the phones refused together do not come back together.
  // The stream also brings the table's clock (its "clock" events: what its clock.json says,
  // with the address it stands for), handed to the page's clock (clock.js) as a
  // "triominos:clock" event; "triominos:stream" says when the stream is open or not, the
  // clock asking for its figures itself meanwhile.
  var LONGEST_WAIT = 600;
  var stream = null, streaming = false, waiting = null, refusals = 0;

  function streamIs(open) {
    document.dispatchEvent(new CustomEvent("triominos:stream", { detail: { open: open } }));
  }

  function askAgainLater() {
    var live = document.getElementById("match-live");
    var poll = Number(live && live.dataset.pollSeconds) || 15;
    var wait = Math.min(2 * poll * Math.pow(2, refusals), LONGEST_WAIT);
    refusals += 1;
    waiting = window.setTimeout(function () {
      waiting = null;
      follow();
    }, wait * (0.5 + Math.random() / 2) * 1000);
  }

  function follow() {
    var live = document.getElementById("match-live");
    var address = live && live.dataset.stream;
    if (!address) {
      if (stream) { stream.close(); streamIs(false); }
      if (waiting) window.clearTimeout(waiting);
      stream = null;
      waiting = null;
      streaming = false;
      return;
    }
    if (stream || waiting || !window.EventSource || !window.htmx) return;
    var opened = stream = new window.EventSource(address);
    opened.addEventListener("open", function () {
      streaming = true;
      refusals = 0;
      streamIs(true);
    });
    opened.addEventListener("error", function () {
      if (stream !== opened) return;
      streaming = false;
      streamIs(false);
      if (opened.readyState === window.EventSource.CLOSED) {
        stream = null;
        askAgainLater();
      }
    });
    opened.addEventListener("clock", function (message) {
      var data = null;
      try { data = JSON.parse(message.data); } catch (error) { return; }
      document.dispatchEvent(new CustomEvent("triominos:clock", { detail: data }));
    });
    opened.addEventListener("moved", function (message) {
      var now = document.getElementById("match-live");
      if (!now) return;
      var part = (message.data || "").trim();
      if (part.charAt(0) === "<" && window.htmx.swap) {
        // the event brought the live part itself: put in place as a fetch's answer would be
        beforeLiveSwap(now);
        window.htmx.swap(now, part, { swapStyle: "outerHTML" });
      } else {
        window.htmx.trigger(now, "moved");  // the revision alone: fetch the live part
      }
    });
  }

  document.addEventListener("htmx:confirm", function (event) {
    var live = event.detail.elt;
    if (!streaming || !live || live.id !== "match-live") return;
    var cause = event.detail.triggeringEvent;
    if (!cause || cause.type !== "moved") event.preventDefault();  // a poll: the stream tells
  });
  document.addEventListener("htmx:afterSettle", follow);

  /* -- find your table: filter as one types --------------------------------------------- */

  function setUpFinder(box) {
    var table = document.getElementById(box.getAttribute("aria-controls"));
    var count = document.getElementById(box.dataset.count);
    if (!table) return;
    var letters = null;
    try { letters = JSON.parse(box.dataset.fold || "null"); } catch (error) { letters = null; }
    function filter() {
      // the rows read again each time: htmx may have swapped one (the check-in's taps)
      var rows = Array.prototype.slice.call(table.querySelectorAll("tbody tr"));
      var names = rows.map(function (row) {
        var cell = row.querySelector("td");
        return fold(cell ? cell.textContent : "", letters);
      });
      var wanted = fold(box.value, letters), shown = 0;
      rows.forEach(function (row, i) {
        var match = !wanted || names[i].indexOf(wanted) !== -1;
        row.hidden = !match;
        if (match) shown += 1;
      });
      if (count) {
        count.textContent = wanted ? count.dataset.message.replace("{count}", shown) : "";
      }
    }
    box.closest("[hidden]") && box.closest("[hidden]").removeAttribute("hidden");
    box.addEventListener("input", filter);
    box.form && box.form.addEventListener("submit", function (event) { event.preventDefault(); });
    filter();
  }

  /* -- a table wider than the screen says so (the hint after it, site.css) ------------------ */

  function markScrolling() {
    document.querySelectorAll(".table-container").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth + 1) box.setAttribute("data-scrolls", "");
      else box.removeAttribute("data-scrolls");
    });
  }

  function ready() {
    document.querySelectorAll("input[data-finder]").forEach(setUpFinder);
    follow();
    markScrolling();
    window.addEventListener("resize", markScrolling);
    document.addEventListener("htmx:afterSettle", markScrolling);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
