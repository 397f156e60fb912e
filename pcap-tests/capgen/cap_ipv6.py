# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""The captures ipv6_ext, ipv6_ext_malformed and jumbograms."""
import struct

from scapy.layers.inet6 import ICMPv6EchoRequest, IPv6
from scapy.packet import Raw

from .common import (ACK, AUTO, C6, PSH, S6, Spec, as_raw, blob, cut_at, payload, raw_hdr, rbytes,
                     rnd32)
from .capture import Capture
from .ipv6 import (HMAC_TLV, HOA, JUMBO, O6, PAD1, PADN, RA6, SEG, ah, build_chain, dsto, esp,
                   frag6, hbh, held, l4v6, optsh, rt_hdr, srh, v6bytes, v6frame)
from .l4 import icmp6_echo, tcp, ts_opts, udp


# ---------------------------------------------------------------------------
# ipv6_ext (ABI 2)


def cap_ipv6_ext():
    c = Capture("ipv6_ext", "IPv6 extension headers")
    n = [0]

    def t(flags=PSH | ACK, opts=None):
        n[0] += 1
        return tcp(48000 + n[0], 80, rnd32(), rnd32(), flags, 2000,
                   ts_opts() if opts is None else opts)

    def u():
        n[0] += 1
        return udp(48000 + n[0], 9)

    def add(desc, chain, l4=None, data=None, **kw):
        if data is None:
            data = rbytes(24) if l4 is not None else b""
        v6frame(c, desc, chain, l4, data, **kw)

    # hop-by-hop
    add("hop-by-hop: Router Alert + PadN(2) / UDP (MLD-style, hlim 1)",
        [hbh(17, [RA6(0), PADN(2)])], u(), hlim=1)
    add("hop-by-hop: Router Alert + Pad1 Pad1 / ICMPv6 MLDv2 report",
        [hbh(58, [RA6(0), PAD1, PAD1])],
        Spec("icmpv6", 8, ICMPv6EchoRequest(type=143, code=0, id=0, seq=1),
             "icmpv6", {"type": 143, "code": 0}), data=rbytes(20), hlim=1)
    add("hop-by-hop: 6 Pad1 / TCP", [hbh(6, [PAD1] * 6)], t())
    add("hop-by-hop: PadN(14) (16-byte header) / UDP",
        [hbh(17, [PADN(14)])], u())
    add("hop-by-hop: Router Alert value 2 (RSVP), PadN(2), PadN(8) / TCP",
        [hbh(6, [RA6(2), PADN(2), PADN(8)])], t())
    tj = t(ACK)
    jd = rbytes(100)
    add("jumbo: payload length 0, hop-by-hop Jumbo Payload 140 (< 65,536, "
        "RFC 2675) / TCP: bad_hdr at hopopts (kept)",
        [held(hbh(6, [JUMBO(8 + tj.hlen + len(jd))]))], tj, jd, plen=0,
        err=("bad_hdr", 0))
    add("hop-by-hop: unknown types 0x1e (act 0) and 0x9e (act 2) / UDP",
        [hbh(17, [O6(0x1e, 2), O6(0x9e, 0)])], u())
    # destination options: unknown types with every action value
    for typ in (0x3E, 0x7E, 0xBE, 0xFE):
        add("dstopts: unknown type 0x%02x (action %d) len 4 / UDP"
            % (typ, typ >> 6), [dsto(17, [O6(typ, 4, typ)])], u())
    add("dstopts: unknown 0x3e 0x7e 0xbe 0xfe in one header (actions "
        "0..3) / TCP",
        [dsto(6, [O6(0x3E, 0), O6(0x7E, 1), O6(0xBE, 2), O6(0xFE, 3),
                  PADN(8)])], t())
    add("dstopts: PadN(6) / TCP", [dsto(6, [PADN(6)])], t())
    add("dstopts: Pad1 as the last byte (PadN(5) Pad1) / UDP",
        [dsto(17, [PADN(5), PAD1])], u())
    add("dstopts: Home Address option (0xc9, len 16) + PadN(4) / TCP",
        [dsto(6, [PADN(4), bytes([0xC9, 16]) + v6bytes(HOA)])], t())
    add("dstopts then next header 59: walk ends without error",
        [dsto(59, [PADN(6)])], tail=[payload(rbytes(16))])
    add("dstopts then unknown next header 253: walk ends after dstopts",
        [dsto(253, [PADN(6)])], tail=[payload(rbytes(16))])
    # routing
    add("routing type 0, 2 addresses, segments left 2 / UDP",
        [rt_hdr(17, 0, 2, [SEG[0], SEG[1]])], u(), dst=SEG[1])
    add("routing type 0, no address (8 bytes), segments left 0 / TCP",
        [rt_hdr(6, 0, 0)], t())
    add("routing type 2 (MIPv6), segments left 1 / TCP",
        [rt_hdr(6, 2, 1, [HOA])], t(), dst=HOA)
    add("routing type 3 (RPL, 8 + 16 bytes), segments left 1 / UDP",
        [rt_hdr(17, 3, 1, body=b"\x00\x00\x00\x00" + rbytes(16))], u())
    add("routing type 253 (unknown), segments left 0 / UDP",
        [rt_hdr(17, 253, 0, body=rbytes(12))], u())
    # SRv6 SRH
    add("SRH 1 segment, segments left 0, no TLV / UDP",
        [srh(17, SEG[:1], 0)], u(), dst=SEG[0])
    add("SRH 2 segments, segments left 1, PadN TLV (8 bytes) / TCP",
        [srh(6, SEG[:2], 1, [PADN(8, 4)])], t(), dst=SEG[0])
    add("SRH 3 segments, segments left 2, flags 0x80 tag 0x1234, HMAC TLV "
        "(32-byte HMAC) / TCP",
        [srh(6, SEG[:3], 2, [HMAC_TLV(0x11223344, rbytes(32))], flags=0x80,
             tag=0x1234)], t(), dst=SEG[0])
    add("SRH 4 segments, segments left 3, TLVs Pad1 unknown(0x80, len 6) "
        "Pad1 PadN(8) HMAC / UDP",
        [srh(17, SEG[:4], 3, [PAD1, O6(0x80, 4, 0x80), PAD1, PADN(8, 4),
                              HMAC_TLV(7, rbytes(32))])], u(), dst=SEG[0])
    add("SRH 1 segment, HMAC TLV with the D flag, key id 0xdeadbeef, "
        "16-byte HMAC, then PadN(8) / UDP",
        [srh(17, SEG[:1], 0, [HMAC_TLV(0xdeadbeef, rbytes(16), d=True),
                              PADN(8, 4)])], u(), dst=SEG[0])
    add("SRH 2 segments, two HMAC TLVs (key ids 1 then 2, D flag on the "
        "first only): the last counts / UDP",
        [srh(17, SEG[:2], 1, [HMAC_TLV(1, rbytes(8), d=True),
                              HMAC_TLV(2, rbytes(8)), PADN(8, 4)])], u(),
        dst=SEG[0])
    add("SRH 1 segment, HMAC TLV of 4 data bytes (no room for a key id): "
        "listed, not decoded / UDP",
        [srh(17, SEG[:1], 0, [O6(5, 4), PADN(10, 4)])], u(), dst=SEG[0])
    add("SRH 4 segments, segments left 0, TLVs unknown(0x7f) + PadN / "
        "ICMPv6 echo",
        [srh(58, SEG[:4], 0, [O6(0x7F, 2), PADN(4, 4)], tag=0xffff)],
        icmp6_echo(True, 0x55, 1, rbytes(24)), data=b"", dst=SEG[0])
    # fragments
    tf = t()
    whole = bytes(IPv6(src=C6, dst=S6, nh=6) / tf.pkt /
                  Raw(load=rbytes(2960)))[40:]
    fr = [whole[0:1448], whole[1448:2896], whole[2896:]]
    add("fragment first (offset 0, M) / TCP",
        [frag6(6, 0, 1, 0xabc001)], tail=[as_raw(tf, fr[0][:tf.hlen]),
                                          payload(fr[0][tf.hlen:])])
    add("fragment middle (offset 181, M): no L4 (nonfirst_frag)",
        [frag6(6, 181, 1, 0xabc001)], tail=[payload(fr[1])])
    add("fragment last (offset 362): no L4 (nonfirst_frag)",
        [frag6(6, 362, 0, 0xabc001)], tail=[payload(fr[2])])
    add("fragment middle whose payload is a valid TCP header: no L4",
        [frag6(6, 1, 1, 0xabc002)], tail=[payload(fr[0][:40])])
    add("fragment first / UDP length 3000 (> the fragment): not an error",
        [frag6(17, 0, 1, 0xabc003)],
        tail=[udp(48100, 9, ulen=3000), payload(rbytes(64))])
    add("atomic fragment (offset 0, no M) / TCP",
        [frag6(6, 0, 0, 0xabc004)], t())
    # AH / ESP
    add("AH (24 bytes, 12-byte ICV) / TCP",
        [ah(6, 0x1001, 1, rbytes(12))], t())
    add("AH minimum (12 bytes, payload len 1) / UDP",
        [ah(17, 0x1002, 2)], u())
    add("ESP: walk ends after it (the rest is encrypted)",
        [esp(0x3001, 1)], tail=[payload(rbytes(64))])
    add("hop-by-hop then ESP: walk ends after esp",
        [hbh(50, [PADN(6)]), esp(0x3002, 7)], tail=[payload(rbytes(48))])
    add("AH then ESP: walk ends after esp",
        [ah(50, 0x1003, 3, rbytes(12)), esp(0x3003, 3)],
        tail=[payload(rbytes(48))])
    # chains of 0..8 headers
    kinds = ["hopopts", "dstopts", "routing", "fragment", "ah", "dstopts",
             "routing", "ah"]
    for k in range(0, 9):
        pr = kinds[:k]
        l4 = t() if k % 2 else u()
        add("chain of %d extension header%s (%s) / %s" %
            (k, "" if k == 1 else "s", " ".join(pr) or "none", l4.proto),
            build_chain(pr, 6 if l4.proto == "tcp" else 17, 0x40 + k), l4)
    add("chain of 8 dstopts (repeated) / UDP",
        build_chain(["dstopts"] * 8, 17, 0x60), u())
    add("chain of 7 headers ending in ESP (no repeated header)",
        build_chain(["hopopts", "dstopts", "routing", "fragment", "ah",
                     "dstopts", "esp"], 0, 0x68), tail=[payload(rbytes(32))])
    # 9..12 headers: depth at the 9th
    for k in range(9, 13):
        ninth = ["dstopts", "fragment", "routing", "ah"][k - 9]
        pr = (kinds + [ninth, "dstopts", "fragment", "dstopts"])[:k]
        l4 = u()
        add("chain of %d extension headers: depth at the 9th (%s)" %
            (k, pr[8]), build_chain(pr, 17, 0x70 + k), l4,
            err=("depth", 8))
    pr = ["hopopts", "dstopts", "routing", "fragment", "ah", "dstopts",
          "ah", "fragment", "esp"]
    add("chain of 9 headers, the 9th is ESP: depth at it",
        build_chain(pr, 0, 0x80), tail=[payload(rbytes(24))],
        err=("depth", 8))
    add("loop: 12 dstopts headers (repeated), depth at the 9th",
        build_chain(["dstopts"] * 12, 17, 0x90), u(), err=("depth", 8))
    # RFC 8200 order violations: flagged, not errors
    add("dstopts then hop-by-hop (hbh_not_first) / TCP",
        build_chain(["dstopts", "hopopts"], 6, 0xa0), t())
    add("hop-by-hop twice (hbh_not_first and repeated) / UDP",
        build_chain(["hopopts", "hopopts"], 17, 0xa2), u())
    add("dstopts routing dstopts (dstopts twice: allowed) / TCP",
        build_chain(["dstopts", "routing", "dstopts"], 6, 0xa4), t(),
        dst=SEG[0])
    add("dstopts routing dstopts dstopts (three times: repeated) / UDP",
        build_chain(["dstopts", "routing", "dstopts", "dstopts"], 17,
                    0xa8), u(), dst=SEG[0])
    add("routing twice (repeated) / UDP",
        build_chain(["routing", "routing"], 17, 0xac), u(), dst=SEG[0])
    add("fragment twice (repeated) / TCP",
        build_chain(["fragment", "fragment"], 6, 0xae), t())
    add("AH twice (repeated) / UDP", build_chain(["ah", "ah"], 17, 0xb0),
        u())
    # family list overflow: one dstopts header with 48 options
    add("dstopts with 50 options (46 Pad1, PadN(2), PadN(4), 2 Pad1): "
        "the list keeps 40, tlv_overflow dstopts_opt",
        [dsto(6, [PAD1] * 46 + [PADN(2), PADN(4)] + [PAD1] * 2)], t())
    return c


