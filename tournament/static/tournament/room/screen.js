/* The projector screen: shows one view at a time (data-pace seconds each), and fetches its
   #screen region every data-poll seconds (a 304 when nothing changed). A failed fetch keeps
   the last good content and says how old it is. Nothing to click. */
(function () {
  "use strict";
  var body = document.body;
  var pace = Math.max(5, parseInt(body.dataset.pace, 10) || 15) * 1000;
  var poll = Math.max(2, parseInt(body.dataset.poll, 10) || 15) * 1000;
  var current = 0, lastGood = performance.now();

  function views() { return document.querySelectorAll("#screen .screen-view"); }

  function show() {
    var all = views();
    if (!all.length) return;
    current = current % all.length;
    all.forEach(function (view, i) { view.hidden = i !== current; });
  }

  function next() { current += 1; show(); }

  function stale() {
    var note = document.getElementById("screen-stale");
    var minutes = Math.floor((performance.now() - lastGood) / 60000);
    note.hidden = performance.now() - lastGood < 2 * poll + 1000;
    // under a minute it says so, never "1 min" after 30 seconds
    note.textContent = minutes < 1 ? body.dataset.staleRecent
      : body.dataset.stale.replace("{minutes}", minutes);
  }

  function refresh() {
    fetch(body.dataset.fragmentUrl, { headers: { "HX-Request": "true" }, cache: "no-cache" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        lastGood = performance.now();
        var old = document.getElementById("screen");
        if (old && old.outerHTML !== html) {
          var holder = document.createElement("div");
          holder.innerHTML = html;
          var fresh = holder.querySelector("#screen");
          if (fresh) { old.replaceWith(fresh); show(); }
        }
        stale();
      })
      .catch(stale);
  }

  function ready() {
    show();
    setInterval(next, pace);
    setInterval(refresh, poll);
    setInterval(stale, 10000);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
