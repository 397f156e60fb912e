# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""The captures jumbo, jumbo_ext and jumbo_tunnels (9000-byte frames)."""
from .common import (ACK, C4, C6, ETH_IPV4, ETH_IPV6, MAC, PSH, R4, S4, S6, TPID_AD, TPID_Q,
                     payload, rbytes, rnd32)
from .capture import Capture
from .l2 import eth, eth_v4, eth_v6, tag
from .ipv4 import RR4, ipv4
from .ipv6 import (HMAC_TLV, O6, PAD1, PADN, RA6, SEG, ah, dsto, esp, frag6, ipv6, optsh, pad_opts,
                   padfill, rt_hdr, srh, v6frame)
from .l4 import EOL, MSS, NOP, OPT, SACK, SACKP, TS, WS, tcp, ts_opts, udp
from .tunnels import (ETH_TEB, GENEVE_PORT, GOPT, TunFrames, VXLAN_PORT, geneve, in_eth, in_v4,
                      in_v6, inner, pkt_tcp, vxlan)


# ---------------------------------------------------------------------------
# jumbo
#
# Frames up to 9000 bytes, to run multi-buffer (xdp.frags) packets through
# every hook. The XDP linear part of a test-run packet ends near byte 3520;
# a header straddling that boundary needs ~3500 bytes of headers in front of
# it, which only IPv6 extension headers and tunnels (a later issue) can give.
# So here: (a) big frames of every L4 with full option areas, (b) frames of
# exact lengths around the buffer boundaries (3519/3520/3521, 4096/4097,
# 7616/7617), (c) length checks whose bytes lie beyond the first buffer.


def cap_jumbo():
    c = Capture("jumbo", "jumbo frames")
    n = [0]

    def full_opts():
        return [MSS(8960), SACKP, TS(rnd32(), rnd32()), NOP, WS(7),
                NOP, NOP, SACK((rnd32(), rnd32()), (rnd32(), rnd32()))]

    def big_tcp(size, v6):
        """IPv4 or IPv6 / TCP with a full option area, frame `size`."""
        n[0] += 1
        t = tcp(46000 + n[0], 80, rnd32(), rnd32(), ACK if v6 else PSH | ACK,
                30000, full_opts())
        ip = ipv6(C6, S6, 6, fl=n[0]) if v6 else \
            ipv4(C4, S4, 6, ident=0x600 + n[0], df=True)
        c.add("%s/TCP, full option area, frame %d"
              % ("IPv6" if v6 else "IPv4", size),
              eth_v6() if v6 else eth_v4(), ip, t,
              payload(rbytes(size - 14 - ip.hlen - t.hlen)))

    def v4udp(size):
        n[0] += 1
        c.add("IPv4/UDP, frame %d" % size, eth_v4(),
              ipv4(C4, S4, 17, ident=0x600 + n[0]), udp(46000 + n[0], 9),
              payload(rbytes(size - 42)))

    for size in (1500, 3000, 4000, 8000, 9000):
        big_tcp(size, False)
        big_tcp(size, True)
        v4udp(size)
    for size in (3519, 3520, 3521, 3600, 4096, 4097, 7616, 7617, 9000):
        big_tcp(size, False)
        big_tcp(size, True)
    # deepest header stack this version has: 4 tags + IHL 15 + doff 15
    t = tcp(46100, 80, rnd32(), rnd32(), ACK, 30000, full_opts())
    specs = [eth(MAC[2], MAC[1], TPID_AD), tag(TPID_AD, 1, TPID_AD),
             tag(TPID_AD, 2, TPID_Q), tag(TPID_Q, 3, TPID_Q),
             tag(TPID_Q, 4, ETH_IPV4),
             ipv4(C4, S4, 6, ident=0x6ff, opts=[RR4(4, 9, [R4] * 9), EOL]),
             t]
    hl = 14 + 16 + 60 + 60
    c.add("4 tags + IPv4 IHL 15 + TCP doff 15 (150 bytes of headers), "
          "frame 9000", *specs, payload(rbytes(9000 - hl)))
    # lengths checked against bytes beyond the first buffer
    c.add("IPv4 total length one past a 9000-byte frame: truncated",
          eth_v4(), ipv4(C4, S4, 17, ident=0x700, tot_len=9000 - 14 + 1),
          udp(46200, 9), payload(rbytes(9000 - 42)),
          err=("truncated", 1))
    c.add("IPv6 payload length one past a 9000-byte frame: truncated",
          eth_v6(), ipv6(C6, S6, 17, plen=9000 - 54 + 1), udp(46201, 9),
          payload(rbytes(9000 - 62)), err=("truncated", 1))
    c.add("UDP length one past the IP payload of a 9000-byte frame: "
          "truncated", eth_v4(), ipv4(C4, S4, 17, ident=0x701),
          udp(46202, 9, ulen=9000 - 34 + 1), payload(rbytes(9000 - 42)),
          err=("truncated", 2))
    c.add("IPv4/UDP tot_len 3000 in a 9000-byte frame (6000 bytes of "
          "trailer ignored)", eth_v4(), ipv4(C4, S4, 17, ident=0x702),
          udp(46203, 9), payload(rbytes(3000 - 28)),
          trail=rbytes(6000 - 14))
    return c


