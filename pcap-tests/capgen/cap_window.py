# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""The capture window_edge: headers around byte 256, where the parse's first
window ends (parsers/cursor.h, DYNPF_WIN).

The window holds a packet's first 256 bytes; a header or option area that
ends past them slides it (one bpf_dynptr_read()). These frames are 1000
bytes or less, so every hook takes them whole, linear XDP too: the slide is
run by each program, not only by the multi-buffer ones (jumbo_ext and
jumbo_tunnels put their edges at 3520). A header across byte 256, one just
after it, an option across it, an area walked in place after a slide, an
area longer than the window (copied behind it), tunnels whose inner packet
starts past it, and cuts at and after it.
"""
from .common import ACK, ETH_IPV4, ETH_IPV6, SYN, cut_at, rbytes, rnd32
from .capture import Capture
from .ipv6 import (O6, PADN, RA6, SEG, dsto, hbh, l4v6, optsh, pad_opts, padfill, srh, v6frame)
from .l4 import MSS, NOP, OPT, SACK, SACKP, TS, WS, tcp, ts_opts, udp
from .tunnels import (ETH_TEB, GENEVE_PORT, GOPT, TunFrames, VXLAN_PORT, geneve, in_eth, in_v4,
                      in_v6, inner, pkt_tcp, vxlan)

EDGE = 256
SIZE = 1000


def cap_window_edge():
    c = Capture("window_edge", "headers around byte 256, the first window's end")
    n = [0]

    def tcp_at(opts):
        n[0] += 1
        return tcp(51000 + n[0], 80, rnd32(), rnd32(), ACK, 30000, opts)

    def frame(desc, chain, l4_off, l4=None, opts=None, size=SIZE, **kw):
        """eth / IPv6 / chain / TCP (options opts) or l4 at l4_off, the
        frame padded with payload to size."""
        t = l4 if l4 is not None else tcp_at(opts if opts is not None else ts_opts())
        v6frame(c, desc, chain, t, rbytes(size - l4_off - t.hlen), **kw)
        assert len(c.frames[-1][1]) == size, len(c.frames[-1][1])

    def pre(nh, upto):
        """A dstopts header from byte 54 to frame offset upto."""
        return [pad_opts("dstopts", nh, upto - 54)]

    # (a) TCP's fixed header across 256, and just after it (after Ethernet
    # every header starts at 2 modulo 4: none starts at 256 itself)
    for at, what in ((246, "fixed header across 256"),
                     (254, "source port before 256, the rest after"),
                     (262, "after 256")):
        frame("dstopts %d / TCP at %d: %s" % (at - 54, at, what), pre(6, at), at)
    # (b) a TCP option across 256: TCP at 230, option area 250..290
    for opts, what in ((ts_opts() + [NOP, NOP, SACK((1, 2), (3, 4))], "TS at 250"),
                       ([NOP] * 4 + [MSS(1460), SACKP, TS(rnd32(), 0), NOP, WS(7)],
                        "MSS at 254"),
                       ([NOP] * 5 + [WS(9), SACK((7, 8), (9, 10), (11, 12)), NOP, NOP],
                        "WS at 255 (kind before, length after)"),
                       ([NOP] * 6 + [OPT(30, 20, 0x1e), NOP, NOP],
                        "unknown kind 30 len 20 starting at 256")):
        frame("dstopts 176 / TCP at 230, %s" % what, pre(6, 230), 230, opts=opts)
    # (c) UDP across 256
    n[0] += 1
    frame("dstopts 200 / UDP at 254 across 256", pre(17, 254), 254, l4=udp(51000 + n[0], 9))
    # (d) extension headers across 256: a fixed part, an option, a long area
    frame("dstopts 200 / SRH at 254 (fixed part across 256), 2 segments",
          pre(43, 254) + [srh(6, SEG[:2], 1, [PADN(8, 4)])], 254 + 48, dst=SEG[0])
    before = EDGE - 1 - (54 + 2)
    frame("dstopts 512 with Router Alert at 255 (type before 256, the rest after)",
          [optsh("dstopts", 6, padfill(before) + [RA6(5)] + padfill(512 - 2 - before - 4))],
          54 + 512)
    frame("hop-by-hop 8 / dstopts 1024 (copied behind the window) / TCP at 1086",
          [hbh(60, [PADN(6)]), pad_opts("dstopts", 6, 1024)], 54 + 8 + 1024, size=1300,
          opts=[MSS(1460), SACKP, TS(rnd32(), 0), NOP, WS(7)])
    segs = ["2001:db8:5::%x" % (0x200 + i) for i in range(16)]
    s = srh(6, segs, 3, [O6(0x80, 6), PADN(8, 4)])
    frame("SRH 16 segments (to byte %d) with TLVs past 256 / TCP" % (54 + s.hlen), [s],
          54 + s.hlen, dst=segs[0])
    frame("dstopts 8 / dstopts 192 / hop-by-hop-less chain: TCP at 254 with SYN options",
          [dsto(60, [PADN(6)]), pad_opts("dstopts", 6, 192)], 254,
          l4=tcp(51100, 443, rnd32(), 0, SYN, 64240,
                 [MSS(1460), SACKP, TS(rnd32(), 0), NOP, WS(7)]))

    # (e) tunnels whose inner headers cross or follow byte 256 (outer IPv4:
    # Geneve at 42, its options from 50)
    f = TunFrames(c)
    nx = f.nxt
    for first, what in (([GOPT(0x0201, 0x01, rbytes(124)), GOPT(0x0201, 0x11, rbytes(72))],
                         "option header at 254 (class before 256, type and length after)"),
                        ([GOPT(0x0202, 0x02, rbytes(124)), GOPT(0x0202, 0x12, rbytes(64))],
                         "option at 246 with 16 data bytes across 256")):
        opts = first + [GOPT(0x0203, 0x83, rbytes(16)), GOPT(0x0204, 0x04, rbytes(4))]
        f.udp4("IPv4 / UDP / Geneve, " + what + ": inner eth / IPv4 / TCP", GENEVE_PORT,
               [geneve(0x256, ETH_TEB, opts)] +
               inner(in_eth(ETH_IPV4), in_v4(6), pkt_tcp(nx())))
    f.udp4("IPv4 / UDP / Geneve with 252 bytes of options: inner eth / IPv6 / TCP at 356",
           GENEVE_PORT,
           [geneve(0x257, ETH_TEB, [GOPT(0x0205, i + 1, rbytes(56)) for i in range(4)] +
                   [GOPT(0x0206, 9, rbytes(8))])] +
           inner(in_eth(ETH_IPV6), in_v6(6), pkt_tcp(nx(), [MSS(1400), SACKP, NOP, NOP])))
    f.udp4("IPv4 / UDP / VXLAN: inner eth / IPv6 / dstopts 128 / TCP at 232, MSS at 254",
           VXLAN_PORT,
           [vxlan(0x258)] + inner(in_eth(ETH_IPV6), in_v6(60), pad_opts("dstopts", 6, 128),
                                  pkt_tcp(nx(), [NOP, NOP, MSS(1400), SACKP, NOP, WS(8)])))

    # (f) cuts at and after 256, the IPv6 payload length following the cut:
    # the walk stops at the header cut, truncated
    n[0] += 1
    full = pre(6, 246) + l4v6(tcp(51000 + n[0], 80, rnd32(), rnd32(), ACK, 30000,
                                  [MSS(1460), SACKP, TS(rnd32(), 0), NOP, WS(7)]),
                              rbytes(64))
    for cut, what in ((EDGE, "TCP's fixed header cut at 256"),
                      (EDGE + 20, "TCP's option area cut at 276"),
                      (246 + 20 + 20 + 1, "a byte of payload after the option area")):
        specs, j = cut_at(full, cut - 54)
        err = ("truncated", j) if full[j].proto == "tcp" else None
        v6frame(c, "dstopts 192 / TCP at 246, %s%s" % (what, ": truncated" if err else ""),
                specs, plen=cut - 54, err=err)
    return c
