#!/usr/bin/env python3
"""Checks share/rocprofiler-sdk/amd_equivalents.json (docs/api.md, "AMD counter names").

Without options: the file's structure (every entry names each agent exactly once, in a
definition or in "absent"), its expressions (the derived-metric language's tokens, balanced
parentheses), that host-device expressions use only counters that host/counters.cpp lists, and
that docs/api.md's table has a row for every name with the same expressions.

With --cupti <libcupti.so>: also that CUPTI's profiler host API accepts every name an sm_90
definition uses for the GH100 chip (no GPU needed), after checking that it refuses a made-up name.

Prints each problem and exits 1 when there is one.
"""

import argparse
import ctypes
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FILE = ROOT / "source/share/rocprofiler-sdk/amd_equivalents.json"
HOST_COUNTERS = ROOT / "source/lib/rocprofiler-sdk/host/counters.cpp"
API_DOC = ROOT / "docs/api.md"
AGENTS = ("sm_90", "host")
CHIP = {"sm_90": b"GH100"}

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
TOKEN = re.compile(
    r"\s*(?:(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|(?P<name>[A-Za-z_][A-Za-z0-9_.]*)"
    r"|(?P<op>[-+*/(),]))"
)


def expression_names(text):
    """The counter names of @p text, or raises ValueError where a token is not of the language."""
    pos, depth, names = 0, 0, []
    text = text.rstrip()
    while pos < len(text):
        match = TOKEN.match(text, pos)
        if not match or match.end() == pos:
            raise ValueError(f"unexpected character at column {pos + 1}")
        if match.group("name") and match.group("name") not in ("min", "max"):
            names.append(match.group("name"))
        depth += {"(": 1, ")": -1}.get(match.group("op"), 0)
        if depth < 0:
            raise ValueError(f"')' without '(' at column {match.end()}")
        pos = match.end()
    if depth != 0:
        raise ValueError("unbalanced parentheses")
    return names


def host_counter_names():
    text = HOST_COUNTERS.read_text()
    return set(re.findall(r'"((?:PERF_)?[A-Z][A-Z_]+)"', text))


def check_structure(doc, problems):
    if doc.get("version") != 1:
        problems.append('"version" must be 1')
    host_names = host_counter_names()
    seen = set()
    cupti_names = set()
    for index, entry in enumerate(doc.get("equivalents", [])):
        name = entry.get("name", "")
        where = f"entry #{index + 1} '{name}'"
        if not NAME.fullmatch(name):
            problems.append(f"{where}: the name is not a counter name")
        if name in seen:
            problems.append(f"{where}: the name appears twice")
        seen.add(name)
        for key in ("amd_meaning", "amd_kind", "definitions", "absent"):
            if key not in entry:
                problems.append(f'{where}: no "{key}"')
        if entry.get("amd_kind") not in ("hardware", "derived"):
            problems.append(f'{where}: "amd_kind" is "hardware" or "derived"')
        named = []
        for definition in entry.get("definitions", []):
            keys = {"agents", "expression", "unit", "description", "notes"}
            if set(definition) != keys:
                problems.append(f"{where}: a definition has {sorted(definition)}, not {sorted(keys)}")
                continue
            named += definition["agents"]
            try:
                names = expression_names(definition["expression"])
            except ValueError as error:
                problems.append(f"{where}: bad expression {definition['expression']!r}: {error}")
                continue
            for agent in definition["agents"]:
                if agent == "host":
                    for unknown in sorted(set(names) - host_names):
                        problems.append(f"{where}: the host device has no counter {unknown}")
                else:
                    cupti_names.update(names)
            if not definition["description"] or not definition["unit"]:
                problems.append(f"{where}: a definition without description or unit")
        for absent in entry.get("absent", []):
            if set(absent) != {"agents", "reason"} or not absent.get("reason"):
                problems.append(f'{where}: an "absent" entry has "agents" and a "reason"')
                continue
            named += absent["agents"]
        if sorted(named) != sorted(AGENTS):
            problems.append(f"{where}: names agents {sorted(named)}; each of {list(AGENTS)} once")
    return cupti_names


