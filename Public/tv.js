// The wall display: rotates through live rounds, pages through long boards, keeps a clock,
// and says so when the data on screen is stale.
(function () {
  "use strict";
  var body = document.body;
  var pinned = body.getAttribute("data-pinned") || "";
  var pageSeconds = Math.max(3, parseInt(body.getAttribute("data-page-seconds"), 10) || 10);
  var boards = document.getElementById("tv-boards");
  var stale = document.getElementById("tv-stale");
  var staleTime = document.getElementById("tv-stale-time");
  var clock = document.getElementById("tv-clock");

  var current = { round: null, page: 0 };
  var lastData = new Date();
  var downSince = null;

  function rounds() {
    var all = Array.prototype.slice.call(boards.querySelectorAll(".tv-round"));
    if (pinned) {
      var only = all.filter(function (r) { return r.getAttribute("data-round") === pinned; });
      if (only.length) return only;
    }
    return all;
  }

  // Splits a round's rows into pages that fit the screen below its header.
  function pagesOf(section) {
    var rows = Array.prototype.slice.call(section.querySelectorAll("tbody tr"));
    rows.forEach(function (row) { row.classList.remove("tv-hidden"); });
    var table = section.querySelector("table");
    if (!table || rows.length === 0) return [rows];
    var top = table.getBoundingClientRect().top;
    var head = table.querySelector("thead");
    var available = window.innerHeight - top - (head ? head.offsetHeight : 0) - 16;
    var rowHeight = rows[0].getBoundingClientRect().height || 1;
    var perPage = Math.max(1, Math.floor(available / rowHeight));
    var pages = [];
    for (var i = 0; i < rows.length; i += perPage) pages.push(rows.slice(i, i + perPage));
    return pages;
  }

  function show() {
    var list = rounds();
    if (list.length === 0) return;
    var index = list.findIndex(function (r) { return r.getAttribute("data-board") === current.round; });
    if (index < 0) { index = 0; current.page = 0; }
    list.forEach(function (section, i) { section.classList.toggle("tv-active", i === index); });
    var section = list[index];
    current.round = section.getAttribute("data-board");
    var pages = pagesOf(section);
    if (current.page >= pages.length) current.page = 0;
    pages.forEach(function (rows, i) {
      rows.forEach(function (row) { row.classList.toggle("tv-hidden", i !== current.page); });
    });
    var indicator = section.querySelector(".tv-page-indicator");
    if (indicator) indicator.textContent = pages.length > 1 ? "Page " + (current.page + 1) + " of " + pages.length : "";
    return pages.length;
  }

  function advance() {
    var list = rounds();
    if (list.length === 0) return;
    var count = show() || 1;
    if (current.page + 1 < count) {
      current.page += 1;
    } else {
      var index = list.findIndex(function (r) { return r.getAttribute("data-board") === current.round; });
      current.round = list[(index + 1) % list.length].getAttribute("data-board");
      current.page = 0;
    }
    show();
  }

  function tick() {
    clock.textContent = window.HyzerLive.hhmm(new Date());
    // Stale after a few seconds without a live stream; recovers on the next message.
    if (downSince && new Date() - downSince > 3000) {
      staleTime.textContent = window.HyzerLive.hhmm(lastData);
      stale.hidden = false;
      body.classList.add("is-stale");
    }
  }

  // A check-in link without the club's configured address is on this screen's address.
  function fillOrigins() {
    boards.querySelectorAll("[data-origin]").forEach(function (node) {
      if (!node.textContent) node.textContent = window.location.origin;
    });
  }

  window.HyzerLive.connect("/tv/events", {
    tv: function (html) {
      lastData = new Date();
      window.HyzerLive.applyBoards(boards, html);
      fillOrigins();
      show();
    }
  }, function (state) {
    if (state === "open") {
      downSince = null;
      stale.hidden = true;
      body.classList.remove("is-stale");
    } else if (!downSince) {
      downSince = new Date();
    }
  });

  fillOrigins();
  show();
  // Pages are counted from row heights: count again once the fonts are in, then say so.
  (document.fonts ? document.fonts.ready : Promise.resolve()).then(function () {
    show();
    document.documentElement.dataset.tvLayout = "ready";
  });
  tick();
  setInterval(tick, 1000);
  setInterval(advance, pageSeconds * 1000);
  window.addEventListener("resize", show);
})();