# ---------------------------------------------------------------------------
# jumbo_ext (ABI 2): headers and options across byte 3520 of 9000-byte frames

EDGE = 3520


def cap_jumbo_ext():
    c = Capture("jumbo_ext", "extension headers across the linear part")
    n = [0]

    def around(proto, nh, start, at, opt, total):
        """Options header at `start`, `total` bytes, with option opt at
        frame offset `at`, padding around it."""
        before = at - (start + 2)
        after = total - 2 - before - len(opt)
        return optsh(proto, nh, padfill(before) + [opt] + padfill(after))

    def tail_tcp(opts, l4_off):
        n[0] += 1
        t = tcp(50000 + n[0], 80, rnd32(), rnd32(), ACK, 30000, opts)
        return t, 9000 - l4_off - t.hlen

    def frame(desc, chain, l4=None, l4_off=None, opts=None, **kw):
        if l4 is None:
            t, left = tail_tcp(opts or ts_opts(), l4_off)
        else:
            t, left = l4, 9000 - l4_off - l4.hlen
        v6frame(c, desc, chain, t, rbytes(left), **kw)
        assert len(c.frames[-1][1]) == 9000

    D = 2048  # the largest options header
    # (a) a hop-by-hop option across 3520: hop-by-hop is at most 2048
    # bytes, so it needs a dstopts header before it (hbh_not_first)
    for at, opt, what in ((EDGE - 2, RA6(0), "Router Alert (2 + 2)"),
                          (EDGE - 1, O6(0x3E, 4, 0x3E),
                           "unknown 0x3e: type before, length after"),
                          (EDGE - 4, O6(0xBE, 6, 0xBE),
                           "unknown 0xbe len 8 (4 + 4)"),
                          (EDGE, RA6(7), "Router Alert starting at 3520")):
        h0 = pad_opts("dstopts", 0, D)
        h1 = around("hopopts", 6, 54 + D, at, opt, D)
        frame("dstopts 2048 / hop-by-hop 2048 with %s at %d" % (what, at),
              [h0, h1], l4_off=54 + 2 * D)
    for at, opt, what in ((EDGE - 2, RA6(0), "Router Alert"),
                          (EDGE - 1, O6(0x7E, 2, 0x7E), "unknown 0x7e")):
        frame("hop-by-hop 2048 / dstopts 2048 with %s at %d" % (what, at),
              [pad_opts("hopopts", 60, D),
               around("dstopts", 6, 54 + D, at, opt, D)],
              l4_off=54 + 2 * D)
    frame("hop-by-hop 2048 / dstopts 2048: PadN(257) across 3520",
          [pad_opts("hopopts", 60, D), pad_opts("dstopts", 6, D)],
          l4_off=54 + 2 * D)
    # (b) an SRH TLV across 3520: dstopts 2048 then an SRH at 2102
    s0 = 54 + D
    nseg = 87  # segments end at 2102 + 8 + 1392 = 3502
    segs = ["2001:db8:5::%x" % (0x100 + i) for i in range(nseg)]
    for tlvs, what in (([HMAC_TLV(9, rbytes(32))], "HMAC TLV at 3502 across 3520"),
                       ([PADN(16, 4), O6(0x80, 4), PADN(2, 4)],
                        "PadN(16) then unknown TLV 0x80 (len 6) at 3518"),
                       ([PAD1] * 17 + [PADN(7, 4)],
                        "Pad1 x17 then PadN type byte at 3519, length byte at 3520")):
        s = srh(6, segs, 5, tlvs)
        frame("dstopts 2048 / SRH 87 segments, " + what,
              [pad_opts("dstopts", 43, D), s], l4_off=s0 + s.hlen, dst=segs[0])
    # (c) a TCP option across 3520: hop-by-hop 2048 + dstopts 1392, TCP
    # at 3494, option area 3514..3546
    t0 = 54 + D + 1392
    for opts, what in ((ts_opts() + [NOP, NOP, SACK((1, 2), (3, 4))],
                        "TS at 3516"),
                       ([NOP, NOP, NOP, NOP, MSS(8960), SACKP, TS(5, 6),
                         NOP, WS(7)], "MSS at 3518"),
                       ([NOP] * 5 + [WS(9), SACK((7, 8), (9, 10), (11, 12)),
                                     NOP, NOP],
                        "WS at 3519 (kind before, length after)"),
                       ([NOP] * 6 + [OPT(30, 20, 0x1e), NOP, NOP],
                        "unknown kind 30 len 20 starting at 3520")):
        frame("hop-by-hop 2048 / dstopts 1392 / TCP at %d, %s" % (t0, what),
              [pad_opts("hopopts", 60, D), pad_opts("dstopts", 6, 1392)],
              l4_off=t0, opts=opts)
    # (d) a fixed part across 3520: headers at 3518 (8-byte fixed part),
    # 3510 (AH, TCP)

    def pre(nh, upto):
        """hop-by-hop 2048 + dstopts to reach frame offset upto."""
        return [pad_opts("hopopts", 60, D), pad_opts("dstopts", nh, upto - 54 - D)]

    frame("SRH at 3518: fixed part across 3520, 2 segments",
          pre(43, 3518) + [srh(6, SEG[:2], 1, [PADN(8, 4)])],
          l4_off=3518 + 48, dst=SEG[0])
    frame("routing type 0 at 3518 (fixed part across 3520), 1 address",
          pre(43, 3518) + [rt_hdr(6, 0, 1, [SEG[0]])], l4_off=3518 + 24,
          dst=SEG[0])
    frame("fragment header at 3518 (across 3520), first fragment",
          pre(44, 3518) + [frag6(6, 0, 1, 0xfeed)], l4_off=3526)
    frame("AH at 3510 (12-byte fixed part across 3520), 12-byte ICV",
          pre(51, 3510) + [ah(6, 0x5005, 9, rbytes(12))], l4_off=3534)
    frame("dstopts at 3518: fixed part before 3520, first option (Router "
          "Alert) at 3520",
          [pad_opts("hopopts", 60, D), pad_opts("dstopts", 60, 1416),
           dsto(6, [RA6(3), PADN(2)])], l4_off=3526)
    frame("TCP at 3510: fixed header across 3520",
          pre(6, 3510), l4_off=3510)
    frame("TCP at 3518: source port before 3520, the rest after",
          pre(6, 3518), l4_off=3518,
          opts=[MSS(8960), SACKP, TS(rnd32(), 0), NOP, WS(7)])
    n[0] += 1
    frame("UDP at 3518 across 3520", pre(17, 3518), udp(50000 + n[0], 9),
          l4_off=3518)
    v6frame(c, "ESP at 3518 (SPI across 3520): walk ends",
            pre(50, 3518) + [esp(0x7007, 1)],
            tail=[payload(rbytes(9000 - 3526))])
    assert len(c.frames[-1][1]) == 9000
    return c


