// Live updates over server-sent events. Pages work without this file; with it, boards
// and scorecards change in place the moment a score is stored.
(function () {
  "use strict";

  // Opens a stream and keeps it open: EventSource retries by itself after a dropped
  // connection, and when it gives up (CLOSED) we start a new one. The page says how its
  // stream is and which frame it shows: <html data-live="open|down" data-live-version="id">,
  // the id of the last frame applied (a round's version; the TV's and sync's own count).
  function connect(url, handlers, onStatus) {
    var source = null;
    var retryTimer = null;
    var root = document.documentElement;
    function status(state) {
      root.dataset.live = state;
      onStatus && onStatus(state);
    }
    function open() {
      source = new EventSource(url);
      source.onopen = function () {
        status("open");
        // A stream that opens means a signal: whatever the phone kept is sent now.
        if (window.HyzerOutbox) window.HyzerOutbox.flush();
      };
      source.onerror = function () {
        status("down");
        if (source.readyState === EventSource.CLOSED && !retryTimer) {
          retryTimer = setTimeout(function () { retryTimer = null; open(); }, 2000);
        }
      };
      Object.keys(handlers).forEach(function (name) {
        source.addEventListener(name, function (event) {
          status("open");
          handlers[name](event.data, event.lastEventId);
          root.dataset.liveVersion = event.lastEventId;
        });
      });
    }
    open();
    return { close: function () { source && source.close(); } };
  }

  function positions(board) {
    var result = {};
    if (!board) return result;
    board.querySelectorAll("tbody tr[data-player]").forEach(function (row, index) {
      result[row.getAttribute("data-player")] = { index: index, text: row.textContent };
    });
    return result;
  }

  // Swaps every leaderboard in `html` into `container`, marking rows that moved (▲▼,
  // highlighted briefly) or changed since the board they replace.
  function applyBoards(container, html) {
    var before = {};
    var versions = {};
    container.querySelectorAll(".leaderboard[data-round]").forEach(function (board) {
      before[board.getAttribute("data-round")] = positions(board);
      versions[board.getAttribute("data-round")] = board.getAttribute("data-version");
    });
    container.innerHTML = html;
    // A page showing one division keeps to it: the stream carries every division.
    var only = container.getAttribute("data-division");
    if (only) {
      container.querySelectorAll(".division[data-division]").forEach(function (division) {
        if (division.getAttribute("data-division") !== only) division.remove();
      });
    }
    container.querySelectorAll(".leaderboard[data-round]").forEach(function (board) {
      var old = before[board.getAttribute("data-round")];
      if (!old) return;
      // The same version again (the frame a stream opens with): nothing changed, nothing flashes,
      // even where the page drawn for this viewer words a row differently from the shared frame.
      var version = board.getAttribute("data-version");
      if (version && version === versions[board.getAttribute("data-round")]) return;
      board.querySelectorAll("tbody tr[data-player]").forEach(function (row, index) {
        var previous = old[row.getAttribute("data-player")];
        if (!previous) return;
        var cell = row.querySelector("td.pos");
        if (previous.index !== index && cell) {
          var up = index < previous.index;
          var arrow = document.createElement("span");
          arrow.className = "move " + (up ? "up" : "down");
          arrow.textContent = up ? "▲" : "▼";
          arrow.setAttribute("aria-label", up ? "moved up" : "moved down");
          cell.appendChild(arrow);
          row.classList.add("moved");
        } else if (previous.text !== row.textContent) {
          row.classList.add("updated");
        }
      });
    });
  }

  function replaceFragment(id, html) {
    var current = document.getElementById(id);
    if (!current) return;
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var next = holder.firstElementChild;
    if (!next) return;
    // Streamed fragments are shared by every viewer, so their forms carry no token: give
    // them this page's.
    var token = document.querySelector('meta[name="csrf-token"]');
    next.querySelectorAll('input[name="csrf"]').forEach(function (input) {
      if (token && !input.value) input.value = token.getAttribute("content");
    });
    current.replaceWith(next);
  }

  function hhmm(date) {
    return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
  }

  window.HyzerLive = { connect: connect, applyBoards: applyBoards, hhmm: hhmm };

  // "12 s ago" stays true while the page is open.
  function refreshAgo() {
    document.querySelectorAll("time[data-ago]").forEach(function (node) {
      var at = Date.parse(node.getAttribute("data-ago"));
      if (isNaN(at)) return;
      var seconds = Math.max(0, Math.round((Date.now() - at) / 1000));
      node.textContent = seconds < 60 ? seconds + " s ago" : seconds < 3600 ? Math.floor(seconds / 60) + " min ago" : Math.floor(seconds / 3600) + " h ago";
    });
  }
  setInterval(refreshAgo, 1000);

  function showStatus(state) {
    var status = document.getElementById("live-status");
    if (!status) return;
    status.textContent = state === "open" ? "Live" : "Reconnecting…";
    status.className = "live-status " + (state === "open" ? "on" : "off");
  }

  // A bracket page follows its matches: each change redraws the bracket.
  var bracket = document.querySelector("[data-live-bracket]");
  if (bracket) {
    connect("/events/" + bracket.getAttribute("data-live-bracket") + "/bracket/events", {
      bracket: function (html) { replaceFragment("bracket-board", html); }
    }, showStatus);
  }

  if (document.querySelector("[data-live-sync]")) {
    connect("/sync/events", {
      sync: function (html) { replaceFragment("sync-status", html); refreshAgo(); }
    }, showStatus);
  }

  // Round and leaderboard pages mark themselves with data-live-round.
  var marker = document.querySelector("[data-live-round]");
  if (!marker) return;
  var roundID = marker.getAttribute("data-live-round");
  var withScorecard = marker.hasAttribute("data-live-scorecard");
  var url = "/rounds/" + roundID + "/events" + (withScorecard ? "?scorecard=1" : "");
  var handlers = {
    standings: function (html) {
      var holder = document.getElementById("leaderboard-" + roundID);
      if (holder && holder.parentElement) applyBoards(holder.parentElement, html);
    }
  };
  if (withScorecard) {
    handlers.scorecard = function (html) { replaceFragment("scorecard-" + roundID, html); };
  }
  connect(url, handlers, showStatus);
})();
