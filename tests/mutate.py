#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Hostile frames for the differential test: every packet of the given
captures mutated --count times (random bytes overwritten in the first 256
bytes, where the headers are, and random truncation), with a fixed seed so a
failure is reproducible. BPF and native must agree on every one of them.

--lengths N adds N targeted mutations of each packet, after its random ones
and from a random stream of their own (the random mutations stay the same):
one or two of its length fields (found by a walk of the headers here, not by
dynpf) lowered or raised by a random amount, or set to 0 or their largest
value, so that length fields end the datagram early or late: IPv4 IHL and
total length, IPv6 payload length, extension header lengths and the Jumbo
Payload value, UDP length, TCP data offset, the GRE flags that size its
header (C, K, S) and its version, the Geneve option length, the GTP-U Length
and its extension header lengths. tests/check_bounds.py checks that no `ok`
parse of them reaches past a length."""
import random
import struct

from truncate import tool

ETH_IPV4, ETH_IPV6, ETH_TEB = 0x0800, 0x86dd, 0x6558
ETH_VLANS, ETH_MPLS = (0x8100, 0x88a8), (0x8847, 0x8848)
GRE_C, GRE_K, GRE_S = 0x8000, 0x2000, 0x1000


def mutate(rng, frame):
    b = bytearray(frame)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(0, min(len(b), 256))
        # Favour values that matter to parsers: lengths, kinds, versions.
        b[i] = rng.choice([0, 1, 2, 3, 4, 5, 8, 0x40, 0x45, 0x4f, 0x60, 0x81, 0xff,
                           rng.randrange(256)])
    if rng.random() < 0.3:
        b = b[:rng.randint(14, len(b))]
    return bytes(b)


class Fields:
    """The length fields of one frame: (name, off, nbytes, shift, bits), the
    field being bits wide, shift bits up from the bottom of the nbytes
    big-endian bytes at off."""

    def __init__(self, b):
        self.b = b
        self.found = []

    def add(self, name, off, nbytes, shift=0, bits=None):
        if off + nbytes <= len(self.b):
            self.found.append((name, off, nbytes, shift, bits or nbytes * 8))

    def u8(self, off):
        return self.b[off]

    def u16(self, off):
        return struct.unpack_from('!H', self.b, off)[0]


def walk_eth(f, off, depth):
    et = f.u16(off + 12)
    off += 14
    while et in ETH_VLANS:
        et = f.u16(off + 2)
        off += 4
    walk_l3(f, off, et, depth)


def walk_l3(f, off, et, depth):
    if depth > 3:
        return  # dynpf parses two stacks; a few more are plenty here
    if et in ETH_MPLS:
        while not f.u8(off + 2) & 1:
            off += 4
        off += 4
        et = {4: ETH_IPV4, 6: ETH_IPV6}.get(f.u8(off) >> 4)
    if et == ETH_IPV4:
        f.add('ipv4 ihl', off, 1, 0, 4)
        f.add('ipv4 tot_len', off + 2, 2)
        if f.u16(off + 6) & 0x1fff or f.u8(off) & 0xf < 5:
            return  # a non-first fragment, or no room for the header
        walk_l4(f, off + (f.u8(off) & 0xf) * 4, f.u8(off + 9), depth)
    elif et == ETH_IPV6:
        f.add('ipv6 payload_len', off + 4, 2)
        walk_l4(f, off + 40, f.u8(off + 6), depth)
    elif et == ETH_TEB:
        walk_eth(f, off, depth)


def walk_opts(f, off, end):
    """IPv6 options from off to end: the Jumbo Payload value."""
    while off + 2 <= end:
        t = f.u8(off)
        if t == 0:
            off += 1
            continue
        if t == 0xc2:
            f.add('jumbo', off + 2, 4)
        off += 2 + f.u8(off + 1)


def walk_l4(f, off, proto, depth):
    if proto in (0, 43, 60):  # hop-by-hop, routing, destination options
        f.add('ipv6 ext len', off + 1, 1)
        end = off + (f.u8(off + 1) + 1) * 8
        if proto == 0:
            walk_opts(f, off + 2, end)
        walk_l4(f, end, f.u8(off), depth)
    elif proto == 44:  # fragment
        if not f.u16(off + 2) & 0xfff8:
            walk_l4(f, off + 8, f.u8(off), depth)
    elif proto == 51:  # AH
        f.add('ah len', off + 1, 1)
        walk_l4(f, off + (f.u8(off + 1) + 2) * 4, f.u8(off), depth)
    elif proto == 6:
        f.add('tcp data offset', off + 12, 1, 4, 4)
    elif proto == 17:
        f.add('udp ulen', off + 4, 2)
        walk_udp(f, off + 8, f.u16(off + 2), depth)
    elif proto == 47:
        f.add('gre flags', off, 2)
        flags = f.u16(off)
        n = 4 + 4 * sum(bool(flags & x) for x in (GRE_C, GRE_K, GRE_S))
        if not flags & 7:
            walk_l3(f, off + n, f.u16(off + 2), depth + 1)
    elif proto == 4:
        walk_l3(f, off, ETH_IPV4, depth + 1)
    elif proto == 41:
        walk_l3(f, off, ETH_IPV6, depth + 1)


def walk_udp(f, off, dport, depth):
    if dport == 4789:  # VXLAN
        walk_eth(f, off + 8, depth + 1)
    elif dport == 6081:  # Geneve
        f.add('geneve opt len', off, 1, 0, 6)
        walk_l3(f, off + 8 + (f.u8(off) & 0x3f) * 4, f.u16(off + 2), depth + 1)
    elif dport == 2152:  # GTP-U
        f.add('gtpu length', off + 2, 2)
        flags, n = f.u8(off), 8
        if flags & 7:
            n, nxt = 12, f.u8(off + 11) if flags & 4 else 0
            while nxt:
                f.add('gtpu ext len', off + n, 1)
                if not f.u8(off + n):
                    return
                n += f.u8(off + n) * 4
                nxt = f.u8(off + n - 1)
        if f.u8(off + 1) == 255:
            walk_l3(f, off + n, {4: ETH_IPV4, 6: ETH_IPV6}.get(f.u8(off + n) >> 4), depth + 1)


def length_fields(frame):
    """The length fields of frame, outermost first, as far as its bytes go."""
    f = Fields(frame)
    try:
        walk_eth(f, 0, 0)
    except (IndexError, struct.error):
        pass  # the frame ends here
    return f.found


def new_value(rng, name, v, bits):
    top = (1 << bits) - 1
    if name == 'gre flags':
        # C, K or S added or taken away (4 bytes of header each), or another version.
        if rng.random() < 0.75:
            return v ^ rng.choice([GRE_C, GRE_K, GRE_S])
        return (v & ~7) | rng.randint(0, 7)
    r = rng.random()
    if r < 0.6 and v > 0:
        return v - rng.randint(1, v)
    if r < 0.9 and v < top:
        return v + rng.randint(1, min(top - v, 256))
    return rng.choice([0, top])


def mutate_lengths(rng, frame, fields):
    b = bytearray(frame)
    picked = rng.sample(fields, min(len(fields), rng.choice([1, 1, 2])))
    for name, off, nbytes, shift, bits in picked:
        word = int.from_bytes(b[off:off + nbytes], 'big')
        mask = ((1 << bits) - 1) << shift
        v = new_value(rng, name, (word & mask) >> shift, bits)
        word = (word & ~mask) | ((v << shift) & mask)
        b[off:off + nbytes] = word.to_bytes(nbytes, 'big')
    return bytes(b)


def mutations(a, inputs):
    rng = random.Random(a.seed)
    lrng = random.Random(a.seed + 1)
    for frame in inputs:
        if len(frame) < 14:
            continue
        for _ in range(a.count):
            yield mutate(rng, frame)
        fields = length_fields(frame) if a.lengths else []
        for _ in range(a.lengths if fields else 0):
            yield mutate_lengths(lrng, frame, fields)


def main():
    tool(__doc__, [('--count', 20), ('--lengths', 0), ('--seed', 20261203)], mutations)


if __name__ == '__main__':
    main()
