#!/usr/bin/env python3
"""The instruction mix of each kernel's hottest loops in a cubin (static counts of its SASS).

Where no GPU is at hand, the device assembler's code still tells where an entry's instructions go:
a loop's fused multiply-adds against its address arithmetic, shared and global loads, loads from
the stack (spills), special-register reads. Each loop is a backward branch of the disassembly; the
loops with the most FFMA/HMMA/HGMMA instructions are listed first.

    nvcc -cubin -O3 -arch=sm_90 -DCULIFT_ONLY_ENTRIES -DCULIFT_ENTRY_GemmCell_tiled128 blas.cu -o g.cubin
    scripts/sass-loops.py g.cubin [--kernel REGEX] [--loops N] [--nvdisasm PATH] [--old-nvdisasm]

`--old-nvdisasm`: the cubin's ELF header rewritten to the older layout first (machine code of CUDA
13's compilers for an nvdisasm of CUDA 11.8 or 12: the instructions are the same, the header's
flags and ABI version moved), for a development machine whose only disassembler is an older one.
"""
import argparse
import collections
import os
import re
import struct
import subprocess
import sys
import tempfile

WORK = ("FFMA", "HMMA", "HGMMA", "DFMA", "IMMA")


def disassemble(cubin, nvdisasm, old):
    path = cubin
    if old:
        data = bytearray(open(cubin, "rb").read())
        if data[:4] != b"\x7fELF":
            sys.exit(f"{cubin}: not an ELF file")
        flags = struct.unpack_from("<I", data, 48)[0]
        sm = (flags >> 8) & 0xFF  # the new layout: the architecture in bits 8-15
        data[7], data[8] = 33, 7  # OS/ABI and ABI version of the older layout
        struct.pack_into("<I", data, 48, sm | 0x500 | (sm << 16))  # sm, 64-bit addresses, virtual sm
        handle, path = tempfile.mkstemp(suffix=".cubin")
        os.write(handle, bytes(data))
        os.close(handle)
    try:
        done = subprocess.run([nvdisasm, "-c", path], capture_output=True, text=True)
    finally:
        if old:
            os.unlink(path)
    if done.returncode != 0:
        sys.exit(f"{nvdisasm}: {done.stderr.strip()}")
    return done.stdout


def functions(text):
    """Per function: its instructions in order and its labels' positions."""
    out = collections.OrderedDict()
    current = None
    for line in text.splitlines():
        m = re.match(r"^(\S+):$", line)
        if m and not m.group(1).startswith("."):
            current = m.group(1)
            out[current] = ([], {})
            continue
        if current is None:
            continue
        code, labels = out[current]
        m = re.match(r"^(\.L_x_\d+):", line)
        if m:
            labels[m.group(1)] = len(code)
            continue
        m = re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;", line)
        if m:
            code.append(m.group(1))
    return out


def opcode(instruction):
    body = re.sub(r"^@!?U?P[T0-9]+\s+", "", instruction)
    return body.split()[0].split(".")[0] if body else ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cubin")
    parser.add_argument("--kernel", default=".", help="functions whose name matches this regular expression")
    parser.add_argument("--loops", type=int, default=2, help="loops listed per function")
    parser.add_argument("--nvdisasm", default="nvdisasm")
    parser.add_argument("--old-nvdisasm", action="store_true", help="rewrite the ELF header for an older nvdisasm")
    args = parser.parse_args()
    pattern = re.compile(args.kernel)
    for name, (code, labels) in functions(disassemble(args.cubin, args.nvdisasm, args.old_nvdisasm)).items():
        if not pattern.search(name):
            continue
        total = collections.Counter(opcode(i) for i in code)
        print(f"{name}: {len(code)} instructions, " + ", ".join(f"{w} {total[w]}" for w in WORK if total[w]))
        loops = []
        for end, instruction in enumerate(code):
            m = re.search(r"BRA\s+(?:`\()?(\.L_x_\d+)", instruction)
            if m and labels.get(m.group(1), end + 1) <= end:
                start = labels[m.group(1)]
                mix = collections.Counter(opcode(i) for i in code[start : end + 1])
                loops.append((sum(mix[w] for w in WORK), start, end, mix))
        for work, start, end, mix in sorted(loops, key=lambda x: (-x[0], x[1]))[: args.loops]:
            n = end - start + 1
            top = ", ".join(f"{k} {v}" for k, v in mix.most_common(12))
            print(f"  loop [{start}, {end}]: {n} instructions, {100 * work // max(n, 1)} % of them products: {top}")


if __name__ == "__main__":
    main()
