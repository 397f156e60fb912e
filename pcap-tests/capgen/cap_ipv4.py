# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""The captures fragments, ipv4_options and ipv4_ext."""
import random
import socket
import struct

from scapy.layers.inet import ICMP, IP, TCP, UDP
from scapy.layers.inet6 import IPv6ExtHdrFragment
from scapy.packet import Raw

from .common import (ACK, C4, C6, ETH_IPV4, MAC, PSH, R4, S4, S6, SYN, as_raw, payload, raw_hdr,
                     rbytes, rnd32)
from .capture import Capture
from .l2 import eth, eth_v4, eth_v6
from .ipv4 import RA4, RR4, TS4, ipv4
from .ipv6 import ah, esp, frag6, ipv6
from .l4 import EOL, MSS, NOP, OPT, TS, WS, icmp, tcp, ts_opts, udp
from .tunnels import I4A, I4B, VXLAN_PORT, inner, vxlan


# ---------------------------------------------------------------------------
# fragments


def cap_fragments():
    c = Capture("fragments", "IPv4 fragments")
    seq, ts = rnd32(), rnd32()
    tcph = tcp(43000, 80, seq, rnd32(), PSH | ACK, 502,
               [NOP, NOP, TS(ts, 1)])
    data = rbytes(4000)
    # an unfragmented TCP segment whose bytes the fragments carry
    whole = bytes(IP(src=C4, dst=S4, proto=6, id=0x4001) / tcph.pkt /
                  Raw(load=data))[20:]
    # fragment payload sizes: 1480, 1480, rest
    fr = [whole[0:1480], whole[1480:2960], whole[2960:]]
    c.add("IPv4 first fragment (MF, offset 0): TCP parsed",
          eth_v4(), ipv4(C4, S4, 6, ident=0x4001, mf=True),
          as_raw(tcph, fr[0][:tcph.hlen]), payload(fr[0][tcph.hlen:]))
    c.add("IPv4 middle fragment (MF, offset 185): no L4",
          eth_v4(), ipv4(C4, S4, 6, ident=0x4001, mf=True, frag=185),
          payload(fr[1]))
    c.add("IPv4 last fragment (offset 370): no L4",
          eth_v4(), ipv4(C4, S4, 6, ident=0x4001, frag=370), payload(fr[2]))
    fake = bytes(IP(src=C4, dst=S4) /
                 TCP(sport=43001, dport=22, flags=SYN, seq=1,
                     options=[("MSS", 1460)]))[20:]
    c.add("IPv4 middle fragment whose payload is a valid TCP SYN header: "
          "no L4", eth_v4(),
          ipv4(C4, S4, 6, ident=0x4002, mf=True, frag=3), payload(fake * 4))
    c.add("IPv4 last fragment at offset 1 (8 bytes) with TCP-looking bytes",
          eth_v4(), ipv4(C4, S4, 6, ident=0x4002, frag=1), payload(fake))
    udata = rbytes(2992)
    uwhole = bytes(IP(src=C4, dst=S4, proto=17, id=0x4003) /
                   UDP(sport=44000, dport=9) / Raw(load=udata))[20:]
    c.add("IPv4/UDP first fragment, UDP length 3000 > fragment: not an error",
          eth_v4(), ipv4(C4, S4, 17, ident=0x4003, mf=True),
          as_raw(udp(44000, 9, ulen=3000), uwhole[:8]),
          payload(uwhole[8:1480]))
    c.add("IPv4/UDP middle fragment", eth_v4(),
          ipv4(C4, S4, 17, ident=0x4003, mf=True, frag=185),
          payload(uwhole[1480:2960]))
    c.add("IPv4/UDP last fragment", eth_v4(),
          ipv4(C4, S4, 17, ident=0x4003, frag=370), payload(uwhole[2960:]))
    c.add("IPv4/UDP first fragment with UDP length 0xffff (a 64K datagram)",
          eth_v4(), ipv4(C4, S4, 17, ident=0x4004, mf=True),
          udp(44001, 9999, ulen=0xFFFF), payload(rbytes(64)))
    c.add("IPv4/UDP first fragment with UDP length 4 (< 8): bad_len even "
          "in a fragment", eth_v4(),
          ipv4(C4, S4, 17, ident=0x4005, mf=True),
          udp(44002, 9999, ulen=4), payload(rbytes(64)), err=("bad_len", 2))
    idata = bytes(range(256)) * 8
    iwhole = bytes(IP(src=C4, dst=S4, proto=1, id=0x4006) /
                   ICMP(type=8, id=0x99, seq=3) / Raw(load=idata))[20:]
    c.add("IPv4/ICMP echo first fragment (ping -s 2048)", eth_v4(),
          ipv4(C4, S4, 1, ident=0x4006, mf=True),
          as_raw(icmp(8, 0, 0x99, 3), iwhole[:8]), payload(iwhole[8:1480]))
    c.add("IPv4/ICMP echo last fragment", eth_v4(),
          ipv4(C4, S4, 1, ident=0x4006, frag=185), payload(iwhole[1480:]))
    c.add("IPv4 DF set (not a fragment)/TCP", eth_v4(),
          ipv4(C4, S4, 6, ident=0x4007, df=True),
          tcp(43002, 80, rnd32(), rnd32(), ACK, 502, [NOP, NOP, TS(ts, 2)]),
          payload(rbytes(100)))
    c.add("IPv4 DF and reserved (evil) bit set/UDP: df true, mf false, "
          "offset 0", eth_v4(), ipv4(C4, S4, 17, ident=0x4008, df=True,
                                     evil=True),
          udp(44003, 9), payload(rbytes(20)))
    c.add("IPv4 last fragment at the largest offset (8191)", eth_v4(),
          ipv4(C4, S4, 17, ident=0x4009, frag=8191), payload(rbytes(8)),
          pad_to=60)
    c.add("IPv4 tiny first fragment: MF, offset 0, only 8 bytes of TCP "
          "-> truncated at tcp", eth_v4(),
          ipv4(C4, S4, 6, ident=0x400a, mf=True),
          raw_hdr("tcp", whole[:8]), pad_to=60, err=("truncated", 2))
    # ABI 2 parses the fragment header: a first fragment (offset 0, M), so
    # UDP length 3000 > bytes left is not an error (as for IPv4)
    f = frag6(17, 0, 1, 0x77)
    sf = IPv6ExtHdrFragment(nh=17, offset=0, m=1, id=0x77)
    assert bytes(sf) == bytes(f.pkt)
    f.pkt = sf
    c.add("IPv6 first fragment (fragment header, offset 0, M)/UDP length "
          "3000", eth_v6(), ipv6(C6, S6, 44, ext=True), f,
          udp(44004, 9, ulen=3000), payload(rbytes(64)))
    return c


