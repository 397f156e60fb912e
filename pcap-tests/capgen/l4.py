# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""TCP (with its options), UDP, ICMP and ICMPv6 headers."""
import struct

from scapy.layers.inet import ICMP, TCP, UDP
from scapy.layers.inet6 import (ICMPv6EchoReply, ICMPv6EchoRequest, ICMPv6NDOptSrcLLAddr,
                                ICMPv6ND_NS)
from scapy.packet import Raw

from .common import ACK, AUTO, Spec, option_area, rnd32


# TCP options, as the bytes of one option each
NOP = b"\x01"
EOL = b"\x00"
SACKP = b"\x04\x02"


def MSS(v):
    return struct.pack("!BBH", 2, 4, v)


def WS(s):
    return bytes([3, 3, s])


def TS(val, ecr):
    return struct.pack("!BBII", 8, 10, val, ecr)


def SACK(*blocks):
    return bytes([5, 2 + 8 * len(blocks)]) + b"".join(
        struct.pack("!II", left, right) for left, right in blocks)


def OPT(kind, length, fill=0xA5):
    """Option `kind` with length byte `length` and length-2 filler bytes."""
    return bytes([kind, length]) + bytes([fill]) * (length - 2)


def ts_opts():
    """NOP NOP TS with random values: the options of most segments here."""
    return [NOP, NOP, TS(rnd32(), rnd32())]


def LINUX_SYN(ts, mss=1460, ws=7):
    return [MSS(mss), SACKP, TS(ts, 0), NOP, WS(ws)]


def decode_opts(opts):
    """The decoded TCP option fields docs/parsing.md defines."""
    out, seen = {}, set()
    for o in opts:
        k = o[0]
        if k in (0, 1):
            continue
        ln, body = o[1], o[2:]
        key = None
        if k == 2 and ln == 4:
            key, out["mss"] = "mss", struct.unpack("!H", body)[0]
        elif k == 3 and ln == 3:
            key, out["wscale"] = "ws", body[0]
        elif k == 4 and ln == 2:
            key, out["sack_perm"] = "sp", True
        elif k == 5 and ln in (10, 18, 26, 34):
            key = "sack"
            out["sack"] = [list(struct.unpack("!II", body[i:i + 8]))
                           for i in range(0, ln - 2, 8)]
        elif k == 8 and ln == 10:
            key = "ts"
            out["ts_val"], out["ts_ecr"] = struct.unpack("!II", body)
        # a decoded kind appearing twice would make the expectation depend
        # on which one wins: never build that.
        assert key is None or key not in seen, "duplicate decoded option"
        seen.add(key)
    return out


def tcp(sport, dport, seq=0, ack=0, flags=ACK, window=64240, opts=(),
        pad=b"", bad=None, doff=None, urgptr=0):
    """TCP header with option area opts + [bad] + pad.

    opts: well-formed options (an EOL ends the walk: put nothing but pad
    after it); bad: one malformed option (tlv_len); pad: bytes after the
    walk's end (after EOL or after bad) that are still in the area.
    """
    opts = list(opts)
    area, walked, bad_off = option_area(opts, bad, pad, base=20)
    if doff is None:
        assert len(area) % 4 == 0 and len(area) <= 40, len(area)
        doff = 5 + len(area) // 4
    p = TCP(sport=sport, dport=dport, seq=seq, ack=ack, flags=flags,
            window=window, dataofs=doff, urgptr=urgptr, options=[])
    if area:
        p = p / Raw(load=area)
    f = {"sport": sport, "dport": dport, "seq": seq, "ack": ack,
         "window": window, "hdr_len": doff * 4, "flags": flags}
    if bin(flags).count("1") == 1:
        f["flag_names"] = "CEUAPRSF"[7 - (flags.bit_length() - 1)]
    f["options"] = walked
    if bad is None:
        f.update(decode_opts(opts))
    return Spec("tcp", doff * 4, p, "tcp", f, opts=walked, bad_off=bad_off)


def udp(sport, dport, ulen=AUTO):
    kw = {}
    if ulen is not AUTO:
        kw["len"] = ulen
    return Spec("udp", 8, UDP(sport=sport, dport=dport, **kw), "udp",
                {"sport": sport, "dport": dport, "ulen": ulen})


def icmp(typ, code, ident=None, seq=None, data=b""):
    kw = {}
    f = {"type": typ, "code": code}
    if typ in (0, 8):
        kw = {"id": ident, "seq": seq}
        f.update({"id": ident, "seq": seq})
    p = ICMP(type=typ, code=code, **kw)
    if data:
        p = p / Raw(load=data)
    return Spec("icmp", 8, p, "icmp", f)


def icmp_unreach(code, inner):
    """ICMP destination unreachable quoting `inner` (a scapy IPerror/...)."""
    return Spec("icmp", 8, ICMP(type=3, code=code) / inner, "icmp",
                {"type": 3, "code": code})


def icmp6_echo(req, ident, seq, data=b""):
    cls = ICMPv6EchoRequest if req else ICMPv6EchoReply
    typ = 128 if req else 129
    return Spec("icmpv6", 8, cls(id=ident, seq=seq, data=data), "icmpv6",
                {"type": typ, "code": 0, "id": ident, "seq": seq})


def icmp6_ns(target, lladdr):
    return Spec("icmpv6", 8, ICMPv6ND_NS(tgt=target) /
                ICMPv6NDOptSrcLLAddr(lladdr=lladdr), "icmpv6",
                {"type": 135, "code": 0})


def l4_bytes(ip, l4):
    """The bytes of l4 (a Spec) as built under ip (a Spec): checksum ok."""
    whole = bytes(ip.pkt / l4.pkt)
    return whole[ip.hlen:]
