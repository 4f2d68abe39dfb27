#!/usr/bin/env python3
"""Writes the operation-id and table-id headers of rocprofiler-sdk's runtime domains (HSA, HIP,
marker, KFD, OMPT, RCCL, rocDecode, rocJPEG) under source/include/rocprofiler-sdk/.

These headers hold only enumerations: which enumerators each enum has and in which order comes
from AMD's header (--amd-include, their source/include directory), the value of each from
tests/amd_api/amd_identifiers.txt (--list, made by scripts/amd-api-list.py generate). Every
enumerator is written with its value, so that a tool built against AMD's headers and one built
against ours agree. Enumerators AMD's header guards by a runtime version that the list does not
hold are left out. Run again when amd_identifiers.txt is regenerated; then clang-format the
output (scripts/check-format.sh --fix).
"""

import argparse
import os
import re

# header -> one line saying what it holds
HEADERS = {
    "hsa/core_api_id.h": "Operations of ROCPROFILER_*_TRACING_HSA_CORE_API: HSA core functions.",
    "hsa/amd_ext_api_id.h": "Operations of ROCPROFILER_*_TRACING_HSA_AMD_EXT_API.",
    "hsa/image_ext_api_id.h": "Operations of ROCPROFILER_*_TRACING_HSA_IMAGE_EXT_API.",
    "hsa/finalize_ext_api_id.h": "Operations of ROCPROFILER_*_TRACING_HSA_FINALIZE_EXT_API.",
    "hsa/scratch_memory_id.h": "Operations of ROCPROFILER_*_TRACING_SCRATCH_MEMORY.",
    "hsa/table_id.h": "HSA's API tables, as rocprofiler-sdk numbers them.",
    "hip/runtime_api_id.h": "Operations of ROCPROFILER_*_TRACING_HIP_RUNTIME_API.",
    "hip/compiler_api_id.h": "Operations of ROCPROFILER_*_TRACING_HIP_COMPILER_API.",
    "hip/table_id.h": "HIP's API tables, as rocprofiler-sdk numbers them.",
    "marker/api_id.h": "Operations of the ROCPROFILER_*_TRACING_MARKER_* kinds: a function's index.",
    "marker/table_id.h": "ROCTx's API tables, as rocprofiler-sdk numbers them.",
    "kfd/kfd_id.h": "Operations of the ROCPROFILER_BUFFER_TRACING_KFD_* kinds.",
    "ompt/api_id.h": "Operations of ROCPROFILER_*_TRACING_OMPT.",
    "rccl/api_id.h": "Operations of ROCPROFILER_*_TRACING_RCCL_API.",
    "rccl/table_id.h": "RCCL's API tables, as rocprofiler-sdk numbers them.",
    "rocdecode/api_id.h": "Operations of ROCPROFILER_*_TRACING_ROCDECODE_API.",
    "rocdecode/table_id.h": "rocDecode's API tables, as rocprofiler-sdk numbers them.",
    "rocjpeg/api_id.h": "Operations of ROCPROFILER_*_TRACING_ROCJPEG_API.",
    "rocjpeg/table_id.h": "rocJPEG's API tables, as rocprofiler-sdk numbers them.",
}

ENUM = re.compile(r"typedef\s+enum\s+(\w+)?[^{]*\{(.*?)\}\s*(\w+)\s*;", re.S)
ENUMERATOR = re.compile(r"^\s*(ROCPROFILER_\w+)", re.M)


def values(list_path):
    out = {}
    with open(list_path) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 4 and cols[0] == "enumerator":
                out[(cols[2], cols[1])] = int(cols[3])
    return out


def render(header, text, vals):
    key = "rocprofiler-sdk/" + header
    body = []
    for match in ENUM.finditer(text):
        name = match.group(3)
        rows = [n for n in ENUMERATOR.findall(match.group(2)) if (key, n) in vals]
        if not rows:
            continue
        body.append(f"typedef enum {name} // NOLINT(performance-enum-size)\n{{")
        body += [f"    {n} = {vals[(key, n)]}," for n in rows]
        body.append(f"}} {name};\n")
    if not body:
        raise SystemExit(f"{header}: no enumerator of the list found")
    head = [f"/* {HEADERS[header]}", " * Values are rocprofiler-sdk 1.0's; written by"
            " scripts/generate-amd-api-ids.py. */", "#pragma once", ""]
    return "\n".join(head + body)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--amd-include", required=True)
    parser.add_argument("--list", required=True)
    parser.add_argument("--out", required=True, help="our source/include directory")
    args = parser.parse_args()
    vals = values(args.list)
    for header in HEADERS:
        with open(os.path.join(args.amd_include, "rocprofiler-sdk", header)) as f:
            text = f.read()
        path = os.path.join(args.out, "rocprofiler-sdk", header)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(render(header, text, vals))


if __name__ == "__main__":
    main()