# ---------------------------------------------------------------------------
# ipv4_options (ABI 2)


def cap_ipv4_options():
    c = Capture("ipv4_options", "IPv4 options")
    n = [0]

    def ts():
        return struct.pack("!I", random.getrandbits(31))

    def a4(s):
        return socket.inet_aton(s)

    def pkt(desc, opts, bad=None, pad=b"", l4="udp", err=None, ttl=64):
        n[0] += 1
        proto = {"udp": 17, "tcp": 6, "icmp": 1}[l4]
        ip = ipv4(C4, S4, proto, ident=0x800 + n[0], ttl=ttl, opts=opts,
                  bad=bad, pad=pad)
        if l4 == "udp":
            rest = [udp(47000 + n[0], 9), payload(rbytes(20))]
        elif l4 == "tcp":
            rest = [tcp(47000 + n[0], 80, rnd32(), rnd32(), PSH | ACK, 1000,
                        ts_opts()),
                    payload(rbytes(24))]
        else:
            rest = [icmp(8, 0, 0x4444, n[0], rbytes(16))]
        c.add(desc, eth_v4(), ip, *rest,
              err=None if err is None else (err, 1))

    # well-formed
    pkt("Router Alert (148, len 4, value 0), IHL 6 / UDP", [RA4(0)], ttl=1)
    pkt("Router Alert value 1 / TCP", [RA4(1)], l4="tcp")
    pkt("NOP NOP NOP EOL / TCP", [NOP, NOP, NOP, EOL], l4="tcp")
    pkt("NOP Router Alert, then EOL + 2 zero bytes of padding / UDP",
        [NOP, RA4(0), EOL], pad=b"\0\0")
    pkt("EOL first, then 7 bytes that would be bad options (walk ends at "
        "EOL)", [EOL], pad=b"\x07\x00\x44\x01\x94\x09\x01")
    pkt("Router Alert with len 6 (recorded, not decoded) + NOP NOP",
        [RA4(0, 6), NOP, NOP])
    pkt("Timestamp flag 0, 2 of 3 slots used (len 16, ptr 13) / UDP",
        [TS4(13, 0, 0, [ts(), ts()], 3)])
    pkt("Timestamp flag 1 (address+ts), 2 of 4 entries (len 36, ptr 21), "
        "overflow 3 / TCP",
        [TS4(21, 3, 1, [a4(R4), ts(), a4(S4), ts()], 4)], l4="tcp")
    pkt("Timestamp flag 3 (prespecified), nothing recorded (len 20, ptr 5),"
        " overflow 15", [TS4(5, 15, 3, [a4(R4), b"\0" * 4,
                                        a4(S4), b"\0" * 4], 2)])
    pkt("Timestamp full (len 12, 2 slots, ptr 13), then NOP / ICMP",
        [TS4(13, 1, 0, [ts(), ts()], 2), NOP, NOP, NOP, NOP], l4="icmp")
    pkt("Timestamp len 4 (no slot, ptr 5) / UDP", [TS4(5, 0, 0, [], 0)])
    pkt("Record Route, 0 addresses recorded (len 11, ptr 4) + EOL",
        [RR4(4, 2), EOL])
    pkt("Record Route, 1 address recorded (len 15, ptr 8) + NOP / TCP",
        [RR4(8, 3, [R4]), NOP], l4="tcp")
    pkt("Record Route, 3 addresses recorded, full (len 15, ptr 16) + EOL",
        [RR4(16, 3, [R4, "198.19.0.2", "198.19.0.3"]), EOL])
    pkt("Record Route, 9 slots, 3 recorded (len 39, ptr 16) + EOL: 40-byte "
        "area / TCP", [RR4(16, 9, [R4, "198.19.0.2", "198.19.0.3"]), EOL],
        l4="tcp")
    pkt("Record Route ptr 40 in len 15: rr_count capped at 3 slots",
        [RR4(40, 3, [R4] * 3), EOL])
    pkt("Record Route ptr 3 (< 4): rr_count 0", [RR4(3, 3), EOL])
    pkt("Record Route ptr 6 (not slot-aligned): rr_count 0",
        [RR4(6, 3), EOL])
    pkt("Record Route len 3 (no slot, ptr 4) + NOP", [RR4(4, 0), NOP])
    pkt("unknown type 30 len 6 + NOP NOP", [OPT(30, 6, 0x1e), NOP, NOP])
    pkt("LSRR (131, len 11, 2 hops) + NOP: walked, not decoded",
        [bytes([131, 11, 4]) + a4(R4) + a4("198.19.0.2"), NOP], l4="tcp")
    pkt("Security (130, len 11) + NOP", [OPT(130, 11, 0x82), NOP])
    pkt("40-byte area: NOP RA TS(len 12) RR(len 19, 2 recorded) EOL + 3 "
        "bytes / TCP",
        [NOP, RA4(0), TS4(9, 0, 0, [ts()], 2),
         RR4(12, 4, [R4, "198.19.0.2"]), EOL], pad=b"\0\0\0", l4="tcp")
    pkt("40 NOPs (40-byte area, 40 options)", [NOP] * 40)
    pkt("39 NOPs then EOL", [NOP] * 39 + [EOL], l4="tcp")
    pkt("option ends exactly at the end of the area (unknown 25 len 8)",
        [OPT(25, 8, 0x19)], l4="tcp")
    pkt("IHL 5 with ABI-2 fields: empty option list / UDP", [])
    # malformed: tlv_len at ipv4 (layer kept), error_off at the option
    pkt("option length 0 (type 7) as the first option: tlv_len",
        [], bad=b"\x07\x00", pad=b"\x00\x00", err="tlv_len")
    pkt("option length 1 (type 68) after NOP: tlv_len",
        [NOP], bad=b"\x44\x01", pad=b"\x00", err="tlv_len")
    pkt("unknown type 30 length 1, TCP follows: tlv_len",
        [NOP, NOP], bad=b"\x1e\x01", l4="tcp", err="tlv_len")
    pkt("Timestamp len 12 overrunning an 8-byte area by 5: tlv_len",
        [NOP], bad=b"\x44\x0c\x05\x00" + b"\0" * 3, err="tlv_len")
    pkt("Router Alert overrunning the area by 1 (NOP + len 4 in 4 bytes)",
        [NOP], bad=b"\x94\x04\x00", err="tlv_len")
    pkt("Record Route len 39 in a 12-byte area, TCP follows: tlv_len",
        [RA4(0)], bad=b"\x07\x27\x04" + b"\0" * 5, l4="tcp", err="tlv_len")
    pkt("option length 255 in a 40-byte area: tlv_len",
        [], bad=b"\x1e\xff" + b"\0" * 38, err="tlv_len")
    pkt("type byte (148) with no length byte at the area end: tlv_len",
        [NOP, NOP, NOP], bad=b"\x94", err="tlv_len")
    pkt("type byte (7) with no length byte after 39 bytes of options",
        [NOP, RA4(0), RR4(8, 7, [R4]), NOP, NOP, NOP], bad=b"\x07",
        l4="tcp", err="tlv_len")
    return c


