#!/usr/bin/env python3
"""Writes a fixture data folder through a running Hyzer server, with a real round from
../shared/data/real-rounds: course, players, round, every hole score, one correction and a
DNF. Kept for provenance: each released schema's fixture was written this way by the code of
that release (see docs/developing.md, "Adding a migration"). Usage: make-fixture.py BASE_URL ROUND_JSON [PLAYERS]
Since accounts (v3), HYZER_TOKEN holds a coach's or admin's API token: it signs every request,
and forms also carry the double-submit token the server hands out."""
import http.cookiejar
import json
import os
import sys
import urllib.parse
import urllib.request

base, source = sys.argv[1], sys.argv[2]
limit = int(sys.argv[3]) if len(sys.argv) > 3 else 8
data = json.load(open(source))


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


cookies = http.cookiejar.CookieJar()
opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPCookieProcessor(cookies))
token = os.environ.get("HYZER_TOKEN")
signed = {"Authorization": f"Bearer {token}"} if token else {}


def csrf():
    if not token:
        return []
    opener.open(urllib.request.Request(base + "/", headers=signed)).read()
    return [("csrf", c.value) for c in cookies if c.name == "hyzer_csrf"]


def form(path, fields):
    pairs = list(fields.items()) if isinstance(fields, dict) else list(fields)
    body = urllib.parse.urlencode(pairs + csrf()).encode()
    request = urllib.request.Request(base + path, data=body, headers={"Content-Type": "application/x-www-form-urlencoded", **signed})
    try:
        opener.open(request)
    except urllib.error.HTTPError as redirect:
        assert redirect.code == 303 or redirect.code == 302, redirect.read()
        return redirect.headers["Location"]


def api(path, payload=None):
    request = urllib.request.Request(base + path, data=json.dumps(payload).encode() if payload else None,
                                     headers={"Content-Type": "application/json", **signed})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


holes = data["holes"]
course = form("/courses", {"name": data["round"].split("course ")[1].split(",")[0], "holeCount": str(len(holes)),
                           "pars": " ".join(str(h["par"]) for h in holes),
                           "distances": " ".join(str(round(h["length_ft"] * 0.3048)) for h in holes)})
course_id = urllib.parse.parse_qs(urllib.parse.urlparse(course).query)["courseID"][0]
players = data["players"][:limit - 1] + [p for p in data["players"] if p["dnf"]][:1]
for p in players:
    handle = p["name"].lower().replace(" ", ".").encode("ascii", "ignore").decode()[:32]
    form("/players", {"displayName": p["name"], "handle": handle, "role": "athlete"})
listing = [("courseID", course_id), ("name", "Ale Open FPO R1"), ("startNow", "1")]
# The players' ids come from the round form's checkboxes: read them from the new-round page.
page = opener.open(urllib.request.Request(base + "/rounds/new", headers=signed)).read().decode()
ids = {}
for chunk in page.split('name="playerIDs')[1:]:
    value = chunk.split('value="')[1].split('"')[0]
    name = chunk.split("> ")[1].split(" <span")[0]
    ids[name] = value
for p in players:
    listing.append(("playerIDs[]" if token else "playerIDs", ids[p["name"]]))
location = form("/rounds", listing)
round_id = location.rsplit("/", 1)[1]
for index, p in enumerate(players):
    last = None
    for number, strokes in enumerate(p["scores"], start=1):
        if strokes:
            # The first player's first hole is entered wrong, then corrected: a supersession chain.
            typed = strokes + 1 if index == 0 and number == 1 else strokes
            last = api(f"/api/v1/rounds/{round_id}/scores", {"playerID": ids[p["name"]], "hole": number, "strokes": typed})["event"]
            if typed != strokes:
                api(f"/api/v1/rounds/{round_id}/scores", {"playerID": ids[p["name"]], "hole": number, "strokes": strokes, "supersedes": last["id"]})
    if p["dnf"]:
        api(f"/api/v1/rounds/{round_id}/scores", {"playerID": ids[p["name"]], "hole": last["hole"], "strokes": "DNF", "supersedes": last["id"]})
events = api(f"/api/v1/rounds/{round_id}/standings")
print(json.dumps({"round": round_id, "players": len(players), "leader": events["standings"][0]}))