# ---------------------------------------------------------------------------
# jumbo_tunnels (ABI 2): 9000-byte frames with a tunnel header, a Geneve
# option or an inner TCP option across byte 3520. An outer IPv6 with
# hop-by-hop 2048 and a dstopts header of N bytes puts UDP at 2102 + N.


def cap_jumbo_tunnels():
    c = Capture("jumbo_tunnels", "tunnels across the linear part")
    f = TunFrames(c)
    n = f.nxt
    D = 2048

    def frame(desc, dlen, dport, *rest):
        """eth / IPv6 / hop-by-hop D / dstopts dlen / UDP dport / rest
        (specs or lists of specs), payload to 9000 bytes."""
        chain = [pad_opts("hopopts", 60, D), pad_opts("dstopts", 17, dlen)]
        rest = inner(*rest)
        rest[0].stack = 0  # the tunnel header
        size = 54 + D + dlen + 8 + sum(s.hlen for s in rest)
        rest.append(payload(rbytes(9000 - size)))
        f.udp6(desc, dport, rest, chain=chain, l4fix=True)
        assert len(c.frames[-1][1]) == 9000

    # Geneve at 3398: options from 3406, aligned on 4 from there
    for pre, what in ((GOPT(0x0101, 0x01, rbytes(108)),
                       "option header at 3518 (class before 3520, type and "
                       "length after)"),
                      (GOPT(0x0102, 0x02, rbytes(100)),
                       "option at 3510 with 16 data bytes across 3520")):
        opts = [pre, GOPT(0x0103, 0x83, rbytes(16)),
                GOPT(0x0104, 0x04, rbytes(4))]
        frame("IPv6 hop-by-hop 2048 dstopts 1288 / UDP / Geneve at 3398, "
              + what + ": inner eth / IPv4 / TCP", 1288, GENEVE_PORT,
              geneve(0x3520, ETH_TEB, opts), in_eth(ETH_IPV4), in_v4(6),
              pkt_tcp(n()))
    frame("Geneve at 3518 (fixed part across 3520), 2 options: inner IPv6 "
          "/ UDP", 1408, GENEVE_PORT,
          geneve(0x3521, ETH_IPV6, [GOPT(0x0105, 1, rbytes(4)),
                                    GOPT(0x0105, 2)]),
          in_v6(17), udp(52999, 9))
    frame("VXLAN at 3518 (across 3520): inner eth / IPv4 / UDP", 1408,
          VXLAN_PORT, vxlan(0x3522), in_eth(ETH_IPV4), in_v4(17),
          udp(52998, 9))
    # VXLAN at 3446: inner TCP at 3488, option area 3508..3548
    for opts, what in (([NOP] * 8 + [TS(rnd32(), rnd32()), NOP, NOP,
                                     SACK((1, 2), (3, 4)), NOP, NOP],
                        "TS at 3516"),
                       ([NOP] * 11 + [MSS(8960), WS(7), SACKP,
                                      TS(rnd32(), 0), NOP, NOP],
                        "MSS at 3519 (kind before 3520, length after)"),
                       ([NOP] * 12 + [OPT(30, 20, 0x1e)] + [NOP] * 8,
                        "kind 30 len 20 starting at 3520")):
        frame("IPv6 hop-by-hop 2048 dstopts 1336 / UDP / VXLAN: inner eth "
              "/ IPv4 / TCP at 3488, " + what, 1336, VXLAN_PORT,
              vxlan(0x3523), in_eth(ETH_IPV4), in_v4(6), pkt_tcp(n(), opts))
    return c