# ---------------------------------------------------------------------------
# ipv4_ext (ABI 2): AH (RFC 4302) and ESP (RFC 4303) behind IPv4, parsed as
# behind IPv6 and listed in ipv4.ext


def l4v4(l4, data=b"", src=C4, dst=S4):
    """l4 (+ data) with the checksum of an IPv4 packet src -> dst (AH
    between them: scapy does not see through it)."""
    proto = {"tcp": 6, "udp": 17, "icmp": 1}[l4.proto]
    p = IP(src=src, dst=dst, proto=proto) / l4.pkt
    if data:
        p = p / Raw(load=data)
    whole = bytes(p)[20:]
    return [as_raw(l4, whole[:l4.hlen])] + \
        ([payload(whole[l4.hlen:])] if len(whole) > l4.hlen else [])


def cap_ipv4_ext():
    c = Capture("ipv4_ext", "AH and ESP behind IPv4")
    n = [0]

    def ip(proto, **kw):
        n[0] += 1
        return ipv4(C4, S4, proto, ident=0x5100 + n[0], opts=kw.pop("opts", []),
                    **kw)

    def t():
        n[0] += 1
        return tcp(49200 + n[0], 80, rnd32(), rnd32(), PSH | ACK, 3000,
                   ts_opts())

    def u():
        n[0] += 1
        return udp(49200 + n[0], 9)

    def add(desc, *specs, **kw):
        c.add(desc, eth_v4(), *specs, **kw)

    add("AH (24 bytes, 12-byte ICV) / TCP", ip(51),
        ah(6, 0x4001, 1, rbytes(12)), *l4v4(t(), rbytes(20)))
    add("AH minimum (12 bytes, payload len 1) / UDP", ip(51),
        ah(17, 0x4002, 2), *l4v4(u(), rbytes(16)))
    add("AH (16 bytes) / ICMP echo request (protocol 1: ICMP behind IPv4)",
        ip(51), ah(1, 0x4003, 3, rbytes(4)),
        *l4v4(icmp(8, 0, 0x51, 1), rbytes(24)))
    add("ESP: walk ends after it (the rest is encrypted)", ip(50),
        esp(0x4004, 1), payload(rbytes(48)))
    add("AH then ESP: walk ends after esp", ip(51),
        ah(50, 0x4005, 5, rbytes(12)), esp(0x4006, 5), payload(rbytes(40)))
    add("IPv4 with options (Router Alert, IHL 6) / AH / UDP",
        ip(51, opts=[RA4(0)]), ah(17, 0x4007, 7, rbytes(12)),
        *l4v4(u(), rbytes(8)))
    add("AH twice (24 and 12 bytes) / TCP", ip(51),
        ah(51, 0x4008, 8, rbytes(12)), ah(6, 0x4009, 9), *l4v4(t()))
    add("AH, next header 4 (tunnel mode): inner IPv4 / ICMP in stack 1",
        ip(51), ah(4, 0x400A, 10, rbytes(12)),
        *inner(ipv4(I4A, I4B, 1, ident=0x5150, opts=[]),
               icmp(8, 0, 0x52, 2, rbytes(8))))
    inn = inner(eth(MAC[0x22], MAC[0x21], ETH_IPV4),
                ipv4(I4A, I4B, 51, ident=0x5151, opts=[]),
                ah(6, 0x400B, 11, rbytes(12)),
                tcp(49299, 443, rnd32(), rnd32(), ACK, 1000, ts_opts()))
    add("AH / UDP / VXLAN: inner eth / IPv4 / AH / TCP (each stack its "
        "own ext list)", ip(51), ah(17, 0x400C, 12, rbytes(4)),
        udp(49298, VXLAN_PORT), vxlan(0x51), *inn)
    # malformed AH and ESP
    add("AH payload len 0 (total 8 < 12), 32 bytes follow: bad_len at ah",
        ip(51), ah(17, 0x4011, 1, plen=0), payload(rbytes(32)),
        err=("bad_len", 2))
    add("AH payload len 10 (48 bytes), 24 bytes of IP payload: truncated "
        "at ah", ip(51),
        raw_hdr("ah", bytes(ah(17, 0x4012, 1, rbytes(12), plen=10).pkt)),
        err=("truncated", 2))
    add("AH with 10 bytes of IP payload (< 12): truncated at ah", ip(51),
        raw_hdr("ah", bytes(ah(17, 0x4013, 1).pkt)[:10]),
        err=("truncated", 2))
    add("AH payload len 4 (24 bytes), the IPv4 total length ends 8 bytes "
        "short, Ethernet padding after it: truncated at ah", ip(51),
        raw_hdr("ah", bytes(ah(17, 0x4014, 1, rbytes(12)).pkt)[:16]),
        pad_to=60, err=("truncated", 2))
    add("ESP with 6 bytes of IP payload: truncated at esp", ip(50),
        raw_hdr("esp", struct.pack("!IH", 0x4015, 0)), err=("truncated", 2))
    add("AH then ESP with 3 bytes: truncated at esp", ip(51),
        ah(50, 0x4016, 1, rbytes(4)), raw_hdr("esp", b"\x00\x00\x40"),
        err=("truncated", 3))
    add("AH then 10 bytes of TCP: truncated at tcp", ip(51),
        ah(6, 0x4017, 1, rbytes(12)),
        raw_hdr("tcp", bytes(t().pkt)[:10]), err=("truncated", 3))
    add("AH then UDP length one past the IP payload: truncated at udp",
        ip(51), ah(17, 0x4018, 1), udp(49250, 9, ulen=8 + 12 + 1),
        payload(rbytes(12)), err=("truncated", 3))
    # Last, so that the packets before keep their bytes (one seed a capture).
    add("AH / TCP with MSS, NOP, window scale, EOL: an option area no fast "
        "layout decodes (the TCP option gate is asked, behind AH: the "
        "stack's protocol is AH's 51 for the rules)", ip(51),
        ah(6, 0x4019, 13, rbytes(12)),
        *l4v4(tcp(49260, 8080, rnd32(), rnd32(), ACK, 3000,
                  [MSS(1460), NOP, WS(7), EOL], pad=bytes(3))))
    return c
