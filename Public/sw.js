// Hyzer's service worker: pages open with no signal. Pages are fetched from the network
// first and kept; with no answer the kept copy is shown, marked with the time it is from.
// A card page, once kept, opens from the phone at once and asks for fresh data itself.
// The page's files come from the phone at once and are refreshed behind. Nothing else is
// touched: the API, live streams and every form post go to the network as they are.
"use strict";

var STATIC = "hyzer-static";
var PAGES = "hyzer-pages";
var FILES = ["/hyzer.css", "/outbox.js", "/card.js", "/live.js", "/copy.js", "/icon.svg", "/manifest.webmanifest", "/icon-192.png"];
// Pages worth reading with no signal: rounds, their boards and cards, events, the lists.
var KEPT = [/^\/$/, /^\/events$/, /^\/rounds\/[^/]+$/, /^\/rounds\/[^/]+\/(cards\/(?!edit$)[^/]+|leaderboard)$/, /^\/events\/[^/]+$/, /^\/events\/[^/]+\/leaderboard$/];
var CARD = /^\/rounds\/[^/]+\/cards\/(?!edit$)[^/]+$/;
// How long a page may take before the kept copy is shown instead.
var PATIENCE = 4000;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC).then(function (cache) { return cache.addAll(FILES); }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/api/") === 0 || url.pathname === "/sw.js") return;
  if ((request.headers.get("Accept") || "").indexOf("text/event-stream") >= 0) return;
  if (request.mode === "navigate") {
    if (CARD.test(url.pathname)) event.respondWith(cardPage(event, request, url));
    else if (KEPT.some(function (pattern) { return pattern.test(url.pathname); })) event.respondWith(page(request, url));
    return;
  }
  if (FILES.indexOf(url.pathname) >= 0) event.respondWith(file(request, url));
});

// A card page is kept once, whatever its hole: the page draws the hole from its address.
function key(url) {
  return CARD.test(url.pathname) ? url.origin + url.pathname : url.href;
}

// A card page opens from the phone at once (a scorer on the course must not wait for the
// network); the page then asks the server for the card as it is now (card.js), and the kept
// copy is refreshed behind it for next time.
function cardPage(event, request, url) {
  return caches.open(PAGES).then(function (cache) { return cache.match(key(url)); }).then(function (copy) {
    if (!copy) return page(request, url);
    event.waitUntil(keep(fetch(request), url).catch(function () { /* no signal: the copy stays */ }));
    return copy.text().then(function (html) {
      var headers = new Headers(copy.headers);
      var at = copy.headers.get("X-Hyzer-Kept-At") || "";
      return new Response(html.replace("</head>", '<meta name="hyzer-kept-copy" content="' + at + '">\n</head>'), { status: 200, headers: headers });
    });
  });
}

function keep(network, url) {
  return network.then(function (response) {
    if (response.ok && (response.headers.get("Content-Type") || "").indexOf("text/html") === 0) {
      var copy = response.clone();
      copy.blob().then(function (body) {
        var headers = new Headers(copy.headers);
        headers.set("X-Hyzer-Kept-At", new Date().toISOString());
        return caches.open(PAGES).then(function (cache) { return cache.put(key(url), new Response(body, { status: 200, headers: headers })); });
      });
    }
    return response;
  });
}

function page(request, url) {
  var network = keep(fetch(request), url);
  var timer;
  var late = new Promise(function (resolve) { timer = setTimeout(resolve, PATIENCE); });
  return Promise.race([network, late]).then(function (response) {
    clearTimeout(timer);
    return response || kept(url, network);
  }, function () {
    clearTimeout(timer);
    return kept(url, null);
  });
}

function kept(url, stillComing) {
  return caches.open(PAGES).then(function (cache) { return cache.match(key(url)); }).then(function (copy) {
    if (!copy) return stillComing || offlinePage();
    return copy.text().then(function (html) {
      var when = new Date(copy.headers.get("X-Hyzer-Kept-At") || copy.headers.get("Date") || Date.now());
      var time = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      var banner = '<p class="notice offline-copy" role="status">Offline — showing data from ' + time + "</p>";
      var headers = new Headers(copy.headers);
      headers.set("X-Hyzer-Offline-Copy", when.toISOString());
      return new Response(html.replace("<main>", "<main>" + banner), { status: 200, headers: headers });
    });
  });
}

function offlinePage() {
  var html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Offline · Hyzer</title><link rel="stylesheet" href="/hyzer.css"></head><body class="page"><main>' +
    '<h1>No signal</h1><p>This page was not kept on this phone. Pages you opened before, and the cards you score, open with no signal.</p>' +
    '<p><a href="/">Rounds</a></p><p id="outbox-status" class="outbox-status" role="status" hidden></p></main><script src="/outbox.js"></script></body></html>';
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function file(request, url) {
  return caches.open(STATIC).then(function (cache) {
    return cache.match(url.pathname).then(function (copy) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok) cache.put(url.pathname, response.clone());
        return response;
      });
      if (copy) { fresh.catch(function () { /* the kept copy serves */ }); return copy; }
      return fresh;
    });
  });
}
