# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""The capture lengths: a UDP length or a GTP-U Length that ends the bytes
a tunnel header and the packet it carries may use, before the IP payload
(or the datagram) does."""
from .common import ETH_IPV4, ETH_IPV6, blob, payload, rbytes
from .capture import Capture
from .ipv6 import PADN, hbh, l4v6
from .l4 import udp
from .tunnels import (ETH_TEB, GENEVE_PORT, GEXT, GOPT, GTPU_PORT, I6A, I6B, TunFrames, VXLAN_PORT,
                      geneve, gtpu, in_eth, in_v4, in_v6, inner, pin_lengths, pkt_tcp, pkt_udp,
                      vxlan)


# ---------------------------------------------------------------------------
# lengths (ABI 2). The UDP length lowers the end for everything after the
# UDP header, inner stacks included; the GTP-U Length lowers it to the 8
# mandatory bytes + Length. The bytes past such an end are still in the IP
# payload (and in the frame): a parse that read them would say `ok`.


def cap_lengths():
    c = Capture("lengths", "UDP and GTP-U lengths bound what follows")
    f = TunFrames(c)
    n = f.nxt

    def v4tcp(tot_len=None):
        """inner eth / IPv4 / TCP (32 bytes) / 8 bytes: 82 bytes; tot_len:
        the inner IPv4 total length if not its 68 bytes."""
        kw = {} if tot_len is None else {"tot_len": tot_len}
        return inner(in_eth(ETH_IPV4), in_v4(6, **kw), pkt_tcp(n(), data=rbytes(8)))

    # VXLAN: the datagram ends before the IP payload does
    for udp_, outer in ((f.udp4, "IPv4"), (f.udp6, "IPv6")):
        udp_("%s / UDP length 20 (12 bytes after the UDP header) / VXLAN, "
             "inner eth / IPv4 / TCP in the IP payload after it: vxlan "
             "parsed, truncated at the inner eth" % outer, VXLAN_PORT,
             [vxlan(0x1701)] + v4tcp(), err=("truncated", 1), ulen=20)
        udp_("%s / UDP length 8 / VXLAN and its inner packet in the IP "
             "payload after it: truncated at vxlan" % outer, VXLAN_PORT,
             [vxlan(0x1702)] + v4tcp(), err=("truncated", 0), ulen=8)
        udp_("%s / UDP length 8 / Geneve (1 option) and its inner packet "
             "after it: truncated at geneve" % outer, GENEVE_PORT,
             [geneve(0x1703, ETH_TEB, [GOPT(0x0101, 1, rbytes(4))])] +
             v4tcp(), err=("truncated", 0), ulen=8)
    f.udp4("UDP length 16: the datagram ends right after the VXLAN header, "
           "an inner packet after it: truncated at the inner eth",
           VXLAN_PORT, [vxlan(0x1704)] + v4tcp(), err=("truncated", 1),
           ulen=16)
    f.udp4("UDP length 20, Geneve without options (protocol 0x6558), an "
           "inner packet after it: truncated at the inner eth", GENEVE_PORT,
           [geneve(0x1705, ETH_TEB)] + v4tcp(), err=("truncated", 1),
           ulen=20)
    f.udp6("IPv6 / UDP length 20 / Geneve with an 8-byte option (the "
           "option past the datagram): truncated at geneve", GENEVE_PORT,
           [geneve(0x1706, ETH_TEB, [GOPT(0x0102, 2, rbytes(4))])] + v4tcp(),
           err=("truncated", 0), ulen=20)
    inn = inner(in_v4(6), pkt_tcp(n()))
    f.udp6("IPv6 / UDP length 24: the datagram ends right after the Geneve "
           "header (1 option, protocol 0x0800): truncated at the inner ipv4",
           GENEVE_PORT, [geneve(0x1707, ETH_IPV4, [GOPT(0x0103, 3, rbytes(4))])] +
           inn, err=("truncated", 1), ulen=24)
    f.udp4("UDP length ends 10 bytes into the inner IPv4 header (VXLAN): "
           "truncated at the inner ipv4", VXLAN_PORT, [vxlan(0x1708)] +
           v4tcp(), err=("truncated", 2), ulen=8 + 8 + 14 + 10)
    f.udp4("UDP length ends 10 bytes into the inner TCP header, inner IPv4 "
           "total length 68 past it: truncated at the inner ipv4 (VXLAN)",
           VXLAN_PORT, [vxlan(0x1709)] + v4tcp(), err=("truncated", 2),
           ulen=8 + 8 + 14 + 20 + 10)
    f.udp4("UDP length and inner IPv4 total length both end 10 bytes into "
           "the inner TCP header: truncated at the inner tcp (VXLAN)",
           VXLAN_PORT, [vxlan(0x170A)] + v4tcp(tot_len=30),
           err=("truncated", 3), ulen=8 + 8 + 14 + 30)
    inn = inner(in_v6(0), hbh(17, [PADN(6)]),
                l4v6(udp(52100, 9), rbytes(16), I6A, I6B))
    f.udp4("UDP length ends inside the inner IPv6 payload (Geneve 0x86dd, "
           "payload length 32 past it): truncated at the inner ipv6",
           GENEVE_PORT, [geneve(0x170B, ETH_IPV6)] + inn,
           err=("truncated", 1), ulen=8 + 8 + 40 + 16)
    # VXLAN in VXLAN: the inner UDP length bounds the 2nd VXLAN header
    f.udp4("VXLAN in VXLAN, the inner UDP length 8: truncated at the 2nd "
           "vxlan (stack 1), before the 3rd stack's depth",
           VXLAN_PORT, [vxlan(0x170C)] + inner(
               in_eth(ETH_IPV4), in_v4(17), udp(40998, VXLAN_PORT, ulen=8),
               vxlan(0x170D)) + [in_eth(ETH_IPV4, 0x31, 0x32),
                                 payload(rbytes(30))],
           err=("truncated", 4))
    # well-formed: bytes after the datagram (in the IP payload) ignored
    inn = pin_lengths(inner(in_eth(ETH_IPV4), in_v4(17), pkt_udp(n(), rbytes(6))))
    f.udp4("VXLAN datagram (UDP length 8 + 8 + 48) followed by 20 bytes of "
           "IP payload: ok, inner eth / IPv4 / UDP, the 20 bytes ignored",
           VXLAN_PORT, [vxlan(0x170E)] + inn + [payload(rbytes(20))],
           ulen=8 + 8 + 48)
    inn = pin_lengths(inner(in_v6(6), pkt_tcp(n())))
    f.udp6("IPv6 / Geneve datagram (inner IPv6 / TCP) followed by 13 bytes "
           "of IP payload: ok, the 13 bytes ignored", GENEVE_PORT,
           [geneve(0x170F, ETH_IPV6, [GOPT(0x0104, 4, rbytes(8))])] + inn +
           [payload(rbytes(13))], ulen=8 + 20 + 72)

    # GTP-U: its Length ends the message
    def g4(desc, g, inn, err=None, after=b"", **kw):
        rest = [g] + inn + ([payload(after)] if after else [])
        f.udp4("GTP-U " + desc, GTPU_PORT, rest, err=err, **kw)

    inn = inner(in_v4(17), pkt_udp(n(), rbytes(8)))
    g4("G-PDU with Length 4, an inner IPv4 / UDP after it in the datagram: "
       "truncated at the inner ipv4", gtpu(255, 0x1711, length=4), inn,
       err=("truncated", 1))
    inn = inner(in_v4(17), pkt_udp(n(), rbytes(5)))
    g4("G-PDU with Length 1000 in a 41-byte UDP payload: truncated at gtpu",
       gtpu(255, 0x1712, length=1000), inn, err=("truncated", 0))
    for kw, what in (({"seq": 0x1713, "length": 3}, "S set, Length 3"),
                     ({"e": True, "length": 0}, "E set (next type 0), "
                      "Length 0"),
                     ({"npdu": 0x17, "length": 2}, "PN set, Length 2")):
        inn = inner(in_v4(17), pkt_udp(n(), rbytes(4)))
        g4("G-PDU, %s (< 4, the optional fields): bad_len at gtpu, "
           "error_off at the Length field" % what,
           gtpu(255, 0x1714, fail_off=2, **kw), inn, err=("bad_len", 0))
    inn = inner(in_v4(6), pkt_tcp(n()))
    g4("G-PDU, E set, a 1-word extension (0x85) past the Length 4: "
       "truncated at gtpu",
       gtpu(255, 0x1715, exts=[GEXT(0x85, b"\x00\x09")], length=4), inn,
       err=("truncated", 0))
    inn = inner(in_v4(6), pkt_tcp(n()))
    g4("G-PDU, 2 extensions (0x40, 0x85), the 2nd past the Length 8: "
       "truncated at gtpu",
       gtpu(255, 0x1716, seq=5, exts=[GEXT(0x40, b"\x08\x68"),
                                      GEXT(0x85, b"\x00\x01")], length=8),
       inn, err=("truncated", 0))
    inn = inner(in_v4(6), pkt_tcp(n()))
    g4("G-PDU whose Length ends 12 bytes into the inner TCP header (inner "
       "IPv4 total length 52 past it): truncated at the inner ipv4",
       gtpu(255, 0x1717, length=20 + 12), inn, err=("truncated", 1))
    inn = pin_lengths(inner(in_v4(17), pkt_udp(n(), rbytes(12))))
    g4("G-PDU (Length 40: inner IPv4 / UDP) with 10 more bytes in the "
       "datagram: ok, the 10 bytes ignored", gtpu(255, 0x1718, blob(inn)),
       inn, after=rbytes(10))
    inn = pin_lengths(inner(in_v6(17), pkt_udp(n(), rbytes(4))))
    f.udp6("IPv6 / GTP-U G-PDU with S and a PDU session container (Length "
           "60: inner IPv6 / UDP) and 6 more bytes in the datagram: ok",
           GTPU_PORT, [gtpu(255, 0x1719, blob(inn), seq=9,
                            exts=[GEXT(0x85, b"\x00\x05")])] + inn +
           [payload(rbytes(6))])
    g4("echo request with S, Length 4, 4 more bytes in the datagram: ok, "
       "walk ends after gtpu", gtpu(1, 0, seq=0x171A), [], after=rbytes(4))
    inn = pin_lengths(inner(in_v4(6), pkt_tcp(n())))
    g4("G-PDU whose Length (52: inner IPv4 / TCP) runs past a UDP length "
       "of 8 + 8 + 40, 12 bytes of IP payload after the datagram: "
       "truncated at gtpu", gtpu(255, 0x171B, blob(inn)), inn,
       err=("truncated", 0), ulen=8 + 8 + 40)
    inn = inner(in_v4(17), pkt_udp(n(), rbytes(4)))
    g4("G-PDU after a UDP length of 8 (the G-PDU and its inner IPv4 / UDP "
       "in the IP payload after the datagram): truncated at gtpu",
       gtpu(255, 0x171C, blob(inn)), inn, err=("truncated", 0), ulen=8)
    return c