def check_docs(doc, problems):
    text = API_DOC.read_text()
    for entry in doc.get("equivalents", []):
        cells = {}
        for definition in entry.get("definitions", []):
            for agent in definition.get("agents", []):
                cells[agent] = f"`{definition.get('expression')}` ({definition.get('unit')})"
        for absent in entry.get("absent", []):
            for agent in absent.get("agents", []):
                cells[agent] = "absent"
        row = f"| `{entry.get('name')}` | {cells.get('sm_90')} | {cells.get('host')} |"
        if row not in text:
            problems.append(f"docs/api.md lacks the row starting {row}")


class _Init(ctypes.Structure):
    _fields_ = [("structSize", ctypes.c_size_t), ("pPriv", ctypes.c_void_p),
                ("profilerType", ctypes.c_int), ("pChipName", ctypes.c_char_p),
                ("pCounterAvailabilityImage", ctypes.c_void_p), ("pHostObject", ctypes.c_void_p)]


class _AddMetrics(ctypes.Structure):
    _fields_ = [("structSize", ctypes.c_size_t), ("pPriv", ctypes.c_void_p),
                ("pHostObject", ctypes.c_void_p), ("ppMetricNames", ctypes.POINTER(ctypes.c_char_p)),
                ("numMetrics", ctypes.c_size_t)]


class _Deinit(ctypes.Structure):
    _fields_ = [("structSize", ctypes.c_size_t), ("pPriv", ctypes.c_void_p),
                ("pHostObject", ctypes.c_void_p)]


def cupti_accepts(lib, chip, metric):
    """Whether CUPTI's profiler host API (range profiler) accepts @p metric for @p chip."""
    init = _Init(ctypes.sizeof(_Init), None, 0, chip, None, None)
    status = lib.cuptiProfilerHostInitialize(ctypes.byref(init))
    if status != 0:
        raise RuntimeError(f"cuptiProfilerHostInitialize({chip.decode()}) returned {status}")
    names = (ctypes.c_char_p * 1)(metric.encode())
    add = _AddMetrics(ctypes.sizeof(_AddMetrics), None, init.pHostObject, names, 1)
    accepted = lib.cuptiProfilerHostConfigAddMetrics(ctypes.byref(add)) == 0
    lib.cuptiProfilerHostDeinitialize(ctypes.byref(_Deinit(ctypes.sizeof(_Deinit), None,
                                                           init.pHostObject)))
    return accepted


def check_cupti(path, names, problems):
    lib = ctypes.CDLL(path)
    if cupti_accepts(lib, CHIP["sm_90"], "made_up__metric_name.sum"):
        problems.append("CUPTI accepted a made-up metric name: this check cannot tell")
        return
    refused = [name for name in sorted(names) if not cupti_accepts(lib, CHIP["sm_90"], name)]
    for name in refused:
        problems.append(f"CUPTI does not accept {name} for GH100")
    if not refused:
        print(f"CUPTI ({path}) accepts all {len(names)} names for GH100")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cupti", help="libcupti.so whose host API checks the sm_90 names")
    args = parser.parse_args()
    problems = []
    try:
        doc = json.loads(FILE.read_text())
    except (OSError, ValueError) as error:
        print(f"{FILE}: {error}")
        return 1
    cupti_names = check_structure(doc, problems)
    check_docs(doc, problems)
    if args.cupti:
        check_cupti(args.cupti, cupti_names, problems)
    for problem in problems:
        print(problem)
    entries = doc.get("equivalents", [])
    if not problems:
        for agent in AGENTS:
            mapped = [e["name"] for e in entries
                      if any(agent in d["agents"] for d in e["definitions"])]
            print(f"{agent}: {len(mapped)} of {len(entries)} names have an equivalent")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
