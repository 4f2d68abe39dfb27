#!/usr/bin/env python3
"""The public identifiers of AMD's rocprofiler-sdk headers, and how many of them ours declare.

generate: parses AMD's public C headers (their `source/include/`) with clang, compiles and runs
  a small program against them that prints every enumerator's value and every record's size,
  alignment and field offsets, and writes the list (tests/amd_api/amd_identifiers.txt), one
  identifier a line:
    function   <name> <header> <signature>
    enumerator <name> <header> <value>
    record     <name> <header> <size> <align>
    field      <record>.<field> <header> <offset or -1 for a bit-field> <size or -1>
    typedef    <name> <header> <underlying type>
    macro      <name> <header>
  AMD's headers need the HSA and hsakmt headers of ROCr (pass their include directory); HIP's
  headers are replaced by declarations this script writes, so the layout of records made of HIP
  types (the HIP argument unions) is not recorded, only their names.

check: parses our headers the same way, counts the identifiers of the list that ours declare,
  and compiles (C++17 and C11) and links against our library one program that asserts, for each
  identifier present, AMD's function type, enumerator value, record size, alignment and field
  offsets. Prints `present/total`; fails when a present identifier differs from AMD's, or when
  fewer than --min-present are present. Identifiers named in --known-differences (one a line,
  `#` comments; each with its reason) are counted as present but not asserted, and listed.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

# Declared for tools to define: their type is checked, their address is not taken.
TOOL_DEFINED = {"rocprofiler_configure"}

PUBLIC = re.compile(r"^(rocprofiler|ROCPROFILER)_\w+$")

# Types of HIP's API that AMD's HIP argument headers name. Handles are opaque pointers; the
# rest are given a placeholder definition (their layout is not recorded, see above).
HIP_HANDLES = """hipStream_t hipGraphNode_t hipGraph_t hipEvent_t hipGraphExec_t hipArray_t
hipArray_const_t hipMemPool_t hipCtx_t hipFunction_t hipModule_t hipMipmappedArray_t
hipMipmappedArray_const_t hipUserObject_t hipDeviceptr_t hipGraphicsResource_t hipExternalMemory_t
hipExternalSemaphore_t hipMemGenericAllocationHandle_t""".split()
HIP_SCALARS = """hipDevice_t hipTextureObject_t hipSurfaceObject_t GLenum GLuint""".split()
HIP_ENUMS = """hipMemcpyKind hipError_t hipStreamCaptureStatus hipSharedMemConfig hipFuncCache_t
hipMemAllocationHandleType hipArray_Format hipChannelFormatKind hipDeviceAttribute_t
hipDeviceP2PAttr hipFuncAttribute hipFunction_attribute hipGLDeviceList hipGraphExecUpdateResult
hipGraphMemAttributeType hipGraphNodeType hipJitOption hipKernelNodeAttrID
hipMemAllocationGranularity_flags hipMemAccessFlags hipMemPoolAttr hipMemRangeAttribute
hipMemoryAdvise hipPointer_attribute hipStreamCaptureMode hipLimit_t hipTextureAddressMode
hipTextureFilterMode""".split()
HIP_STRUCTS = """HIP_ARRAY3D_DESCRIPTOR HIP_ARRAY_DESCRIPTOR HIP_MEMCPY3D HIP_MEMSET_NODE_PARAMS
HIP_RESOURCE_DESC HIP_RESOURCE_VIEW_DESC HIP_TEXTURE_DESC dim3 hipArrayMapInfo
hipChannelFormatDesc hipDeviceProp_tR0000 hipDeviceProp_tR0600 hipExtent
hipExternalMemoryBufferDesc hipExternalMemoryHandleDesc hipExternalSemaphoreHandleDesc
hipExternalSemaphoreSignalNodeParams hipExternalSemaphoreSignalParams
hipExternalSemaphoreWaitNodeParams hipExternalSemaphoreWaitParams hipFunctionLaunchParams
hipGraphInstantiateParams hipGraphNodeParams hipGraphicsResource hipHostNodeParams
hipIpcEventHandle_t hipIpcMemHandle_t hipKernelNodeAttrValue hipKernelNodeParams hipLaunchParams
hipMemAccessDesc hipMemAllocNodeParams hipMemAllocationProp hipMemLocation hipMemPoolProps
hipMemPoolPtrExportData hipMemcpy3DParms hipMemsetParams hipPitchedPtr hipPointerAttribute_t
hipResourceDesc hipTextureDesc hipUUID hip_Memcpy2D textureReference uint3""".split()


def hip_stub():
    out = ["#pragma once", "#include <stddef.h>", "#include <stdint.h>"]
    out += [f"typedef struct {n}_opaque* {n};" for n in HIP_HANDLES]
    out += [f"typedef int {n};" for n in HIP_SCALARS]
    out += [f"typedef enum {n} {{ {n}_placeholder = 0 }} {n};" for n in HIP_ENUMS]
    out += [f"typedef struct {n} {{ int placeholder; }} {n};" for n in HIP_STRUCTS]
    out.append("typedef void (*hipHostFn_t)(void*);")
    out.append("typedef void (*hipStreamCallback_t)(hipStream_t, hipError_t, void*);")
    return "\n".join(out) + "\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def prepare_amd_tree(amd_include, tmp):
    """Configured headers (version.h and friends) and the HIP stand-in, in `tmp`."""
    sdk = os.path.join(amd_include, "rocprofiler-sdk")
    with open(os.path.join(sdk, "version.h.in")) as f:
        text = f.read()
    for key, val in (("MAJOR", "1"), ("MINOR", "0"), ("PATCH", "0")):
        text = text.replace(f"@PROJECT_VERSION_{key}@", val)
    write(os.path.join(tmp, "rocprofiler-sdk/version.h"), re.sub(r"@\w+@", "", text))
    with open(os.path.join(sdk, "ext_version.h.in")) as f:
        text = f.read()
    text = re.sub(r"#cmakedefine (\w+) @\w+@", r"#define \1 0", text)
    write(os.path.join(tmp, "rocprofiler-sdk/ext_version.h"), re.sub(r"@\w+@", "0", text))
    roctx = os.path.join(amd_include, "rocprofiler-sdk-roctx", "version.h.in")
    if os.path.exists(roctx):
        with open(roctx) as f:
            write(os.path.join(tmp, "rocprofiler-sdk-roctx/version.h"),
                  re.sub(r"@\w+@", "0", f.read()))
    stub = hip_stub()
    for name in ("hip_runtime.h", "hip_runtime_api.h", "hip_deprecated.h", "hip_version.h",
                 "hip_fp16.h", "amd_detail/amd_hip_gl_interop.h", "amd_detail/hip_api_trace.hpp"):
        write(os.path.join(tmp, "hip", name), stub if name == "hip_runtime_api.h" else
              '#pragma once\n#include "' + "../" * name.count("/") + 'hip_runtime_api.h"\n')


def public_headers(*includes):
    """Every C header under <include>/rocprofiler-sdk of each include directory, as include paths."""
    found = []
    for include in includes:
        sdk = os.path.join(include, "rocprofiler-sdk")
        for root, _, files in os.walk(sdk):
            for name in files:
                if name.endswith(".h"):
                    found.append(os.path.relpath(os.path.join(root, name), include))
    # Copies of other projects' headers that AMD ships for its own build.
    skip = ("/details/", "ompt/omp-tools.h")
    return sorted(h for h in found if not any(s in h for s in skip))


class Tracker:
    """Clang's JSON dump names a location's file only when it changes; follow it."""

    def __init__(self):
        self.file = None

    def see(self, loc):
        if not isinstance(loc, dict):
            return
        if "spellingLoc" in loc:
            self.see(loc["spellingLoc"])
            self.see(loc.get("expansionLoc"))
            return
        if "file" in loc:
            self.file = loc["file"]

    def node(self, node):
        loc = node.get("loc", {})
        self.see(loc)
        where = self.file
        if "expansionLoc" in loc:
            where = self.file
        rng = node.get("range", {})
        self.see(rng.get("begin"))
        self.see(rng.get("end"))
        return where


def dump_ast(clang, include_dirs, headers, tmp):
    tu = os.path.join(tmp, "all_headers.cpp")
    write(tu, "".join(f"#include <{h}>\n" for h in headers))
    cmd = [clang, "-x", "c++", "-std=c++17", "-fsyntax-only", "-ferror-limit=0", "-Xclang",
           "-ast-dump=json"]
    cmd += [f"-I{d}" for d in include_dirs] + [tu]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if res.returncode != 0:
        sys.stderr.write(res.stderr[-4000:])
        raise SystemExit("clang could not parse the headers")
    return json.loads(res.stdout)


def find_decl_id(inner):
    """The record a typedef names directly (not one its function or pointer type mentions)."""
    node = inner[0] if inner else None
    while isinstance(node, dict):
        if node.get("kind") == "RecordType":
            return node.get("decl", {}).get("id")
        if node.get("kind") != "ElaboratedType":
            return None
        if "ownedTagDecl" in node:
            return node["ownedTagDecl"].get("id")
        node = (node.get("inner") or [None])[0]
    return None


def under_roots(path, roots):
    """`path` relative to the first of `roots` (a directory or a list) holding it, else None."""
    real = os.path.realpath(path)
    for root in [roots] if isinstance(roots, str) else roots:
        root = os.path.realpath(root)
        if real.startswith(root + os.sep):
            return os.path.relpath(real, root)
    return None


def collect(ast, roots):
    """Public declarations of files under the roots: {kind: {name: info}}."""
    tracker = Tracker()
    decls = collections.defaultdict(dict)
    records = {}  # id -> (fields, header)

    def header_of(path):
        if not path:
            return None
        return under_roots(path, roots)

    def record_fields(node, bitfields):
        fields = []
        for child in node.get("inner", []):
            tracker.node(child)
            if child.get("kind") == "FieldDecl" and child.get("name"):
                fields.append((child["name"], child.get("isBitfield", False)))
                if child.get("isBitfield"):
                    bitfields.add(child["name"])
            elif child.get("kind") == "IndirectFieldDecl":
                fields.append((child["name"], child["name"] in bitfields))
            elif child.get("kind") in ("RecordDecl", "CXXRecordDecl"):
                record_fields(child, bitfields)  # nested definitions: keep the tracker in step
        return fields

    def visit(nodes):
        for node in nodes:
            kind = node.get("kind")
            where = header_of(tracker.node(node))
            name = node.get("name", "")
            if kind == "LinkageSpecDecl":
                visit(node.get("inner", []))
                continue
            if kind in ("RecordDecl", "CXXRecordDecl"):
                if node.get("completeDefinition"):
                    fields = record_fields(node, set())
                    records[node["id"]] = fields
                    if where and PUBLIC.match(name):
                        decls["record"][name] = (where, fields)
                else:
                    for child in node.get("inner", []):
                        tracker.node(child)
                continue
            if kind == "EnumDecl":
                for child in node.get("inner", []):
                    cwhere = header_of(tracker.node(child))
                    cname = child.get("name", "")
                    if child.get("kind") == "EnumConstantDecl" and PUBLIC.match(cname) and cwhere:
                        decls["enumerator"][cname] = (cwhere, None)
                    walk_tracker(child.get("inner", []))
                if where and PUBLIC.match(name):
                    decls["enum"][name] = (where, None)
                continue
            walk_tracker(node.get("inner", []))
            if not where or not PUBLIC.match(name):
                continue
            if kind == "FunctionDecl":
                decls["function"][name] = (where, node["type"]["qualType"])
            elif kind == "TypedefDecl":
                rid = find_decl_id(node.get("inner", []))
                underlying = node["type"]["qualType"]
                if rid in records and name not in decls["record"]:
                    decls["record"][name] = (where, records[rid])
                decls["typedef"][name] = (where, underlying)

    def walk_tracker(nodes):
        for node in nodes:
            if isinstance(node, dict):
                tracker.node(node)
                walk_tracker(node.get("inner", []))

    visit(ast.get("inner", []))
    return decls


def collect_macros(clang, include_dirs, headers, roots, tmp):
    tu = os.path.join(tmp, "all_headers.cpp")
    cmd = [clang, "-x", "c++", "-std=c++17", "-E", "-dD"] + [f"-I{d}" for d in include_dirs]
    res = subprocess.run(cmd + [tu], stdout=subprocess.PIPE, text=True, check=True)
    current = None
    found = {}
    for line in res.stdout.splitlines():
        marker = re.match(r'^# \d+ "([^"]+)"', line)
        if marker:
            current = under_roots(marker.group(1), roots)
            continue
        m = re.match(r"^#define (\w+)", line)
        if m and PUBLIC.match(m.group(1)) and current:
            found.setdefault(m.group(1), current)
    return found


def measure(cxx, include_dirs, headers, decls, tmp):
    """Compile and run a program against the headers: enumerator values and record layouts."""
    lines = ["#include <cstddef>", "#include <cstdio>"]
    lines += [f"#include <{h}>" for h in headers]
    lines.append("int main() {")
    for name in sorted(decls["enumerator"]):
        lines.append(f'  std::printf("enumerator {name} %lld\\n", (long long) {name});')
    for name, (header, fields) in sorted(decls["record"].items()):
        lines.append(f'  std::printf("record {name} %zu %zu\\n", sizeof({name}), alignof({name}));')
        for field, bitfield in fields:
            if bitfield:
                lines.append(f'  std::printf("field {name}.{field} -1 -1\\n");')
            else:
                lines.append(f'  std::printf("field {name}.{field} %zu %zu\\n", '
                             f"offsetof({name}, {field}), sizeof((({name}*)nullptr)->{field}));")
    lines.append("  return 0;\n}")
    src = os.path.join(tmp, "measure.cpp")
    exe = os.path.join(tmp, "measure")
    write(src, "\n".join(lines) + "\n")
    subprocess.run([cxx, "-std=c++17", "-w", "-o", exe, src] + [f"-I{d}" for d in include_dirs],
                   check=True)
    res = subprocess.run([exe], stdout=subprocess.PIPE, text=True, check=True)
    values = {}
    for line in res.stdout.splitlines():
        parts = line.split()
        values[(parts[0], parts[1])] = parts[2:]
    return values


def unlaid(header, name):
    """Records whose layout depends on the HIP stand-in: names only."""
    return header.startswith("rocprofiler-sdk/hip/") or "rocprofiler-sdk/rccl/" in header or (
        name in ("rocprofiler_callback_tracing_hip_api_data_t",))


def generate(args):
    with tempfile.TemporaryDirectory() as tmp:
        prepare_amd_tree(args.amd_include, tmp)
        include_dirs = [tmp, args.amd_include] + args.extra_include
        headers = public_headers(args.amd_include)
        ast = dump_ast(args.clang, include_dirs, headers, tmp)
        decls = collect(ast, args.amd_include)
        macros = collect_macros(args.clang, include_dirs, headers, args.amd_include, tmp)
        macros.update({k: v for k, v in collect_macros(args.clang, include_dirs, headers, tmp,
                                                       tmp).items()})
        values = measure(args.cxx, include_dirs, headers, decls, tmp)
    out = [f"# AMD rocprofiler-sdk public identifiers ({args.source}); "
           "generated by scripts/amd-api-list.py generate"]
    for name, (header, sig) in sorted(decls["function"].items()):
        out.append(f"function\t{name}\t{header}\t{sig}")
    for name, (header, _) in sorted(decls["enumerator"].items()):
        out.append(f"enumerator\t{name}\t{header}\t{values[('enumerator', name)][0]}")
    for name, (header, fields) in sorted(decls["record"].items()):
        if unlaid(header, name):
            out.append(f"record\t{name}\t{header}\t-1\t-1")
            continue
        size, align = values[("record", name)]
        out.append(f"record\t{name}\t{header}\t{size}\t{align}")
        for field, _ in fields:
            off, fsize = values[("field", f"{name}.{field}")]
            out.append(f"field\t{name}.{field}\t{header}\t{off}\t{fsize}")
    for name, (header, underlying) in sorted(decls["typedef"].items()):
        if name in decls["record"]:
            continue
        out.append(f"typedef\t{name}\t{header}\t{underlying}")
    for name, (header, _) in sorted(decls["enum"].items()):
        if name not in decls["typedef"]:
            out.append(f"typedef\t{name}\t{header}\tenum {name}")
    for name, header in sorted(macros.items()):
        out.append(f"macro\t{name}\t{header}")
    write(args.out, "\n".join(out) + "\n")
    print(f"{len(out) - 1} lines written to {args.out}")


def read_list(path):
    items = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            items.append(line.rstrip("\n").split("\t"))
    return items


def pointer_type(sig, name):
    """`R (A, B)` -> `R (*name)(A, B)`: the parameter list is the last top-level parentheses."""
    depth = 0
    for i in range(len(sig) - 1, -1, -1):
        if sig[i] == ")":
            depth += 1
        elif sig[i] == "(":
            depth -= 1
            if depth == 0:
                return f"{sig[:i].rstrip()} (*{name}){sig[i:]}"
    raise ValueError(sig)


def check(args):
    items = read_list(args.list)
    known = set()
    if args.known_differences:
        with open(args.known_differences) as f:
            known = {line.split("#")[0].strip() for line in f} - {""}
    with tempfile.TemporaryDirectory() as tmp:
        headers = public_headers(*args.include)
        ast = dump_ast(args.clang, args.include, headers, tmp)
        ours = collect(ast, args.include)
        macros = collect_macros(args.clang, args.include, headers, args.include, tmp)
        our_names = {
            "function": set(ours["function"]),
            "enumerator": set(ours["enumerator"]),
            "record": set(ours["record"]),
            "typedef": set(ours["typedef"]) | set(ours["record"]) | set(ours["enum"]),
            "macro": set(macros),
        }
        counts = collections.Counter()
        totals = collections.Counter()
        missing = collections.defaultdict(list)
        cxx_checks, c_checks = [], []
        present_records = set()
        for item in items:
            kind, name, header = item[0], item[1], item[2]
            if kind == "field":
                record, field = name.split(".", 1)
                if record not in present_records:
                    continue
                off, fsize = int(item[3]), int(item[4])
                totals["field"] += 1
                our_fields = dict(ours["record"][record][1])
                if field not in our_fields:
                    missing[header].append(f"{name} (field)")
                    continue
                counts["field"] += 1
                if off >= 0 and name not in known and record not in known:
                    for out, sa, null in ((cxx_checks, "static_assert", "nullptr"),
                                          (c_checks, "_Static_assert", "(void*)0")):
                        out.append(f'{sa}(offsetof({record}, {field}) == {off}, "{name} offset");')
                        out.append(f"{sa}(sizeof((({record}*){null})->{field}) == {fsize}, "
                                   f'"{name} size");')
                continue
            totals[kind] += 1
            if name not in our_names[kind]:
                missing[header].append(f"{name} ({kind})")
                continue
            counts[kind] += 1
            if name in known:
                continue
            if kind == "function":
                cxx_checks.append(f"static_assert(std::is_same<decltype({name}), {item[3]}>::value,"
                                  f' "{name} type");')
                if name in TOOL_DEFINED:
                    continue
                cxx_checks.append(f"void* const addr_{name} = reinterpret_cast<void*>(&{name});")
                c_checks.append(pointer_type(item[3], f"const c_addr_{name}") + f" = &{name};")
            elif kind == "enumerator":
                for out, sa in ((cxx_checks, "static_assert"), (c_checks, "_Static_assert")):
                    out.append(f'{sa}((long long) {name} == {item[3]}LL, "{name} value");')
            elif kind == "record":
                present_records.add(name)
                if int(item[3]) >= 0:
                    for out, sa, al in ((cxx_checks, "static_assert", "alignof"),
                                        (c_checks, "_Static_assert", "_Alignof")):
                        out.append(f'{sa}(sizeof({name}) == {item[3]}, "{name} size");')
                        out.append(f'{sa}({al}({name}) == {item[4]}, "{name} alignment");')
        includes = "".join(f"#include <{h}>\n" for h in headers)
        cxx = os.path.join(tmp, "conformance.cpp")
        csrc = os.path.join(tmp, "conformance_c.c")
        write(cxx, "#include <cstddef>\n#include <type_traits>\n" + includes + "\n".join(cxx_checks)
              + "\nint main() { return 0; }\n")
        write(csrc, "#include <stddef.h>\n" + includes + "\n".join(c_checks) +
              "\nint conformance_c_unit(void) { return 0; }\n")
        failed = False
        inc = [f"-I{d}" for d in args.include]
        for cmd in ([args.cxx, "-std=c++17", "-c", cxx, "-o", cxx + ".o"] + inc,
                    [args.cc, "-std=c11", "-Werror=incompatible-pointer-types", "-c", csrc, "-o",
                     csrc + ".o"] + inc,
                    [args.cxx, cxx + ".o", csrc + ".o", "-o", os.path.join(tmp, "conformance"),
                     args.library, f"-Wl,-rpath,{os.path.dirname(os.path.abspath(args.library))}"]):
            res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if res.returncode != 0:
                print(res.stdout[-8000:])
                failed = True
                break
        if not failed:
            failed = subprocess.run([os.path.join(tmp, "conformance")]).returncode != 0
    if args.missing:
        for header in sorted(missing):
            print(f"{header}: {len(missing[header])} absent")
            for entry in missing[header]:
                print(f"    {entry}")
    present = sum(v for k, v in counts.items() if k != "field")
    total = sum(v for k, v in totals.items() if k != "field")
    for kind in ("function", "enumerator", "record", "field", "typedef", "macro"):
        print(f"{kind:10} {counts[kind]:5}/{totals[kind]}")
    print(f"AMD identifiers present: {present}/{total} ({len(known)} of them known to differ)")
    if failed:
        print("FAILED: a present identifier differs from AMD's (see the compiler's message)")
        return 1
    if present < args.min_present:
        print(f"FAILED: fewer than {args.min_present} present")
        return 1
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="mode", required=True)
    gen = sub.add_parser("generate")
    gen.add_argument("--amd-include", required=True, help="AMD's source/include directory")
    gen.add_argument("--extra-include", action="append", default=[],
                     help="a directory holding hsa/ and hsakmt/ (ROCr's headers)")
    gen.add_argument("--source", required=True, help="where the headers came from (repo@commit)")
    gen.add_argument("--out", required=True)
    gen.add_argument("--clang", default="clang++")
    gen.add_argument("--cxx", default="clang++")
    chk = sub.add_parser("check")
    chk.add_argument("--list", required=True)
    chk.add_argument("--include", required=True, action="append",
                     help="our source/include directory; again for the build's configured headers")
    chk.add_argument("--library", required=True, help="our librocprofiler-sdk.so")
    chk.add_argument("--clang", default="clang++")
    chk.add_argument("--cxx", default="c++")
    chk.add_argument("--cc", default="cc")
    chk.add_argument("--min-present", type=int, default=0)
    chk.add_argument("--missing", action="store_true", help="list the absent identifiers")
    chk.add_argument("--known-differences", help="identifiers present but not yet AMD's")
    args = parser.parse_args()
    return generate(args) if args.mode == "generate" else check(args)


if __name__ == "__main__":
    sys.exit(main())
