#!/usr/bin/env python3
"""Loads one round of ../shared/data/pdga-ratings (or any file of that shape) into a running
Hyzer through its JSON API, as a club would: the layout, each player with their PDGA rating
entered, a round with the results imported from CSV, completed. Then prints Hyzer's round
rating beside the PDGA's for each player, and the median and 90th percentile of the gaps.

    TOKEN=$(hyzer admin token <coach> --data-dir <dir>)
    scripts/import-pdga-round.py ../shared/data/pdga-ratings/78666-MPO-1.json --url http://127.0.0.1:8080 --token $TOKEN
"""
import argparse
import json
import re
import statistics
import sys
import urllib.error
import urllib.request


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    parser.add_argument("--url", default="http://127.0.0.1:8080")
    parser.add_argument("--token", required=True, help="a coach's API token (hyzer admin token HANDLE)")
    args = parser.parse_args()
    published = json.load(open(args.file, encoding="utf-8"))

    def call(method, path, body=None, content_type="application/json"):
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        request = urllib.request.Request(args.url + path, data=data, method=method,
                                         headers={"Authorization": f"Bearer {args.token}", "content-type": content_type})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            sys.exit(f"{method} {path}: {error.code} {error.read().decode()[:300]}")

    tag = f"{published['tournament_id']}-{published['division']}"
    name = f"{published['course']} ({published['layout']})"[:80]
    course = call("POST", "/api/v1/courses", {"name": name, "holes": [{"number": i + 1, "par": p} for i, p in enumerate(published["pars"])]})
    handles = []
    for index, player in enumerate(published["players"]):
        handle = re.sub(r"[^a-z0-9]", "", f"p{tag}{index}".lower())[:30]
        made = call("POST", "/api/v1/players", {"displayName": player["name"][:60], "handle": handle})
        if player.get("rating"):
            call("PUT", f"/api/v1/players/{made['id']}/rating", {"rating": player["rating"]})
        handles.append((made["id"], handle, player))
        print(f"\rplayers: {index + 1}/{len(published['players'])}", end="", file=sys.stderr)
    print(file=sys.stderr)
    round_ = call("POST", "/api/v1/rounds", {"courseID": course["id"], "name": f"PDGA {tag} round 1", "start": True,
                                             "players": [{"playerID": pid} for pid, _, _ in handles]})
    rows = ["handle," + ",".join(str(i + 1) for i in range(len(published["pars"])))]
    rows += [handle + "," + ",".join("" if s is None else str(s) for s in p["scores"]) for _, handle, p in handles]
    call("POST", f"/api/v1/rounds/{round_['id']}/results", ("\n".join(rows) + "\n").encode(), "text/csv")
    call("POST", f"/api/v1/rounds/{round_['id']}/complete", {})
    rated = call("GET", f"/api/v1/rounds/{round_['id']}/ratings")
    ours = {row["playerID"]: row["rating"] for row in rated["ratings"]}
    gaps = []
    for pid, _, player in handles:
        pdga = player.get("published_round_rating")
        mine = ours.get(pid)
        if pdga is not None and mine is not None:
            gaps.append(abs(mine - pdga))
        print(f"{player['name'][:28]:28} PDGA {pdga if pdga is not None else '–':>5}  Hyzer {mine if mine is not None else '–':>5}")
    gaps.sort()
    if gaps:
        p90 = gaps[min(len(gaps) - 1, int(len(gaps) * 0.9))]
        print(f"SSA {rated['ssa']:.2f}, {rated['propagators']} propagators; |Hyzer − PDGA| over {len(gaps)} players: "
              f"median {statistics.median(gaps):g}, 90th percentile {p90}")
    print(f"round: {args.url}/rounds/{round_['id']}   layout: {args.url}/courses/{course['id']}")


if __name__ == "__main__":
    main()
