#!/usr/bin/env python3
"""Writes the benchmark tables of docs/benchmarks.md from what the benchmarks measured, between markers:

    <!-- bench-table -->   ... <!-- /bench-table -->    bench-results.json (make bench)
    <!-- budget-table -->  ... <!-- /budget-table -->   Benchmarks/budget.json (make bench-budget)

    scripts/bench-readme.py [--results bench-results.json] [--budget Benchmarks/budget.json]

Each table says when and on what it was measured; the figures table has every goal beside
its figure and marks those not met, the budget table each path's count beside the bare
Hummingbird hello's (`bench-check.py --hello`). Only the tables whose input exists are written.
"""
import argparse
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = {"spectator", "returning", "signed-in"}


def figures_table(results):
    lines = [f"Measured {results['date'][:10]} on {results['machine']} (`make bench`; load generator and server on the same cores):", "",
             "| figure | measured | goal | met |", "|---|---|---|---|"]
    for row in results["rows"]:
        met = {True: "yes", False: "**no**"}.get(row.get("met"), "–")
        lines.append(f"| {row['figure']} | {row['measured']} | {row.get('goal') or ''} | {met} |")
    return "\n".join(lines)


def budget_table(budget):
    hello = budget.get("bare-hello", {}).get("instructions")
    lines = ["| path (instructions per request, release build) | budget | × bare hello |", "|---|---|---|"]
    order = ["score", "spectator", "returning", "signed-in", "live-100", "season-standings", "round-ratings", "pull-1000"]
    for name, entry in sorted(budget["paths"].items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order)):
        # Beside the hello for the requests that are one page each; the others do far more.
        times = f"{entry['instructions'] / hello:.2f}" if hello and name in PAGES else ""
        lines.append(f"| {entry['what']} (`{name}`) | {entry['instructions']:,} | {times} |")
    if hello:
        lines.append(f"| Hummingbird's bare hello route, nothing added (`hyzer-bench hello`) | {hello:,} | 1.00 |")
    return "\n".join(lines)


def replace(text, marker, table):
    pattern = re.compile(rf"(<!-- {marker} -->\n).*?(\n<!-- /{marker} -->)", re.S)
    if not pattern.search(text):
        raise SystemExit(f"docs/benchmarks.md has no <!-- {marker} --> … <!-- /{marker} --> section")
    return pattern.sub(lambda m: m.group(1) + table + m.group(2), text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", default=str(ROOT / "bench-results.json"))
    parser.add_argument("--budget", default=str(ROOT / "Benchmarks" / "budget.json"))
    parser.add_argument("--readme", default=str(ROOT / "docs" / "benchmarks.md"))
    arguments = parser.parse_args()
    readme = pathlib.Path(arguments.readme)
    text = readme.read_text()
    results, budget = pathlib.Path(arguments.results), pathlib.Path(arguments.budget)
    if results.exists():
        text = replace(text, "bench-table", figures_table(json.loads(results.read_text())))
    if budget.exists():
        text = replace(text, "budget-table", budget_table(json.loads(budget.read_text())))
    readme.write_text(text)
    print(f"wrote the benchmark tables of {readme}")


if __name__ == "__main__":
    main()
