# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""The captures tunnels and tunnels_malformed."""
import functools
import struct

from scapy.layers.inet import ICMP
from scapy.packet import Raw

from .common import (ACK, BCAST, ETH_ARP, ETH_IPV4, ETH_IPV6, MAC, PSH, Spec, TPID_AD, TPID_Q,
                     as_raw, blob, cut_at, payload, raw_hdr, rbytes, rnd32, text_payload)
from .capture import Capture
from .l2 import arp, eth, tag
from .ipv4 import RA4
from .ipv6 import O6, PADN, RA6, SEG, dsto, hbh, l4v6, srh
from .l4 import EOL, LINUX_SYN, NOP, SACK, icmp, icmp6_echo, tcp, ts_opts, udp
from .tunnels import (ETH_MPLS, ETH_MPLS_MC, ETH_TEB, GENEVE_PORT, GEXT, GOPT, GTPU_PORT, I4A, I4B,
                      I6A, I6B, LSE, T4A, T4B, T6A, T6B, TunFrames, VXLAN_PORT, geneve, gre, gtpu,
                      in_eth, in_v4, in_v6, inner, mpls, mpls_frame, pkt_tcp, pkt_udp, vxlan)


def cap_tunnels():
    c = Capture("tunnels", "tunnels and label stacks")
    f = TunFrames(c)
    t, u = pkt_tcp, pkt_udp
    n = f.nxt

    def gre_v4(desc, proto, inn, outer6=False, **kw):
        g = gre(proto, blob(inn), **kw)
        if outer6:
            f.v6(desc, 47, [g] + inn)
        else:
            f.v4(desc, 47, [g] + inn)

    # VXLAN
    f.udp4("VXLAN VNI 100: inner eth / IPv4 / TCP (NOP NOP TS, MSS...)",
           VXLAN_PORT,
           [vxlan(100)] + inner(in_eth(ETH_IPV4), in_v4(6),
                                t(n(), LINUX_SYN(rnd32(), 1410))))
    f.udp4("VXLAN VNI 0xffffff: inner eth / IPv6 / UDP", VXLAN_PORT,
           [vxlan(0xFFFFFF)] + inner(in_eth(ETH_IPV6), in_v6(17),
                                     u(n(), rbytes(12))))
    f.udp4("VXLAN with extra flag bits (0x0c: I + reserved): I set, ok",
           VXLAN_PORT, [vxlan(7, flags=0x0C)] + inner(
               in_eth(ETH_IPV4), in_v4(17), u(n(), rbytes(4))))
    f.udp6("IPv6 / UDP / VXLAN: inner eth / IPv4 with options / TCP",
           VXLAN_PORT, [vxlan(0x1234)] + inner(
               in_eth(ETH_IPV4),
               in_v4(6, opts=[RA4(0), NOP, NOP, NOP, EOL]),
               t(n(), ts_opts() + [NOP, NOP, SACK((100, 200))],
                 text_payload(10))))
    f.udp4("VXLAN: inner eth with 2 VLAN tags (QinQ) / IPv4 / UDP",
           VXLAN_PORT, [vxlan(200)] + inner(
               in_eth(TPID_AD), tag(TPID_AD, 300, TPID_Q, pcp=5),
               tag(TPID_Q, 42, ETH_IPV4, dei=1), in_v4(17),
               u(n(), rbytes(8))))
    f.udp4("VXLAN: inner eth / VLAN / IPv6 hop-by-hop dstopts SRH / TCP",
           VXLAN_PORT, [vxlan(201)] + inner(
               in_eth(TPID_Q), tag(TPID_Q, 7, ETH_IPV6), in_v6(0),
               hbh(60, [RA6(0), PADN(2)]),
               dsto(43, [O6(0x3e, 4, 0x3e)]),
               srh(6, SEG[:2], 1, [PADN(8, 4)]), t(n())))
    f.udp4("VXLAN: inner eth / ARP request: walk ends after inner arp",
           VXLAN_PORT, [vxlan(202)] + inner(
               eth(BCAST, MAC[0x21], ETH_ARP),
               arp(1, MAC[0x21], I4A, "00:00:00:00:00:00", I4B)))
    f.udp4("VXLAN: inner eth / unknown ethertype 0x88b5: walk ends",
           VXLAN_PORT, [vxlan(203)] + inner(in_eth(0x88B5)) +
           [payload(text_payload(20))])
    f.udp4("UDP source port 4789, destination 12345: not VXLAN",
           12345, [payload(bytes(vxlan(204).pkt) + rbytes(20))],
           sport=VXLAN_PORT)
    # VXLAN inside VXLAN: the 2nd inner eth would start a 3rd stack
    f.udp4("VXLAN in VXLAN: depth at the 2nd inner eth (3rd stack)",
           VXLAN_PORT, [vxlan(300)] + inner(
               in_eth(ETH_IPV4), in_v4(17), udp(40999, VXLAN_PORT),
               vxlan(301)) + [in_eth(ETH_IPV4, 0x31, 0x32),
                              payload(bytes(in_v4(1).pkt / ICMP()))],
           err=("depth", 5))
    f.udp4("GRE in VXLAN: depth at the GRE's inner ipv4", VXLAN_PORT,
           [vxlan(302)] + inner(in_eth(ETH_IPV4), in_v4(47),
                                gre(ETH_IPV4)) +
           [in_v4(1, src="198.18.30.1"), payload(bytes(ICMP()))],
           err=("depth", 4))
    # Geneve
    f.udp4("Geneve, no options, protocol 0x6558: inner eth / IPv4 / TCP",
           GENEVE_PORT, [geneve(0x10, ETH_TEB)] + inner(
               in_eth(ETH_IPV4), in_v4(6), t(n())))
    f.udp4("Geneve, 1 option (class 0x0102 type 0x80 critical, 1 word), "
           "C flag, protocol 0x0800: inner IPv4 / UDP",
           GENEVE_PORT,
           [geneve(0x11, ETH_IPV4, [GOPT(0x0102, 0x80, rbytes(4))],
                   crit=True)] + inner(in_v4(17), u(n(), rbytes(6))))
    f.udp4("Geneve, 3 options (0, 2, 3 words; reserved bits in one length "
           "byte), O flag: inner eth / IPv6 / UDP", GENEVE_PORT,
           [geneve(0x12, ETH_TEB, [GOPT(0x0000, 0x01),
                                   GOPT(0xFFFF, 0x7F, rbytes(8), rsv=5),
                                   GOPT(0x0103, 0x81, rbytes(12))],
                   oam=True)] +
           inner(in_eth(ETH_IPV6), in_v6(17), u(n(), rbytes(4))))
    f.udp4("Geneve, 8 options (lengths 0..3 words, classes 0x0000 0x0100 "
           "0x0101 0xfff0 0x8000, critical types): inner IPv4 / TCP",
           GENEVE_PORT,
           [geneve(0xABCDEF, ETH_IPV4,
                   [GOPT(0x0100, 0x01), GOPT(0x0101, 0x82, rbytes(4)),
                    GOPT(0xFFF0, 0x03, rbytes(8)),
                    GOPT(0x8000, 0xFF, rbytes(12)),
                    GOPT(0x0000, 0x00, rbytes(12)),
                    GOPT(0x0100, 0x80), GOPT(0x0101, 0x7E, rbytes(8)),
                    GOPT(0x0102, 0x05, rbytes(4))], crit=True)] +
           inner(in_v4(6), t(n())))
    f.udp4("Geneve, 2 options, protocol 0x86dd: inner IPv6 / TCP",
           GENEVE_PORT, [geneve(0x13, ETH_IPV6,
                                [GOPT(0x0104, 0x10, rbytes(4)),
                                 GOPT(0x0104, 0x11, rbytes(4))])] +
           inner(in_v6(6), t(n())))
    f.udp6("IPv6 / UDP / Geneve 1 option: inner eth / IPv4 / UDP",
           GENEVE_PORT, [geneve(0x14, ETH_TEB,
                                [GOPT(0x0105, 0x42, rbytes(8))])] +
           inner(in_eth(ETH_IPV4), in_v4(17), u(n(), rbytes(8))))
    f.udp4("Geneve with protocol 0x88b5 (unknown): walk ends after geneve",
           GENEVE_PORT, [geneve(0x15, 0x88B5, [GOPT(0x0106, 1, rbytes(4))]),
                         payload(rbytes(24))])
    # GRE
    in4 = lambda: inner(in_v4(1), icmp(8, 0, 0x77, n()))  # noqa: E731
    gre_v4("GRE plain, protocol 0x0800: inner IPv4 / ICMP echo", ETH_IPV4,
           in4())
    gre_v4("GRE with checksum: inner IPv4 / ICMP echo", ETH_IPV4, in4(),
           c=True)
    gre_v4("GRE with key 0x01020304: inner IPv4 / ICMP echo", ETH_IPV4,
           in4(), key=0x01020304)
    gre_v4("GRE with sequence 0xfffffffe: inner IPv4 / ICMP echo",
           ETH_IPV4, in4(), seq=0xFFFFFFFE)
    gre_v4("GRE with checksum, key and sequence (16 bytes): inner IPv4 / "
           "TCP", ETH_IPV4, inner(in_v4(6), t(n())), c=True, key=7, seq=1)
    gre_v4("GRE 0x6558: inner eth / IPv4 / UDP", ETH_TEB,
           inner(in_eth(ETH_IPV4), in_v4(17), u(n(), rbytes(10))), key=42)
    gre_v4("GRE 0x86dd: inner IPv6 / ICMPv6 echo", ETH_IPV6,
           inner(in_v6(58), icmp6_echo(True, 9, n())))
    gre_v4("GRE 0x8847: inner MPLS (1 label) / IPv4 / UDP", ETH_MPLS,
           inner(mpls([LSE(1000, 0, 1, 63)]), in_v4(17), u(n(), rbytes(4))))
    gre_v4("GRE 0x8848 with key: inner MPLS (2 labels) / IPv6 / TCP",
           ETH_MPLS_MC, inner(mpls([LSE(16), LSE(17, 5, 1, 1)]), in_v6(6),
                              t(n())), key=0x8848)
    gre_v4("GRE protocol 0x88be (ERSPAN): walk ends after gre", 0x88BE,
           [payload(rbytes(40))], seq=5)
    gre_v4("GRE version 1 (PPTP, K and S, protocol 0x880b): walk ends "
           "after gre", 0x880B, [payload(b"\xff\x03\x00\x21" +
                                         bytes(in_v4(1).pkt / ICMP()))],
           key=(28 << 16) | 0x1234, seq=3, ver=1)
    gre_v4("IPv6 / GRE: inner IPv4 / UDP", ETH_IPV4,
           inner(in_v4(17), u(n(), rbytes(8))), outer6=True)
    # GTP-U
    in6 = lambda: inner(in_v6(17), u(n(), rbytes(16)))  # noqa: E731
    for desc, kw, inn in (
            ("G-PDU, no optional fields: inner IPv4 / TCP", {},
             inner(in_v4(6), t(n()))),
            ("G-PDU with sequence 0x1234: inner IPv6 / UDP",
             {"seq": 0x1234}, in6()),
            ("G-PDU with N-PDU number only (PN): inner IPv4 / UDP",
             {"npdu": 0x42}, inner(in_v4(17), u(n(), rbytes(8)))),
            ("G-PDU, 1 extension (PDU session container 0x85): inner IPv4 "
             "/ TCP", {"exts": [GEXT(0x85, b"\x00\x09")]},
             inner(in_v4(6), t(n()))),
            ("G-PDU, 2 extensions (UDP port 0x40, PDU session container "
             "0x85, 2 words) and sequence: inner IPv6 / UDP",
             {"seq": 77, "exts": [GEXT(0x40, b"\x08\x68"),
                                  GEXT(0x85, b"\x10\x05" + rbytes(4))]},
             in6()),
            ("G-PDU, E flag set, next type 0 (no extension): inner IPv4 / "
             "UDP", {"e": True}, inner(in_v4(17), u(n(), rbytes(4))))):
        g = gtpu(255, 0x10000 + f.n, blob(inn), **kw)
        f.udp4("GTP-U " + desc, GTPU_PORT, [g] + inn)
    inn = inner(in_v6(6), t(n()))
    f.udp6("IPv6 / UDP / GTP-U G-PDU with 4 extensions (the limit): inner "
           "IPv6 / TCP", GTPU_PORT,
           [gtpu(255, 0xFEEDBEEF, blob(inn), seq=1,
                 exts=[GEXT(0x40, b"\x00\x35"), GEXT(0x20, b"\x01\x02"),
                       GEXT(0xC0, b"\x00\x07"),
                       GEXT(0x85, b"\x00\x01")])] + inn)
    f.udp4("GTP-U echo request (type 1) with sequence: walk ends",
           GTPU_PORT, [gtpu(1, 0, b"", seq=9)])
    f.udp4("GTP-U G-PDU whose payload starts with nibble 0: walk ends",
           GTPU_PORT, [gtpu(255, 5, b"\x00" * 20), payload(b"\x00" * 20)])

    # MPLS
    mp = functools.partial(mpls_frame, c)
    mp("MPLS 1 label / IPv4 / UDP", [LSE(100, 0, 1, 64)],
       [in_v4(17, src=T4A, dst=T4B), udp(40100, 9), payload(rbytes(8))])
    mp("MPLS 2 labels (tc 7, ttl 255) / IPv4 / TCP",
       [LSE(1048575, 7, 0, 255), LSE(3, 1, 1, 1)],
       [in_v4(6, src=T4A, dst=T4B)] + t(n()))
    mp("MPLS 8 labels / IPv4 / ICMP", [LSE(16 + i, i % 8, int(i == 7), 64 - i)
                                       for i in range(8)],
       [in_v4(1, src=T4A, dst=T4B), icmp(8, 0, 3, 4)])
    mp("MPLS 1 label / IPv6 / UDP", [LSE(2, 0, 1, 64)],
       [in_v6(17, src=T6A, dst=T6B), udp(40101, 9), payload(rbytes(8))])
    mp("MPLS 2 labels (ethertype 0x8848) / IPv6 / TCP",
       [LSE(500), LSE(501, 0, 1)], [in_v6(6, src=T6A, dst=T6B)] + t(n()),
       etype=ETH_MPLS_MC)
    mp("MPLS 8 labels / IPv6 / TCP", [LSE(1000 * i + 1, 0, int(i == 7))
                                      for i in range(8)],
       [in_v6(6, src=T6A, dst=T6B)] + t(n()))
    mp("MPLS 1 label / pseudowire control word (nibble 0) / eth: walk ends",
       [LSE(200, 0, 1)],
       [payload(b"\0\0\0\0" + bytes(in_eth(ETH_IPV4).pkt) + rbytes(28))])
    mp("MPLS 2 labels / first nibble 5: walk ends", [LSE(20), LSE(21, 0, 1)],
       [payload(b"\x55" + rbytes(30))])
    mp("VLAN 10 / MPLS 1 label / IPv4 / UDP", [LSE(300, 2, 1, 9)],
       [in_v4(17, src=T4A, dst=T4B), udp(40102, 9), payload(rbytes(4))],
       tags=[tag(TPID_Q, 10, ETH_MPLS)])
    mp("QinQ / MPLS 2 labels / IPv6 / UDP", [LSE(301), LSE(302, 0, 1)],
       [in_v6(17, src=T6A, dst=T6B), udp(40103, 9)],
       tags=[tag(TPID_AD, 11, TPID_Q), tag(TPID_Q, 12, ETH_MPLS)])
    # IP in IP
    f.v4("IPv4-in-IPv4 (protocol 4): inner IPv4 / TCP", 4,
         inner(in_v4(6), t(n())))
    f.v4("IPv6-in-IPv4 (protocol 41, 6in4): inner IPv6 / UDP", 41,
         inner(in_v6(17), u(n(), rbytes(8))))
    f.v6("IPv6-in-IPv6 (next header 41): inner IPv6 / TCP", 41,
         inner(in_v6(6), t(n())))
    f.v6("IPv4-in-IPv6 (next header 4): inner IPv4 / UDP", 4,
         inner(in_v4(17), u(n(), rbytes(8))))
    f.v6("IPv6 / dstopts / IPv6-in-IPv6: inner IPv6 / hop-by-hop / UDP",
         41, inner(in_v6(0), hbh(17, [RA6(2), PADN(2)]),
                   l4v6(udp(52000 + n(), 9), rbytes(4), I6A, I6B)),
         chain=[dsto(41, [PADN(6)])])
    f.v4("IPv4-in-IPv4 inside IPv4-in-IPv4: depth at the 3rd ipv4", 4,
         inner(in_v4(4)) + [in_v4(6, src="198.18.40.1")] + t(n()),
         err=("depth", 1))
    f.v4("VLAN / IPv4 / GRE / inner eth with VLAN / IPv6 / ICMPv6", 47,
         [gre(ETH_TEB)] + inner(in_eth(TPID_Q), tag(TPID_Q, 99, ETH_IPV6),
                                in_v6(58), icmp6_echo(False, 5, n())),
         tags=[tag(TPID_Q, 20, ETH_IPV4)],
         outer_eth=eth(MAC[2], MAC[1], TPID_Q))
    # A Geneve header in the inner stack: its options are the inner
    # stack's TLVs, which a Geneve option test of any stack matches (the
    # lean parse keeps the inner UDP header for them; docs/rules.md).
    f.udp4("Geneve (1 option, class 0x0107) in VXLAN: depth at its inner eth",
           VXLAN_PORT, [vxlan(303)] + inner(
               in_eth(ETH_IPV4), in_v4(17), udp(41000, GENEVE_PORT),
               geneve(0x16, ETH_TEB, [GOPT(0x0107, 0x21, rbytes(4))])) +
           [in_eth(ETH_IPV4, 0x35, 0x36),
            payload(bytes(in_v4(1).pkt / ICMP()))],
           err=("depth", 5))
    f.udp4("Geneve (class 0x0108) in Geneve (class 0x0109, 2 words): "
           "depth at the inner Geneve's inner eth", GENEVE_PORT,
           [geneve(0x17, ETH_TEB, [GOPT(0x0108, 0x22, rbytes(4))])] + inner(
               in_eth(ETH_IPV4), in_v4(17), udp(41001, GENEVE_PORT),
               geneve(0x18, ETH_TEB, [GOPT(0x0109, 0x23, rbytes(8))])) +
           [in_eth(ETH_IPV4, 0x37, 0x38),
            payload(bytes(in_v4(1).pkt / ICMP()))],
           err=("depth", 5))
    return c


