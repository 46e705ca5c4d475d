/* The head referee's board: when its region is refreshed, what newly needs a person is said
   once in #board-status ("Table 4: a referee is called"), nothing when nothing new. */
(function () {
  "use strict";
  function needs(root) {
    var found = {};
    (root || document).querySelectorAll("#board [data-need]").forEach(function (item) {
      var row = item.closest("[data-table]");
      found[row.dataset.table + ":" + item.dataset.need] = row.querySelector("th").textContent.trim() + " — " + item.textContent.trim();
    });
    return found;
  }
  var before = null;
  function ready() { before = needs(); }
  document.addEventListener("htmx:afterSettle", function () {
    var now = needs(), fresh = [];
    Object.keys(now).forEach(function (key) { if (!before || !(key in before)) fresh.push(now[key]); });
    before = now;
    var status = document.getElementById("board-status");
    if (status && fresh.length) status.textContent = fresh.join(". ");
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
