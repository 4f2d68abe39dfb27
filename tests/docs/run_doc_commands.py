#!/usr/bin/env python3
"""Runs the host-device commands that README.md, docs/*.md and the samples' READMEs give, as a
reader would type them from the repository root, and fails when one of them fails.

Usage: run_doc_commands.py <source root> <build dir> <scratch dir> [--min N]

What counts as a command:
- README.md's main job: the first ```bash block, from `build/bin/` on (the install, configure and
  build steps before it are what this build already did).
- In every fenced block of the other files: each line (joined over trailing backslashes) that
  starts, after optional VAR=value assignments, with `build/bin/` or `cat `. Lines of a block run
  one after another in one scratch folder, so that a `cat` reads what the command before it wrote.
- Inline `build/bin/...` spans.
Commands with placeholders (`<...>`, `/path/to`, `./app`, `./my_app`, `[options]`) are templates:
listed, not run. The build folder is reachable as `build` from the scratch folder, as from the
repository root. Fewer than --min commands run is a failure: the extraction itself broke.
"""
import os
import pathlib
import re
import subprocess
import sys

TEMPLATE = re.compile(r"<[^>]*>|/path/to|\./app\b|\./my_app\b|\[options\]|\.\.\.")
RUNNABLE = re.compile(r"^(?:[A-Z_][A-Z0-9_]*=\S+\s+)*(?:build/bin/|cat\s)")


def fenced_blocks(text):
    blocks, current, lang = [], None, ""
    for line in text.splitlines():
        if line.startswith("```"):
            if current is None:
                current, lang = [], line[3:].strip()
            else:
                blocks.append((lang, current))
                current = None
            continue
        if current is not None:
            current.append(line)
    return blocks


def joined(lines):
    out, pending = [], ""
    for line in lines:
        stripped = line.strip()
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        out.append((pending + stripped).strip())
        pending = ""
    if pending:
        out.append(pending.strip())
    return [c for c in out if c]


def main():
    args = sys.argv[1:]
    minimum = 1
    if "--min" in args:
        i = args.index("--min")
        minimum = int(args[i + 1])
        del args[i : i + 2]
    root, build, scratch = (pathlib.Path(a).resolve() for a in args)
    groups = []  # (where, [commands])

    readme = (root / "README.md").read_text()
    for lang, lines in fenced_blocks(readme):
        if lang == "bash":
            line = " ".join(joined(lines))
            at = line.find("build/bin/")
            if at < 0:
                print("FAIL: README.md's first bash block has no build/bin/ command")
                return 1
            groups.append(("README.md main job", [line[at:]]))
            break
    files = sorted((root / "docs").glob("*.md")) + sorted((root / "samples").rglob("README.md"))
    for path in [root / "README.md"] + files:
        text = path.read_text()
        rel = path.relative_to(root)
        for n, (lang, lines) in enumerate(fenced_blocks(text)):
            if path.name == "README.md" and path.parent == root and lang == "bash" and n == 0:
                continue  # the main job, above
            cmds = [c for c in joined(lines) if RUNNABLE.match(c)]
            if cmds:
                groups.append((f"{rel} block {n + 1}", cmds))
        for span in re.findall(r"`(build/bin/[^`]+)`", text):
            groups.append((f"{rel} inline", [span]))

    ran, skipped, failed = 0, 0, 0
    for i, (where, cmds) in enumerate(groups):
        work = scratch / f"g{i:03d}"
        work.mkdir(parents=True, exist_ok=True)
        link = work / "build"
        if not link.exists():
            link.symlink_to(build)
        for cmd in cmds:
            if TEMPLATE.search(cmd):
                print(f"template ({where}): {cmd}")
                skipped += 1
                continue
            proc = subprocess.run(cmd, shell=True, cwd=work, capture_output=True, text=True,
                                  timeout=240, env=dict(os.environ, ROCP_TOOL_LIBRARIES=""))
            ran += 1
            status = "ok" if proc.returncode == 0 else f"FAIL (exit {proc.returncode})"
            print(f"{status} ({where}): {cmd}")
            if proc.returncode != 0:
                failed += 1
                for line in (proc.stdout + proc.stderr).splitlines()[-8:]:
                    print(f"    {line}")
    print(f"doc commands: {ran} run, {failed} failed, {skipped} templates not run")
    if ran < minimum:
        print(f"FAIL: only {ran} commands found and run (expected at least {minimum})")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
