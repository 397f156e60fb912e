#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Frames of the protocols tests/rules/declared.rules declares (docs/rules.md,
"Protocols declared at runtime"), and what its rules must count.

Usage: declared.py OUT.pcap OUT.counts

Writes the frames, and OUT.counts: one line "RULE_ID PACKETS" per rule of
declared.rules, the packets each must have counted in one pass through one
hook, derived from how each frame is built here. Addresses from
198.18.0.0/15 and 2001:db8::/32."""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pcapfile import write_pcap  # noqa: E402

MAC = bytes([2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1])


def eth(etype, payload):
    return MAC + struct.pack('>H', etype) + payload


def ip4(proto, payload):
    return struct.pack('>BBHHHBBH4s4s', 0x45, 0, 20 + len(payload), 1, 0, 64, proto, 0,
                       bytes([198, 18, 0, 1]), bytes([198, 18, 0, 2])) + payload


def ip6(nh, payload):
    a = bytes([0x20, 0x01, 0x0d, 0xb8] + [0] * 11 + [1])
    return struct.pack('>IHBB', 0x60000000, len(payload), nh, 64) + a + a + payload


def udp(dport, payload):
    return struct.pack('>HHHH', 40000, dport, 8 + len(payload), 0) + payload


def tcp(dport, payload):
    return struct.pack('>HHIIBBHHH', 40000, dport, 1, 0, 0x50, 0x18, 65535, 0, 0) + payload


def vxlan(inner):
    return struct.pack('>BBHI', 0x08, 0, 0, 42 << 8) + inner


def acme_tlv(t, data):
    """acme's TLVs: type(1) length(1), the length counting the header."""
    return bytes([t, 2 + len(data)]) + data


ACME_HDR = bytes(range(1, 9))
MATCH = acme_tlv(5, b'\x01\x02\x03')        # TLV 5, data 01 02: rule 1
OTHER = acme_tlv(5, b'\x01\x03')             # TLV 5, other data
PAD = b'\x00'


def main(out, counts_path):
    frames = []
    counts = {1: 0, 2: 0, 3: 0, 4: 0, 5: 0}

    def add(frame, *rules):
        frames.append(frame)
        for r in rules:
            counts[r] += 1

    # acme behind UDP 7777: IPv4, IPv6, tunnelled (any stack's TLVs match).
    add(eth(0x0800, ip4(17, udp(7777, ACME_HDR + MATCH + PAD + acme_tlv(9, b'xy')))), 1)
    add(eth(0x86dd, ip6(17, udp(7777, ACME_HDR + PAD + MATCH))), 1)
    add(eth(0x0800, ip4(17, udp(7777, ACME_HDR + OTHER))))
    inner = eth(0x0800, ip4(17, udp(7777, ACME_HDR + MATCH)))
    add(eth(0x0800, ip4(17, udp(4789, vxlan(inner)))), 1)
    # Not acme: another port; acme's fixed part cut short; a TLV past the
    # datagram after the matching one (tlv_len: the ones before it count).
    add(eth(0x0800, ip4(17, udp(7778, ACME_HDR + MATCH))))
    add(eth(0x0800, ip4(17, udp(7777, ACME_HDR[:5]))))
    add(eth(0x0800, ip4(17, udp(7777, ACME_HDR + MATCH + bytes([7, 9, 1])))), 1)
    # Many TLVs: the one that matches last, past the first fragment of a
    # multi-buffer frame whatever its split, and past 40 kept TLVs: not kept,
    # not matched (docs/parsing.md: the first 40 of a family are listed).
    add(eth(0x0800, ip4(17, udp(7777, ACME_HDR + acme_tlv(1, b'f' * 30) * 30 + MATCH))), 1)
    add(eth(0x0800, ip4(17, udp(7777, ACME_HDR + PAD * 40 + MATCH))))
    # geneve2 (UDP 6082): a header length in 4-byte words, Geneve's option encoding.
    opt = struct.pack('>HBB', 0x0102, 0x80, 1) + b'\x00\x00\x00\x07'
    g2 = bytes([len(opt) // 4, 0]) + struct.pack('>H', 0x6558) + b'\x00\x00\x2a\x00'
    add(eth(0x0800, ip4(17, udp(6082, g2 + opt + b'payload after the header'))), 2)
    add(eth(0x0800, ip4(17, udp(6082, bytes([0x3f]) + g2[1:] + opt))))  # length past it
    # tproto behind TCP 9000: u16 types, u16 lengths of the data only.
    tl = struct.pack('>HH', 0x1234, 2) + b'ok'
    add(eth(0x0800, ip4(6, tcp(9000, b'TP' + tl))), 3)
    add(eth(0x86dd, ip6(6, tcp(9000, b'TP' + struct.pack('>HH', 0x1235, 0)))))
    # eproto behind ethertype 0x88b5, after a VLAN tag too.
    el = bytes([0x10, 3, 0xaa])
    add(eth(0x88b5, b'\x00\x01' + el), 4)
    add(eth(0x8100, struct.pack('>HH', 100, 0x88b5) + b'\x00\x01' + el), 4)
    # pproto behind IP protocol 253, behind IPv4 and IPv6.
    pl = bytes([0x21, 4, 0xde, 0xad])
    add(eth(0x0800, ip4(253, b'\x00' * 4 + pl)), 5)
    add(eth(0x86dd, ip6(253, b'\x00' * 4 + pl)), 5)
    add(eth(0x86dd, ip6(253, b'\x00' * 3)))
    write_pcap(out, frames)
    with open(counts_path, 'w') as f:
        for r in sorted(counts):
            f.write(f'{r} {counts[r]}\n')


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