# ---------------------------------------------------------------------------
# ipv6_ext_malformed (ABI 2)


def cap_ipv6_ext_malformed():
    c = Capture("ipv6_ext_malformed", "malformed IPv6 extension headers")
    n = [0]

    def u():
        n[0] += 1
        return udp(49000 + n[0], 9)

    def add(desc, chain, l4=None, data=b"", **kw):
        v6frame(c, desc, chain, l4, data, **kw)

    # header length past the IP payload: truncated at the header
    for proto in ("hopopts", "dstopts"):
        h = optsh(proto, 17, [PADN(6)])
        add("%s hdr ext len 3 (32 bytes), 16 bytes of IP payload: "
            "truncated" % proto,
            [raw_hdr(proto, b"\x11\x03" + bytes(h.pkt)[2:] + rbytes(8))],
            err=("truncated", 0))
        add("%s with 1 byte of IP payload: truncated" % proto,
            [raw_hdr(proto, b"\x11")], err=("truncated", 0))
    add("routing type 0 hdr ext len 4 (40 bytes), 24 bytes of payload: "
        "truncated",
        [raw_hdr("routing", bytes(rt_hdr(17, 0, 2, [SEG[0]]).pkt)[:1] +
                 b"\x04" + bytes(rt_hdr(17, 0, 2, [SEG[0]]).pkt)[2:])],
        err=("truncated", 0))
    add("routing header with 6 bytes of payload (< 8): truncated",
        [raw_hdr("routing", b"\x11\x00\x00\x00\x00\x00")],
        err=("truncated", 0))
    add("SRH hdr ext len 6 (56 bytes), 40 bytes of payload: truncated",
        [raw_hdr("routing", bytes(srh(17, SEG[:2], 1, hel=6).pkt))],
        err=("truncated", 0))
    add("dstopts fits the frame but not payload_len (trailer after it): "
        "truncated", [raw_hdr("dstopts", bytes(dsto(17, [PADN(14)]).pkt)
                              [:8])],
        tail=[Spec(None, 8, Raw(load=bytes(dsto(17, [PADN(14)]).pkt)
                                [8:]))], trail=rbytes(24),
        plen=8, err=("truncated", 0))
    add("second header (dstopts after hop-by-hop) past the payload: "
        "truncated at it",
        [hbh(60, [RA6(0), PADN(2)]),
         raw_hdr("dstopts", b"\x11\x02" + rbytes(14))],
        err=("truncated", 1))
    add("payload length 0 (a jumbogram's), hop-by-hop hdr ext len 2 (24) "
        "in a frame with 16 bytes after ipv6: truncated",
        [raw_hdr("hopopts", b"\x06\x02" + JUMBO(100) + rbytes(8))],
        plen=0, err=("truncated", 0))
    # option past the area: tlv_len, header kept
    add("hop-by-hop: Router Alert len 10 in an 8-byte header: tlv_len",
        [hbh(17, [PAD1], bad=b"\x05\x0a\x00\x00\x00")], u(), rbytes(8),
        err=("tlv_len", 0))
    add("hop-by-hop: PadN len 255 (first option): tlv_len",
        [hbh(6, [], bad=b"\x01\xff" + b"\0" * 12)], err=("tlv_len", 0),
        tail=[payload(rbytes(20))])
    add("dstopts: type byte (0x3e) with no length byte at the area end: "
        "tlv_len", [dsto(17, [PADN(5)], bad=b"\x3e")], u(), rbytes(8),
        err=("tlv_len", 0))
    add("dstopts: unknown 0xfe len 5 overrunning by 1 after PadN: "
        "tlv_len", [dsto(17, [PADN(8)], bad=b"\xfe\x05" + b"\0" * 4)], u(),
        err=("tlv_len", 0))
    add("hop-by-hop ok, then dstopts with Jumbo len 4 overrunning: tlv_len "
        "at the 2nd header",
        [hbh(60, [RA6(0), PADN(2)]),
         dsto(17, [PADN(3)], bad=b"\xc2\x04\x00")], u(), err=("tlv_len", 1))
    # SRH
    add("SRH last entry 1 (2 segments) in a 24-byte header: bad_len",
        [raw_hdr("routing", struct.pack("!BBBBBBH", 17, 2, 4, 1, 1, 0, 0) +
                 v6bytes(SEG[0]))], u(),
        rbytes(8), err=("bad_len", 0))
    add("SRH last entry 255 in a 40-byte header: bad_len",
        [raw_hdr("routing", struct.pack("!BBBBBBH", 6, 4, 4, 0, 255, 0, 0) +
                 v6bytes(*SEG[:2]))], u(), rbytes(8),
        err=("bad_len", 0))
    add("SRH TLV (PadN len 10) overrunning an 8-byte TLV area: tlv_len",
        [srh(17, SEG[:1], 0, [], bad=b"\x04\x0a" + b"\0" * 6)], u(),
        err=("tlv_len", 0))
    add("SRH HMAC TLV (len 38) with 22 bytes of TLV area left: tlv_len",
        [srh(17, SEG[:2], 1, [PAD1, PAD1], bad=HMAC_TLV(1, rbytes(32))[:22])],
        u(), err=("tlv_len", 0))
    add("SRH TLV type byte with no length byte at the end: tlv_len",
        [srh(17, SEG[:1], 0, [PADN(7, 4)], bad=b"\x80")], u(),
        err=("tlv_len", 0))
    # AH
    add("AH payload len 0 (total 8 < 12), 32 bytes follow: bad_len",
        [ah(17, 0x1111, 1, plen=0)], tail=[payload(rbytes(32))],
        err=("bad_len", 0))
    add("AH payload len 10 (48 bytes), 24 bytes of payload: truncated",
        [raw_hdr("ah", bytes(ah(17, 0x1112, 1, rbytes(12), plen=10).pkt))],
        err=("truncated", 0))
    add("AH with 10 bytes of payload (< 12): truncated",
        [raw_hdr("ah", bytes(ah(17, 0x1113, 1).pkt)[:10])],
        err=("truncated", 0))
    # fragment, ESP
    add("fragment header with 4 bytes of payload: truncated",
        [raw_hdr("fragment", bytes(frag6(17, 0, 1, 0x5151).pkt)[:4])],
        err=("truncated", 0))
    add("ESP with 6 bytes of payload: truncated",
        [raw_hdr("esp", struct.pack("!IH", 0x4444, 0))],
        err=("truncated", 0))
    add("hop-by-hop then ESP with 3 bytes: truncated at esp",
        [hbh(50, [PADN(6)]), raw_hdr("esp", b"\x00\x00\x44")],
        err=("truncated", 1))
    # a chain cut at every byte (payload_len follows the cut)
    pr = ["hopopts", "dstopts", "routing", "fragment", "ah"]
    chain = build_chain(pr, 17, 0xc0)
    chain[2] = rt_hdr(44, 0, 0)  # an 8-byte routing header
    l4 = l4v6(udp(49100, 9))
    full = chain + l4
    for cut in range(len(blob(full))):
        specs, j = cut_at(full, cut)
        add("chain hopopts dstopts routing fragment ah / udp cut to %d "
            "bytes of payload: truncated at %s" % (cut, full[j].proto),
            specs, plen=cut, err=("truncated", j))
    return c


