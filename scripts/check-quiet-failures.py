#!/usr/bin/env python3
"""No `try?` in the store or the sync engine hides a failure. Where data is kept, a failure
swallowed by `try?` is data lost in silence: a record skipped, a batch left in flight, a
marker misread. Each `try?` there either becomes a `do`/`catch` that logs the reason or
throws, or says on its line (or the line above) why nothing is hidden, in a comment that
starts `// quiet:`. Allowed without a word: sleeping (`Task.sleep`, whose only error is
cancellation), `gracefulShutdown()`, and a cleanup in a `defer`. Exits 1 naming each other one."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = ["Sources/HyzerStore", "Sources/HyzerSync"]
TRY = re.compile(r"\btry\?")
ALLOWED = [re.compile(p) for p in (r"try\? await Task\.sleep\(", r"try\? await gracefulShutdown\(\)")]
QUIET = "// quiet:"


def comment_above(lines, index):
    """The comment lines right above line `index` (0-based), joined."""
    block = []
    while index > 0 and lines[index - 1].strip().startswith("//"):
        index -= 1
        block.append(lines[index])
    return "\n".join(block)


def main():
    problems = []
    for folder in FOLDERS:
        for file in sorted((ROOT / folder).rglob("*.swift")):
            lines = file.read_text(encoding="utf-8").splitlines()
            for number, line in enumerate(lines, 1):
                for match in TRY.finditer(line):
                    rest = line[match.start():]
                    if any(pattern.match(rest) for pattern in ALLOWED) or "defer {" in line[:match.start()]:
                        continue
                    if QUIET in line or QUIET in comment_above(lines, number - 1):
                        continue
                    problems.append(f"{file.relative_to(ROOT)}:{number}: `try?` may hide a failure: log it, throw it, or say why not (// quiet: …)")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
