#!/usr/bin/env python3
"""Runs the host-device commands that README.md, docs/*.md and the samples' READMEs give, as a
reader would type them from the repository root, and fails when one of them fails.

Usage: run_doc_commands.py <source root> <build dir> <scratch dir> [--min N] [--gpu]

What counts as a command:
- README.md's main job: the first ```bash block, from `build/bin/` on (the install, configure and
  build steps before it are what this build already did).
- In every fenced block of the other files: each line (joined over trailing backslashes) that
  starts, after optional VAR=value assignments, with `build/bin/` or `cat `. Lines of a block run
  one after another in one scratch folder, so that a `cat` reads what the command before it wrote.
- Inline `build/bin/...` spans.
- A block fenced as ```bash gpu is for a machine with an NVIDIA GPU (and PyTorch where it runs
  python3): skipped here; with --gpu only those blocks run, each whole, as one bash script
  (`set -euo pipefail`; variables carry from line to line), and a machine without PyTorch or a
  CUDA device exits 77 (CTest's SKIP).
Commands with placeholders (`<...>`, `/path/to`, `./app`, `./my_app`, `[options]`) are templates:
listed, not run. The build folder is reachable as `build` and the samples as `samples` from the
scratch folder, as from the repository root. Fewer than --min commands run is a failure: the extraction itself broke.
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


def link_folders(work, root, build):
    for name, target in (("build", build), ("samples", root / "samples")):
        link = work / name
        if not link.exists():
            link.symlink_to(target)


def run_gpu_blocks(root, build, scratch, minimum):
    probe = subprocess.run(
        ["python3", "-c", "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)"],
        capture_output=True)
    if probe.returncode != 0:
        print("SKIP: no PyTorch with a CUDA device here")
        return 77
    blocks = []
    for path in sorted((root / "docs").glob("*.md")) + sorted((root / "samples").rglob("README.md")):
        for n, (lang, lines) in enumerate(fenced_blocks(path.read_text())):
            if lang.split()[1:] == ["gpu"]:
                blocks.append((f"{path.relative_to(root)} block {n + 1}", lines))
    failed = 0
    for i, (where, lines) in enumerate(blocks):
        work = scratch / f"gpu{i:03d}"
        work.mkdir(parents=True, exist_ok=True)
        link_folders(work, root, build)
        script = "set -euo pipefail\nset -x\n" + "\n".join(lines) + "\n"
        proc = subprocess.run(["bash", "-c", script], cwd=work, capture_output=True, text=True,
                              timeout=540, env=dict(os.environ, ROCP_TOOL_LIBRARIES=""))
        status = "ok" if proc.returncode == 0 else f"FAIL (exit {proc.returncode})"
        print(f"{status} ({where}): {len(lines)} lines")
        out = (proc.stdout + proc.stderr).splitlines()
        for line in out if proc.returncode != 0 else out[-30:]:
            print(f"    {line}")
        failed += proc.returncode != 0
    print(f"gpu doc blocks: {len(blocks)} run, {failed} failed")
    if len(blocks) < minimum:
        print(f"FAIL: only {len(blocks)} gpu blocks found (expected at least {minimum})")
        return 1
    return 1 if failed else 0


def main():
    args = sys.argv[1:]
    minimum = 1
    if "--min" in args:
        i = args.index("--min")
        minimum = int(args[i + 1])
        del args[i : i + 2]
    gpu = "--gpu" in args
    if gpu:
        args.remove("--gpu")
    root, build, scratch = (pathlib.Path(a).resolve() for a in args)
    if gpu:
        return run_gpu_blocks(root, build, scratch, minimum)
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
            if lang.split()[1:] == ["gpu"]:
                print(f"gpu block, not run here ({rel} block {n + 1})")
                continue
            cmds = [c for c in joined(lines) if RUNNABLE.match(c)]
            if cmds:
                groups.append((f"{rel} block {n + 1}", cmds))
        for span in re.findall(r"`(build/bin/[^`]+)`", text):
            groups.append((f"{rel} inline", [span]))

    ran, skipped, failed = 0, 0, 0
    for i, (where, cmds) in enumerate(groups):
        work = scratch / f"g{i:03d}"
        work.mkdir(parents=True, exist_ok=True)
        link_folders(work, root, build)
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