# ---------------------------------------------------------------------------
# jumbograms (RFC 2675): payload length 0 and a Jumbo Payload option in the
# hop-by-hop header right after the IPv6 header, whose value (>= 65,536)
# counts the bytes after the IPv6 header. Every fault is the hop-by-hop
# header's: bad_hdr or truncated with that header kept in layers (its
# options were walked) and error_off at its start, even when the fault is
# found at a later header (a fragment header).


def cap_jumbograms():
    c = Capture("jumbograms", "IPv6 jumbograms (RFC 2675)")
    n = [0]

    def t(opts=None):
        n[0] += 1
        return tcp(47000 + n[0], 80, rnd32(), rnd32(), ACK, 4000,
                   ts_opts() if opts is None else opts)

    def u(ulen=AUTO):
        n[0] += 1
        return udp(47000 + n[0], 9, ulen)

    def big(desc, chain, jumbo, trail=b"", l4=None, **kw):
        """a jumbogram of `jumbo` bytes after the IPv6 header: chain / TCP
        / filler; trail: bytes after it in the frame. An xdp.frags test run
        takes 17 fragments of 4096 bytes after the linear part, which the
        sweep of run.sh (--xdp-linear 14-128) makes as small as 14 bytes:
        a frame of at most 14 + 17 * 4096 = 69646 bytes."""
        l4 = l4 or t()
        left = jumbo - sum(h.hlen for h in chain) - l4.hlen
        v6frame(c, desc, chain, l4, rbytes(left), plen=0, trail=trail, **kw)
        assert len(c.frames[-1][1]) == 14 + 40 + jumbo + len(trail)
        assert len(c.frames[-1][1]) <= 14 + 17 * 4096

    # well-formed: the Jumbo value bounds the payload
    big("jumbogram of 68000 bytes: hop-by-hop Jumbo 68000 / TCP (frame "
        "68054; xdp and tc test runs skip it)", [hbh(6, [JUMBO(68000)])],
        68000)
    big("jumbogram of 65536 (the smallest): Jumbo 65536, PadN(8) / TCP, 20 "
        "bytes of trailer after it (ignored)",
        [hbh(6, [JUMBO(65536), PADN(8)])], 65536,
        trail=rbytes(20))
    # the Jumbo value past the packet: truncated at hopopts
    l4 = u(18)
    v6frame(c, "payload length 0, Jumbo 70000 in a 26-byte payload "
            "(hop-by-hop 8, UDP 18): truncated at hopopts (kept)",
            [held(hbh(17, [JUMBO(70000)]))], l4, rbytes(10), plen=0,
            err=("truncated", 0))
    l4 = u()
    v6frame(c, "payload length 0, Jumbo 65536 with 65535 bytes after the "
            "IPv6 header (one short): truncated at hopopts (kept)",
            [held(hbh(17, [JUMBO(65536)]))], l4, rbytes(65535 - 16),
            plen=0, err=("truncated", 0))
    # RFC 2675 section 3: bad_hdr at hopopts
    l4 = u()
    v6frame(c, "payload length 0, Jumbo 8946 (< 65,536) and 8946 bytes of "
            "payload (frame 9000): bad_hdr at hopopts (kept)",
            [held(hbh(17, [JUMBO(8946)]))], l4, rbytes(8946 - 16),
            plen=0, err=("bad_hdr", 0))
    l4 = u()
    v6frame(c, "payload length 0, Jumbo 65535 (one below the minimum): "
            "bad_hdr at hopopts (kept)",
            [held(hbh(17, [JUMBO(65535)]))], l4, rbytes(24), plen=0,
            err=("bad_hdr", 0))
    l4 = u()
    v6frame(c, "payload length 100 and a Jumbo option (70000): bad_hdr at "
            "hopopts (kept)", [held(hbh(17, [JUMBO(70000)]))], l4,
            rbytes(100 - 16), err=("bad_hdr", 0))
    l4 = u()
    v6frame(c, "payload length 0, hop-by-hop (Router Alert, PadN) with no "
            "Jumbo option: bad_hdr at hopopts (kept)",
            [held(hbh(17, [RA6(0), PADN(2)]))], l4, rbytes(40), plen=0,
            err=("bad_hdr", 0))
    l4 = u()
    v6frame(c, "payload length 0, hop-by-hop with option 0xc2 of 2 data "
            "bytes (not a Jumbo Payload option, len 4): bad_hdr at hopopts "
            "(kept)", [held(hbh(17, [O6(0xC2, 2, 0), PADN(2)]))], l4,
            rbytes(40), plen=0, err=("bad_hdr", 0))
    big("jumbogram of 68000 with a fragment header after hop-by-hop: "
        "bad_hdr at hopopts (kept; the fragment header not listed)",
        [held(hbh(44, [JUMBO(68000)])), frag6(6, 0, 1, 0x2675)], 68000,
        err=("bad_hdr", 0))
    # RFC 2675 section 4: a UDP jumbogram's length is 0, its datagram the rest
    big("UDP jumbogram of 68000: Jumbo 68000 / UDP length 0 (RFC 2675 "
        "section 4: the datagram runs to the jumbogram's end)",
        [hbh(17, [JUMBO(68000)])], 68000, l4=u(0))
    return c
