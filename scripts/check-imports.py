#!/usr/bin/env python3
"""Every target declares in Package.swift each module it imports: a module reached only
through another target's dependencies builds today and breaks the day that target drops it.
Reads the manifest through `swift package dump-package`; the toolchain's own modules need no
declaration. Exits 1 naming each undeclared import."""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOOLCHAIN = {"Darwin", "Foundation", "FoundationEssentials", "Glibc", "Dispatch", "Synchronization", "Testing", "XCTest", "_Concurrency"}
IMPORT = re.compile(r"^\s*(?:@testable\s+)?(?:@preconcurrency\s+)?(?:public\s+|package\s+|internal\s+)?import\s+(?:struct\s+|enum\s+|class\s+|func\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def main():
    manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True, check=True).stdout)
    problems = []
    for target in manifest["targets"]:
        name = target["name"]
        declared = {name.replace("-", "_")}
        for dependency in target["dependencies"]:
            declared.add(next(iter(dependency.values()))[0])
        folder = ROOT / (target.get("path") or ("Tests" if target["type"] == "test" else "Sources") + "/" + name)
        for file in sorted(folder.rglob("*.swift")):
            for module in IMPORT.findall(file.read_text(encoding="utf-8")):
                if module not in declared and module not in TOOLCHAIN:
                    problems.append(f"{file.relative_to(ROOT)}: imports {module}, which target {name} does not declare in Package.swift")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
