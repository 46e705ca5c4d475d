/* The entry screen of a match (board mode): pick the tile, tap the cell, enter the points.
   The engine answers on the server (htmx); this script only wires taps and keys to the form.
   Without it the form still posts: the tile is typed and the cell chosen from a list. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function configureHtmx() {
    if (!window.htmx) { return; }
    // A refused save (400) or a stale one (409) answers with the match as it is and the
    // message next to the field: swap it in like a success.
    htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "40[09]", swap: true, error: false },
      { code: "[45]..", swap: false, error: true },
      { code: "...", swap: false },
    ];
  }

  function tileName(text) {
    var digits = (text || "").replace(/[^0-9]/g, "");
    if (!/^[0-5]{3}$/.test(digits)) { return null; }
    return digits.split("").sort().join("-");
  }

  function initEntry(root) {
    var form = root.querySelector("#turn-form");
    if (!form) { return; }
    var board = document.getElementById("board");
    var legal = {};
    try { legal = JSON.parse((board && board.dataset.legal) || "{}"); } catch (e) { legal = {}; }
    var tileInput = form.querySelector("#id_tile");
    var cellField = form.querySelector("#id_cell");
    var claim = form.querySelector("#id_claimed");
    var asComputed = form.querySelector(".as-computed");
    var preview = form.querySelector("#turn-preview");
    var openCells = board ? Array.prototype.slice.call(board.querySelectorAll("polygon.open")) : [];

    function markCells(tile) {
      var fits = legal[tile] || [];
      openCells.forEach(function (polygon) {
        var cell = polygon.getAttribute("data-cell");
        polygon.classList.toggle("fits", tile !== null && fits.indexOf(cell) >= 0);
        polygon.classList.toggle("nofit", tile !== null && fits.indexOf(cell) < 0);
        polygon.classList.toggle("picked", cell === cellField.value);
      });
    }

    function askPreview() {
      if (!window.htmx || !tileInput.value || !cellField.value) { return; }
      htmx.ajax("POST", form.dataset.previewUrl, { source: form, target: preview, swap: "innerHTML" });
    }

    // The points are typed while the engine's preview is on its way: the field takes the
    // keys at once (a save sent meanwhile waits in htmx's queue for the preview).
    function readyForPoints() {
      if (!claim) { return; }
      claim.focus({ preventScroll: true });
      keepInView(claim);
    }

    function selectTile(name) {
      var button = form.querySelector('.tile-button[data-tile="' + name + '"]');
      form.querySelectorAll(".tile-button[aria-pressed]").forEach(function (b) { b.removeAttribute("aria-pressed"); });
      if (button) { button.setAttribute("aria-pressed", "true"); }
      tileInput.value = name;
      if (openCells.length === 1) {  // the opening: the one place there is
        pickCell(openCells[0].getAttribute("data-cell"));
        return;
      }
      markCells(name);
      askPreview();
    }

    function pickCell(cell) {
      if (!cell) { return; }
      if (!Array.prototype.some.call(cellField.options || [], function (o) { return o.value === cell; })) {
        var option = document.createElement("option");
        option.value = cell; option.textContent = cell;
        cellField.appendChild(option);
      }
      cellField.value = cell;
      markCells(tileInput.value || null);
      askPreview();
      if (tileInput.value) { readyForPoints(); }
    }

    form.addEventListener("click", function (event) {
      var button = event.target.closest(".tile-button");
      if (button && !button.disabled) { selectTile(button.getAttribute("data-tile")); return; }
      if (event.target.closest(".as-computed")) {
        var score = preview.querySelector("[data-points]");
        if (score) { claim.value = score.getAttribute("data-points"); claim.focus({ preventScroll: true }); claim.select(); }
      }
    });
    if (board) {
      board.addEventListener("click", function (event) {
        var polygon = event.target.closest("polygon.open");
        if (polygon) { pickCell(polygon.getAttribute("data-cell")); }
      });
    }
    tileInput.addEventListener("keydown", function (event) {
      if (event.key === "Enter") { event.preventDefault(); }
    });
    tileInput.addEventListener("input", function () {
      var name = tileName(tileInput.value);
      if (name) {
        var button = form.querySelector('.tile-button[data-tile="' + name + '"]');
        if (button && !button.disabled) { selectTile(name); }
      }
    });
    form.addEventListener("change", function (event) {
      if (event.target.name === "draws" || event.target.name === "player" || event.target === cellField) {
        askPreview();
      }
    });
    preview.addEventListener("htmx:afterSwap", function () {
      var score = preview.querySelector("[data-points]");
      if (asComputed) { asComputed.disabled = !score; }
      if (score && claim && !preview.querySelector('input[name="corners"][type="radio"]:not(:checked)')) {
        claim.focus({ preventScroll: true });
      }
    });
    if (asComputed) { asComputed.disabled = !preview.querySelector("[data-points]"); }
    if (tileInput.value) { markCells(tileInput.value); } else { markCells(null); }
    var invalid = Array.prototype.filter.call(
      form.querySelectorAll(".field--invalid input:not([type=hidden]), .field--invalid select"), visible)[0];
    var start = invalid || (form.querySelector(".cell-field.field--invalid") && (board && board.querySelector("polygon.open.fits"))) || tileInput;
    start.focus({ preventScroll: true });
    if (invalid) { keepInView(start); }
  }

  function visible(element) {
    var box = element.getBoundingClientRect();
    return box.width > 1 && box.height > 1 && box.right > 0 && box.bottom > 0 && element.offsetParent !== null;
  }

  function keepInView(element) {
    var box = element.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      element.scrollIntoView({ block: "center", inline: "nearest" });
    }
  }

  // The outcome of a write, said where the referee is looking: a persistent live region
  // pinned to the bottom of the screen (outside #match, so that it survives the swaps), and
  // the first field refused brought into view with the focus on it.
  function announce(root) {
    var region = document.getElementById("entry-status");
    var toast = document.getElementById("entry-toast");
    if (!region || !toast) { return; }
    var top = root.querySelector("#conflict") || root.querySelector("#match > .message--error") || root.querySelector("#done");
    var fieldError = root.querySelector(".field-errors, .form-errors");
    var text = top ? top.textContent.trim() : (fieldError ? fieldError.textContent.trim() : "");
    window.clearTimeout(announce.timer);
    region.textContent = text;
    var failed = !!(fieldError || (top && top.id !== "done"));
    toast.classList.toggle("entry-toast--error", failed);
    toast.classList.toggle("entry-toast--shown", !!text);
    if (text && !failed) {
      announce.timer = window.setTimeout(function () { toast.classList.remove("entry-toast--shown"); }, 6000);
    }
    if (fieldError) {
      var holder = fieldError.closest(".field, tr, .keep-claim, form") || fieldError;
      var field = Array.prototype.filter.call(holder.querySelectorAll("input:not([type=hidden]), select, textarea"), visible)[0];
      if (field) { field.focus({ preventScroll: true }); keepInView(field); } else { keepInView(fieldError); }
    }
  }

  // A refused or stale write (400, 409) answers with the match and its message: with DEBUG
  // on, django-htmx's debug script would otherwise replace the whole document with it.
  function guardDebugSwap() {
    document.body.addEventListener("htmx:beforeOnLoad", function (event) {
      var xhr = event.detail.xhr;
      if (xhr && (xhr.status === 400 || xhr.status === 409) && event.target.closest && event.target.closest("#match")) {
        event.stopPropagation();
      }
    });
  }

  function scrollLogs(root) {
    root.querySelectorAll(".round-log[open] .log-scroll").forEach(function (box) {
      box.scrollTop = box.scrollHeight;
    });
  }

  function init(root) {
    initEntry(root);
    scrollLogs(root);
  }

  document.addEventListener("DOMContentLoaded", function () {
    configureHtmx();
    guardDebugSwap();
    var close = document.querySelector(".entry-toast__close");
    if (close) {
      close.addEventListener("click", function () { close.parentNode.classList.remove("entry-toast--shown"); });
    }
    init(document);
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "match") {
      init(document);
      var match = document.getElementById("match");
      if (match) { announce(match); }
    }
  });
  document.addEventListener("htmx:sendError", function () {
    var match = document.getElementById("match");
    if (!match || match.querySelector(".offline")) { return; }
    var note = document.createElement("p");
    note.className = "message message--error offline";
    note.setAttribute("role", "alert");
    note.textContent = match.getAttribute("data-offline-message") || "Network error: nothing was saved.";
    match.insertBefore(note, match.firstChild);
    announce(match);
  });
})();
