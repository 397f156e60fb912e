# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Tunnel headers (VXLAN, Geneve, GRE, GTP-U), MPLS label stacks, the packets
tunnels carry and the frames around them."""
import struct

from scapy.layers.inet6 import IPv6
from scapy.packet import Raw

from .common import (ACK, AUTO, EXT_NH, MAC, PSH, Spec, as_raw, blob, checksum, payload, rnd32,
                     shift_err)
from .l2 import eth, eth_v4, eth_v6
from .ipv4 import ipv4
from .ipv6 import ipv6
from .l4 import tcp, ts_opts, udp


# ---------------------------------------------------------------------------
# Tunnels and label stacks (ABI 2). Tunnel headers are hand-packed (every
# bit is set here); the headers of the packet a tunnel carries are the same
# specs as for an outer packet, with stack 1 (inner()).

ETH_TEB, ETH_MPLS, ETH_MPLS_MC = 0x6558, 0x8847, 0x8848
VXLAN_PORT, GENEVE_PORT, GTPU_PORT = 4789, 6081, 2152
# tunnel endpoints (outer) and inner hosts
T4A, T4B = "198.19.10.1", "198.19.10.2"
I4A, I4B = "198.18.20.1", "198.18.20.2"
T6A, T6B = "2001:db8:10::1", "2001:db8:10::2"
I6A, I6B = "2001:db8:20::1", "2001:db8:20::2"


def inner(*specs, stack=1):
    """specs (a list or lists of specs) moved to stack `stack`."""
    out = []
    for s in specs:
        for x in (s if isinstance(s, list) else [s]):
            x.stack = stack
            out.append(x)
    return out


def LSE(label, tc=0, s=0, ttl=64):
    return (label, tc, s, ttl)


def mpls(labels, fail_off=None):
    """One MPLS layer: label stack entries LSE(...), in order."""
    data = b"".join(struct.pack("!I", (lb << 12) | (tc << 9) | (s << 8) | t)
                    for lb, tc, s, t in labels)
    return Spec("mpls", len(data), Raw(load=data), "mpls",
                {"labels": [{"label": lb, "tc": tc, "s": s, "ttl": t}
                            for lb, tc, s, t in labels]}, fail_off=fail_off)


def gre(proto, body=b"", c=False, key=None, seq=None, ver=0, extra=0):
    """GRE (RFC 2784/2890). body: the bytes after the header (for the
    checksum, computed when c is set); extra: other flag bits."""
    flags = (0x8000 if c else 0) | (0x2000 if key is not None else 0) | \
        (0x1000 if seq is not None else 0) | extra | ver
    hdr = struct.pack("!HH", flags, proto)
    if c:
        hdr += b"\0\0\0\0"
    if key is not None:
        hdr += struct.pack("!I", key)
    if seq is not None:
        hdr += struct.pack("!I", seq)
    if c:
        hdr = hdr[:4] + struct.pack("!H", checksum(hdr + body)) + hdr[6:]
    f = {"flags": flags, "version": ver, "proto": proto,
         "checksum_present": c}
    if key is not None:
        f["key"] = key
    if seq is not None:
        f["seq"] = seq
    return Spec("gre", len(hdr), Raw(load=hdr), "gre", f)


def vxlan(vni, flags=0x08):
    data = bytes([flags, 0, 0, 0]) + struct.pack("!I", vni << 8)
    return Spec("vxlan", 8, Raw(load=data), "vxlan",
                {"flags": flags, "vni": vni})


def GOPT(cls, typ, data=b"", rsv=0):
    """Geneve option: class, type (bit 7: critical), data (4-byte words);
    rsv: the 3 reserved bits above the length."""
    assert len(data) % 4 == 0 and len(data) <= 124
    return struct.pack("!HBB", cls, typ, (rsv << 5) | len(data) // 4) + data


def geneve(vni, proto, opts=(), oam=False, crit=False, ver=0, bad=None,
           pad=b"", optlen=None):
    """Geneve (RFC 8926) with options opts (GOPT bytes) + [bad] (tlv_len)
    + pad; optlen: the option length field (words) if not the real one."""
    area = b"".join(opts) + (bad or b"") + pad
    assert len(area) % 4 == 0 and len(area) <= 252
    if optlen is None:
        optlen = len(area) // 4
    data = bytes([(ver << 6) | optlen, (0x80 if oam else 0) |
                  (0x40 if crit else 0)]) + struct.pack("!HI", proto,
                                                        vni << 8) + area
    rel, walked = 8, []
    for o in opts:
        walked.append((struct.unpack("!H", o[:2])[0], o[2], len(o), rel))
        assert len(o) == 4 + 4 * (o[3] & 31)
        rel += len(o)
    f = {"version": ver, "opt_len": 4 * optlen, "oam": oam, "critical": crit,
         "proto": proto, "vni": vni, "options": walked}
    return Spec("geneve", 8 + len(area), Raw(load=data), "geneve", f,
                bad_off=None if bad is None else rel)


def GEXT(typ, content):
    """GTP-U extension header `typ` (the type announced before it) with
    content between its length byte and its next-type byte."""
    assert (len(content) + 2) % 4 == 0
    return (typ, content)


def gtpu(msg, teid, body=b"", seq=None, npdu=None, exts=(), ver=1, pt=1,
         e=None, fail_off=None, length=None):
    """GTP-U (3GPP TS 29.281) header; body: the bytes after it (for the
    Length field: the optional fields, the extensions and body; length:
    the field's value if not that). E/S/PN follow exts/seq/npdu (e: force
    the E flag)."""
    exts = list(exts)
    ef = bool(exts) if e is None else e
    flags = (ver << 5) | (pt << 4) | (4 if ef else 0) | \
        (2 if seq is not None else 0) | (1 if npdu is not None else 0)
    opt = b""
    if flags & 7:
        opt = struct.pack("!HBB", seq or 0, npdu or 0,
                          exts[0][0] if exts else 0)
    for i, (_, content) in enumerate(exts):
        nxt = exts[i + 1][0] if i + 1 < len(exts) else 0
        opt += bytes([(len(content) + 2) // 4]) + content + bytes([nxt])
    if length is None:
        length = len(opt) + len(body)
    data = struct.pack("!BBHI", flags, msg, length, teid) + opt
    f = {"flags": flags, "version": ver, "msg_type": msg, "teid": teid,
         "length": length}
    if flags & 7:
        f["seq"] = seq or 0
    f["ext"] = [t for t, _ in exts]
    return Spec("gtpu", len(data), Raw(load=data), "gtpu", f,
                fail_off=fail_off)


# inner packets (stack 1 unless moved): a few reusable shapes

def in_eth(etype, a=0x21, b=0x22):
    return eth(MAC[b], MAC[a], etype)


def in_v4(proto, src=I4A, dst=I4B, **kw):
    return ipv4(src, dst, proto, opts=kw.pop("opts", []), **kw)


def in_v6(nh, src=I6A, dst=I6B, **kw):
    return ipv6(src, dst, nh, ext=True, **kw)


def pkt_tcp(n, opts=None, data=b""):
    t = tcp(51000 + n, 443, rnd32(), rnd32(), PSH | ACK, 4000,
            ts_opts() if opts is None else opts)
    return [t] + ([payload(data)] if data else [])


def pkt_udp(n, data=b""):
    return [udp(52000 + n, 9)] + ([payload(data)] if data else [])


class TunFrames:
    """Adds frames eth / outer IP / [UDP] / tunnel / inner to a capture."""

    def __init__(self, c):
        self.c, self.n = c, 0

    def nxt(self):
        self.n += 1
        return self.n

    def v4(self, desc, proto, rest, err=None, outer_eth=None, tags=(),
           **kw):
        """eth [tags] / IPv4 (proto) / rest; err: (error, index in rest)."""
        et = outer_eth or eth_v4()
        specs = [et] + list(tags) + [ipv4(T4A, T4B, proto, opts=[],
                                          ident=0x100 + self.n)] + rest
        self.add(desc, specs, 2 + len(tags), err, **kw)

    def v6(self, desc, nh, rest, err=None, chain=(), l4fix=False, **kw):
        """eth / IPv6 (nh) / chain / rest. l4fix: the first spec of rest
        is UDP, checksummed here (scapy does not see through chain)."""
        if chain:  # nh is what follows the chain
            assert chain[-1].fields["next_header"] == nh
            nh = EXT_NH[chain[0].proto]
        specs = [eth_v6(), ipv6(T6A, T6B, nh, ext=True)] + list(chain)
        rest = list(rest)
        if l4fix:
            p = IPv6(src=T6A, dst=T6B, nh=17) / rest[0].pkt / \
                Raw(load=blob(rest[1:]))
            rest[0] = as_raw(rest[0], bytes(p)[40:48])
        specs += rest
        self.add(desc, specs, 2 + len(chain), err, **kw)

    def udp(self, dport, sport, ulen=AUTO):
        """[UDP sport -> dport]; no sport: the next one of 40001, ...;
        ulen: the UDP length if not the rest of the IP payload."""
        return [udp(sport or 40000 + self.nxt(), dport, ulen)]

    def udp4(self, desc, dport, rest, err=None, sport=None, ulen=AUTO, **kw):
        """eth / IPv4 / UDP dport / rest; err: (error, index in rest)."""
        self.v4(desc, 17, self.udp(dport, sport, ulen) + rest, shift_err(err, 1),
                **kw)

    def udp6(self, desc, dport, rest, err=None, sport=None, ulen=AUTO, **kw):
        """eth / IPv6 / UDP dport / rest; err: (error, index in rest)."""
        self.v6(desc, 17, self.udp(dport, sport, ulen) + rest, shift_err(err, 1),
                **kw)

    def add(self, desc, specs, base, err, **kw):
        self.c.add(desc, *specs, err=shift_err(err, base), **kw)


def pin_lengths(specs):
    """specs (one packet: its IP, UDP and payload specs in order) with
    every length field left to scapy (AUTO) set to what the specs hold, so
    that bytes after them (past a datagram's end) count in none of them."""
    for i, s in enumerate(specs):
        rest = sum(x.hlen for x in specs[i:])
        for k, attr, v in (("tot_len", "len", rest),
                           ("payload_len", "plen", rest - 40),
                           ("ulen", "len", rest)):
            if s.fields.get(k, None) is AUTO:
                s.fields[k] = v
                setattr(s.pkt, attr, v)
    return specs


def mpls_frame(c, desc, labels, rest, etype=ETH_MPLS, tags=(), err=None,
               fail_off=None):
    """eth [tags] / MPLS labels / rest, added to capture c."""
    et = tags[0].tag["tpid"] if tags else etype
    c.add(desc, eth(MAC[2], MAC[1], et), *tags, mpls(labels, fail_off),
          *rest, err=err)
