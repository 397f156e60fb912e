# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Classic pcap files, read and written with the standard library alone: the
captures the truncation and mutation tests and the fuzz corpus are made of."""
import struct
import sys


def read_pcap(path):
    with open(path, 'rb') as f:
        data = f.read()
    magic = struct.unpack('<I', data[:4])[0]
    if magic in (0xa1b2c3d4, 0xa1b23c4d):
        endian = '<'
    elif magic in (0xd4c3b2a1, 0x4d3cb2a1):
        endian = '>'
    else:
        sys.exit(f'{path}: not a classic pcap file')
    off = 24
    while off + 16 <= len(data):
        _, _, caplen, _ = struct.unpack(endian + 'IIII', data[off:off + 16])
        off += 16
        yield data[off:off + caplen]
        off += caplen


def write_pcap(path, frames):
    """Every frame into a classic Ethernet pcap, a microsecond apart; how many."""
    n = 0
    with open(path, 'wb') as out:
        # snaplen: libpcap's largest (a jumbogram's frame is over 65535 bytes)
        out.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 262144, 1))
        for frame in frames:
            out.write(struct.pack('<IIII', n // 1000000, n % 1000000, len(frame), len(frame)))
            out.write(frame)
            n += 1
    return n
