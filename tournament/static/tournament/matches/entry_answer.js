/* What a write's answer does to the entry screen: its outcome said where the referee looks,
   the first field refused brought into view, the table's and the turns' changes the answer
   sends put in place (the page keeps what did not change: hx-preserve), the tile grid set
   from the table, and a refused answer kept from django-htmx's debug page. */
(function (entry) {
  "use strict";
  var visible = entry.visible;
  var keepInView = entry.keepInView;

  // The outcome of a write, said where the referee is looking: a persistent live region
  // pinned to the bottom of the screen (outside #match, so that it survives the swaps). The
  // server names it (the event "entry-announce" of its HX-Trigger-After-Settle header, or the
  // queue's answer): saved (green, fades), pending (a decision awaited: amber, stays),
  // already saved, stale or refused (red, stays).
  function announce(kind, text) {
    var region = document.getElementById("entry-status");
    var toast = document.getElementById("entry-toast");
    if (!region || !toast) { return; }
    window.clearTimeout(announce.timer);
    region.textContent = text || "";
    var failed = kind === "stale" || kind === "refused";
    toast.setAttribute("data-kind", kind || "");
    toast.classList.toggle("entry-toast--error", failed);
    toast.classList.toggle("entry-toast--pending", kind === "pending");
    toast.classList.toggle("entry-toast--shown", !!text);
    if (text && (kind === "saved" || kind === "already-saved")) {
      announce.timer = window.setTimeout(function () { toast.classList.remove("entry-toast--shown"); }, 6000);
    }
  }

  // After a refused write, the first field refused is brought into view with the focus on it.
  function focusRefused(root) {
    var fieldError = root.querySelector(".field-errors, .form-errors");
    if (!fieldError) { return; }
    var holder = fieldError.closest(".field, tr, .keep-claim, form") || fieldError;
    var field = Array.prototype.filter.call(holder.querySelectorAll("input:not([type=hidden]), select, textarea"), visible)[0];
    if (field) { field.focus({ preventScroll: true }); keepInView(field); } else { keepInView(fieldError); }
  }

  // A refused or stale write (400, 409) answers with the match and its message, and a 5xx
  // leaves the write to the tablet's queue (queue.js): with DEBUG on, django-htmx's debug
  // script would otherwise replace the whole document with the answer, and the turn with it.
  function guardDebugSwap() {
    document.body.addEventListener("htmx:beforeOnLoad", function (event) {
      var xhr = event.detail.xhr;
      if (xhr && (xhr.status === 400 || xhr.status === 409 || xhr.status >= 500) && event.target.closest && event.target.closest("#match")) {
        event.stopPropagation();
      }
    });
  }

  // A save's answer leaves the page its table (hx-preserve) and sends what changed on it
  // (template#board-changes): each element drawn new or changed put in place of the one with
  // its id, or added (an open cell under the tiles, a tile on top); those gone removed; the
  // drawing's frame and name, the places each tile fits and the placements added taken from
  // the answer.
  function applyBoardChanges() {
    var changes = document.getElementById("board-changes");
    if (!changes) { return; }
    var board = document.getElementById("board");
    var svg = board && board.querySelector("svg");
    var drawn = changes.content && changes.content.querySelector("svg");
    if (svg && drawn) {
      (changes.getAttribute("data-gone") || "").split(" ").forEach(function (id) {
        var gone = id && document.getElementById(id);
        if (gone) { gone.remove(); }
      });
      putInPlace(svg, drawn);
      ["viewBox", "width", "height", "role", "aria-label"].forEach(function (name) {
        if (drawn.hasAttribute(name)) { svg.setAttribute(name, drawn.getAttribute(name)); }
      });
      var title = svg.querySelector("title");
      var newTitle = drawn.querySelector("title");
      if (title && newTitle) { title.textContent = newTitle.textContent; }
      board.setAttribute("data-legal", changes.getAttribute("data-legal") || "{}");
      var placements;
      var placed;
      try { placements = JSON.parse(board.getAttribute("data-placements") || "[]"); } catch (e) { placements = []; }
      try { placed = JSON.parse(changes.getAttribute("data-placed") || "[]"); } catch (e) { placed = []; }
      board.setAttribute("data-placements", JSON.stringify(placements.concat(placed)));
    }
    changes.remove();
  }

  // Each element of `changes` with an id in place of the page's element of that id, or added
  // after the container's last child of its kind (an open cell under the tiles, a tile or a
  // turn's row at the end).
  function putInPlace(container, changes) {
    Array.prototype.slice.call(changes.children).forEach(function (element) {
      if (!element.id) { return; }
      var made = document.importNode(element, true);
      var old = document.getElementById(element.id);
      if (old) { old.replaceWith(made); return; }
      var same = Array.prototype.filter.call(container.children, function (child) {
        return child.tagName === made.tagName;
      });
      var last = same[same.length - 1];
      container.insertBefore(made, last ? last.nextSibling : null);
    });
  }

  // A save's answer leaves the page the rows of the round's turns it shows (hx-preserve), and
  // sends the rows new or changed (template#log-changes).
  function applyLogChanges() {
    var changes = document.getElementById("log-changes");
    if (!changes) { return; }
    var body = document.getElementById(changes.getAttribute("data-into"));
    var rows = changes.content && changes.content.querySelector("tbody");
    if (body && rows) { putInPlace(body, rows); }
    changes.remove();
  }

  // The tiles' grid left to the page by a save's answer: each tile played or not, fitting
  // somewhere or not, as the table now says (as the server writes the grid).
  function syncTiles(grid, legal, placements) {
    var played = {};
    placements.forEach(function (placement) {
      played[placement.split(":")[1].split("-").map(Number).sort().join("-")] = true;
    });
    var opening = !placements.length;
    var words = { played: grid.dataset.wordPlayed || "", nofit: grid.dataset.wordNofit || "" };
    grid.querySelectorAll(".tile-button").forEach(function (button) {
      var name = button.getAttribute("data-tile");
      var short = button.textContent;
      var fits = opening || (legal[name] || []).length > 0;
      button.disabled = !!played[name];
      button.classList.toggle("tile-button--nofit", !fits);
      button.setAttribute("aria-label", played[name] ? short + " (" + name + ", " + words.played + ")"
        : fits ? short + " (" + name + ")" : short + " (" + name + ", " + words.nofit + ")");
    });
  }

  // An answer's part left for the page to fill with its own (hx-preserve) that the page did
  // not have: the match is asked for again, whole.
  function fillGaps(match) {
    if (match && match.querySelector("[hx-preserve]") && window.htmx) {
      window.htmx.ajax("GET", window.location.pathname, { target: "#match", swap: "outerHTML" });
      return true;
    }
    return false;
  }

  // The rounds an answer left to the page (hx-preserve) when the page showed the match as the
  // write found it (data-kept-current) are the match as it now is, their forms made at an
  // earlier revision: each form of the match is sent at the revision the answer shows. Left
  // otherwise (a confirmed round, a write sent again from the queue), they keep theirs.
  function formsAtRevision(match) {
    var revision = match && match.getAttribute("data-revision");
    if (!revision || !match.hasAttribute("data-kept-current")) { return; }
    match.querySelectorAll('input[name="revision"]').forEach(function (input) {
      input.value = revision;
    });
  }

  entry.announce = announce;
  entry.focusRefused = focusRefused;
  entry.guardDebugSwap = guardDebugSwap;
  entry.applyBoardChanges = applyBoardChanges;
  entry.applyLogChanges = applyLogChanges;
  entry.syncTiles = syncTiles;
  entry.fillGaps = fillGaps;
  entry.formsAtRevision = formsAtRevision;
})(window.TriominosEntry = window.TriominosEntry || {});