# ---------------------------------------------------------------------------
# tunnels_malformed (ABI 2)


def cap_tunnels_malformed():
    c = Capture("tunnels_malformed", "malformed tunnel headers")
    f = TunFrames(c)
    n = f.nxt

    def in4u():
        return inner(in_v4(17), pkt_udp(n(), rbytes(8)))

    def in4():
        return inner(in_eth(ETH_IPV4)) + in4u()

    # VXLAN
    f.udp4("VXLAN flags 0x00 (I clear): bad_hdr", VXLAN_PORT,
           [vxlan(5, flags=0)] + in4(), err=("bad_hdr", 0))
    f.udp4("VXLAN flags 0xf7 (all but I): bad_hdr", VXLAN_PORT,
           [vxlan(6, flags=0xF7)] + in4(), err=("bad_hdr", 0))
    f.udp4("VXLAN header of 7 bytes: truncated", VXLAN_PORT,
           [raw_hdr("vxlan", bytes(vxlan(7).pkt)[:7])], err=("truncated", 0))
    f.udp4("VXLAN header of 4 bytes, Ethernet padding to 60 after the UDP "
           "length: truncated", VXLAN_PORT,
           [raw_hdr("vxlan", bytes(vxlan(8).pkt)[:4])], err=("truncated", 0),
           pad_to=60)
    # Geneve
    f.udp4("Geneve header of 5 bytes: truncated", GENEVE_PORT,
           [raw_hdr("geneve", bytes(geneve(9, ETH_TEB).pkt)[:5])],
           err=("truncated", 0))
    f.udp4("Geneve option length 4 words, no option bytes: truncated",
           GENEVE_PORT, [raw_hdr("geneve", bytes(
               geneve(10, ETH_TEB, optlen=4).pkt))], err=("truncated", 0))
    g = bytes(geneve(11, ETH_TEB, [GOPT(0x0101, 1, rbytes(8)),
                                   GOPT(0x0101, 2, rbytes(12))]).pkt)
    f.udp4("Geneve option length 7 words, 6 words of options left: "
           "truncated", GENEVE_PORT, [raw_hdr("geneve", g[:-4])],
           err=("truncated", 0))
    f.udp4("Geneve version 1: bad_version", GENEVE_PORT,
           [geneve(12, ETH_TEB, [GOPT(0x0101, 1, rbytes(4))], ver=1)] + in4(),
           err=("bad_version", 0))
    f.udp4("Geneve version 3, no options: bad_version", GENEVE_PORT,
           [geneve(13, ETH_IPV4, ver=3)] + inner(in_v4(1), icmp(8, 0, 1, 1)),
           err=("bad_version", 0))
    f.udp4("Geneve: 2nd option (3 words) past the 4-word option area: "
           "tlv_len at the option, geneve kept", GENEVE_PORT,
           [geneve(14, ETH_TEB, [GOPT(0x0102, 0x01, rbytes(4))],
                   bad=struct.pack("!HBB", 0x0102, 0x02, 3) + rbytes(4))] +
           in4(), err=("tlv_len", 0))
    f.udp4("Geneve: 1st option 31 words in a 1-word area: tlv_len",
           GENEVE_PORT,
           [geneve(15, ETH_IPV4, [],
                   bad=struct.pack("!HBB", 0x0103, 0x83, 31))] +
           inner(in_v4(1), icmp(8, 0, 2, 2)), err=("tlv_len", 0))
    f.udp4("Geneve: 3rd option overruns the area by 1 word: tlv_len",
           GENEVE_PORT,
           [geneve(16, ETH_TEB, [GOPT(0x0104, 1), GOPT(0x0104, 2, rbytes(8))],
                   bad=struct.pack("!HBB", 0x0104, 0x03, 2) + rbytes(4))] +
           in4(), err=("tlv_len", 0))
    # GRE
    for extra, what in ((0x4000, "R bit (0x4000)"),
                        (0x0800, "strict source route bit (0x0800)"),
                        (0x0700, "recursion control 7 (0x0700)"),
                        (0x0008, "lowest reserved bit (0x0008)")):
        inn = inner(in_v4(1), icmp(8, 0, 3, n()))
        f.v4("GRE with %s: bad_hdr" % what, 47,
             [gre(ETH_IPV4, extra=extra)] + inn, err=("bad_hdr", 0))
    inn = inner(in_v4(1), icmp(8, 0, 3, n()))
    f.v4("GRE version 1 with the PPTP acknowledgment bit (0x0080, allowed "
         "in version 1 by RFC 2637): walk ends after gre", 47,
         [gre(0x880B, key=0x00101234, seq=1, ver=1, extra=0x0080)] +
         [payload(rbytes(12))])
    f.v4("GRE header of 3 bytes: truncated", 47,
         [raw_hdr("gre", b"\x00\x00\x08")], err=("truncated", 0))
    f.v4("GRE with the K flag, packet ends after 4 bytes: truncated", 47,
         [raw_hdr("gre", b"\x20\x00\x08\x00")], err=("truncated", 0))
    f.v4("GRE with K and S, 10 bytes: truncated", 47,
         [raw_hdr("gre", bytes(gre(ETH_IPV4, key=1, seq=2).pkt)[:10])],
         err=("truncated", 0))
    f.v4("GRE with the C flag, 6 bytes: truncated", 47,
         [raw_hdr("gre", bytes(gre(ETH_IPV4, c=True).pkt)[:6])],
         err=("truncated", 0))
    # GTP-U
    for teid, kw, what in ((1, {"ver": 2}, "version 2 (flags 0x50)"),
                           (2, {"ver": 0, "seq": 1}, "version 0 (flags 0x12, S)"),
                           (3, {"pt": 0}, "PT 0 (GTP', flags 0x20)")):
        inn = in4u()
        f.udp4("GTP-U %s: bad_version" % what, GTPU_PORT,
               [gtpu(255, teid, blob(inn), **kw)] + inn, err=("bad_version", 0))
    f.udp4("GTP-U header of 7 bytes: truncated", GTPU_PORT,
           [raw_hdr("gtpu", bytes(gtpu(255, 4, b"").pkt)[:7])],
           err=("truncated", 0))
    f.udp4("GTP-U with S, 10 bytes (optional part cut): truncated",
           GTPU_PORT, [raw_hdr("gtpu", bytes(gtpu(255, 5, b"", seq=1).pkt)[:10])],
           err=("truncated", 0))
    f.udp4("GTP-U extension of 2 words with 5 bytes of it: truncated",
           GTPU_PORT, [raw_hdr("gtpu", bytes(gtpu(
               255, 6, b"", exts=[GEXT(0x85, b"\x10\x05" + rbytes(4))]
           ).pkt)[:17])], err=("truncated", 0))
    inn = in4u()
    hdr = struct.pack("!BBHIHBB", 0x34, 255, 8 + len(blob(inn)), 7, 0, 0,
                      0x85) + b"\x00\x00\x01\x00"
    f.udp4("GTP-U 1st extension with length 0: bad_len (error_off at the "
           "extension)", GTPU_PORT,
           [Spec("gtpu", len(hdr), Raw(load=hdr), fail_off=12)] + inn,
           err=("bad_len", 0))
    inn = in4u()
    hdr = struct.pack("!BBHIHBB", 0x36, 255, 12 + len(blob(inn)), 8, 9, 0,
                      0x40) + b"\x01\x08\x68\x85" + b"\x00\x09\x00\x00"
    f.udp4("GTP-U 2nd extension with length 0: bad_len (error_off at it)",
           GTPU_PORT, [Spec("gtpu", len(hdr), Raw(load=hdr), fail_off=16)] +
           inn, err=("bad_len", 0))
    inn = in4u()
    ex = [GEXT(0x40, b"\x00\x35"), GEXT(0x20, b"\x01\x02"),
          GEXT(0xC0, b"\x00\x07"), GEXT(0x85, b"\x00\x01"),
          GEXT(0x85, b"\x00\x02")]
    f.udp4("GTP-U with 5 extensions: depth at the 5th (error_off at it)",
           GTPU_PORT, [gtpu(255, 10, blob(inn), exts=ex, fail_off=28)] + inn,
           err=("depth", 0))

    # MPLS
    mp = functools.partial(mpls_frame, c)
    mp("MPLS 9 entries without bottom of stack: depth after the 8th",
       [LSE(40 + i) for i in range(9)],
       [in_v4(17, src=T4A, dst=T4B), udp(40200, 9)], err=("depth", 1),
       fail_off=32)
    mp("MPLS 8 entries without bottom of stack, IPv4 after: depth after "
       "the 8th", [LSE(50 + i) for i in range(8)],
       [in_v4(1, src=T4A, dst=T4B), icmp(8, 0, 1, 1)], err=("depth", 1),
       fail_off=32)
    c.add("MPLS 3 entries without bottom of stack, then end of packet: "
          "truncated", eth(MAC[2], MAC[1], ETH_MPLS),
          raw_hdr("mpls", bytes(mpls([LSE(60), LSE(61), LSE(62)]).pkt)),
          err=("truncated", 1))
    c.add("MPLS 2 entries and 2 bytes: truncated",
          eth(MAC[2], MAC[1], ETH_MPLS),
          raw_hdr("mpls", bytes(mpls([LSE(63), LSE(64)]).pkt) + b"\x00\x41"),
          err=("truncated", 1))
    c.add("VLAN / MPLS with 1 byte: truncated", eth(MAC[2], MAC[1], TPID_Q),
          tag(TPID_Q, 5, ETH_MPLS), raw_hdr("mpls", b"\x00"),
          err=("truncated", 2))
    # the inner packet of one VXLAN frame cut at every byte; the inner
    # IPv4 total length follows the cut once its header is whole
    full = inner(in_eth(ETH_IPV4, 0x41, 0x42), in_v4(6),
                 tcp(51999, 443, rnd32(), rnd32(), PSH | ACK, 1000, ts_opts()),
                 payload(rbytes(8)))
    data = blob(full)
    for cut in range(len(data) + 1):
        if cut < 34:
            specs, j = cut_at(full, cut)
            err, what = ("truncated", 1 + j), full[j].proto
        else:
            v4 = inner(in_v4(6, tot_len=cut - 14))
            rest = data[34:cut]
            if cut < 34 + full[2].hlen:
                specs = [full[0]] + v4 + inner(raw_hdr("tcp", rest))
                err, what = ("truncated", 3), "tcp"
            else:
                specs = [full[0]] + v4 + [as_raw(full[2], rest[:32])] + \
                    ([payload(rest[32:])] if cut > 66 else [])
                err, what = None, "ok"
        f.udp4("VXLAN, inner eth / IPv4 / TCP / 8 bytes cut to %d bytes: %s"
               % (cut, "ok" if err is None else "truncated at " + what),
               VXLAN_PORT, [vxlan(0x777)] + specs, err=err)
    # GRE versions: RFC 2784 allows 0, RFC 2637 (PPTP) 1; 2..7 are refused
    for ver in range(2, 8):
        inn = inner(in_v4(1), icmp(8, 0, 4, n()))
        f.v4("GRE version %d (flags 0x%04x), protocol 0x0800: bad_version"
             % (ver, ver), 47, [gre(ETH_IPV4, ver=ver)] + inn,
             err=("bad_version", 0))
    inn = inner(in_v4(1), icmp(8, 0, 4, n()))
    f.v4("GRE version 7 with key and sequence (flags 0x3007): bad_version",
         47, [gre(ETH_IPV4, key=7, seq=7, ver=7)] + inn,
         err=("bad_version", 0))
    f.v4("GRE version 1 (PPTP, K) with protocol 0x0800 and an IPv4 / ICMP "
         "payload: accepted, walk ends after gre (the payload not parsed)",
         47, [gre(ETH_IPV4, key=(28 << 16) | 0x4321, ver=1),
              payload(bytes(in_v4(1).pkt / ICMP(id=4, seq=n())))])
    return c
