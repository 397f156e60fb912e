#!/usr/bin/env python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Frames in and out of libFuzzer corpora (one file per input).

  fuzz_corpus.py frames DIR CAPTURE...  every frame of the captures, a file each
  fuzz_corpus.py pcap OUT.pcap DIR...   every file of the dirs, a frame each
                                         (Ethernet), in name order; a line per
                                         frame on stdout: "N FILE"
"""
import os
import struct
import sys


def read_pcap(path):
    with open(path, 'rb') as f:
        d = f.read()
    magic = d[:4]
    if magic == b'\xd4\xc3\xb2\xa1' or magic == b'\x4d\x3c\xb2\xa1':
        e = '<'
    elif magic == b'\xa1\xb2\xc3\xd4' or magic == b'\xa1\xb2\x3c\x4d':
        e = '>'
    else:
        sys.exit(f'{path}: not a pcap capture (pcapng is not read here)')
    off = 24
    while off + 16 <= len(d):
        _, _, incl, _ = struct.unpack(e + 'IIII', d[off:off + 16])
        off += 16
        yield d[off:off + incl]
        off += incl


def frames(out, caps):
    os.makedirs(out, exist_ok=True)
    n = 0
    for c in caps:
        base = os.path.basename(c).rsplit('.', 1)[0]
        for i, fr in enumerate(read_pcap(c), 1):
            with open(os.path.join(out, f'{base}-{i}'), 'wb') as f:
                f.write(fr)
            n += 1
    print(f'{n} frames from {len(caps)} captures in {out}')


def pcap(out, dirs):
    files = sorted(os.path.join(d, n) for d in dirs if os.path.isdir(d) for n in os.listdir(d))
    with open(out, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        n = 0
        for p in files:
            with open(p, 'rb') as g:
                fr = g.read(65535)
            if not fr:
                continue  # a capture cannot hold an empty frame
            n += 1
            f.write(struct.pack('<IIII', n, 0, len(fr), len(fr)) + fr)
            print(n, p)


if __name__ == '__main__':
    if len(sys.argv) < 4 or sys.argv[1] not in ('frames', 'pcap'):
        sys.exit(__doc__)
    (frames if sys.argv[1] == 'frames' else pcap)(sys.argv[2], sys.argv[3:])
