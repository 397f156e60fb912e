#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Generate the dynpf test captures and their expected results.

Usage: gen.py [--list] [OUTDIR]

Writes NAME.pcap (classic pcap, linktype Ethernet) and NAME.expect.jsonl for
every capture into OUTDIR (default: the folder of this script). With --list,
prints what every packet is meant to be (pcap, number, description) instead.

The expected values are derived from what this script builds (the header
fields it sets, the offsets it knows, and for a malformed packet the error
docs/parsing.md assigns to it), never from running dynpf. The record format
is the one of docs/json-output.md; every line holds a subset of the packet
record (fields left out are not compared).

Output is deterministic: a fixed seed per capture, fixed timestamps, no clock
input.
Addresses are from 198.18.0.0/15, 2001:db8::/32 and 02:00:00:00:00:xx.
"""
import os
import sys

SYS_PY = "/usr/bin/python3"
try:
    import scapy  # noqa: F401  pylint: disable=unused-import
except ImportError:
    # `python3` on PATH may be an interpreter without scapy (pyenv); Debian's
    # python3-scapy lives with /usr/bin/python3.
    if os.path.exists(SYS_PY) and \
            os.path.realpath(sys.executable) != os.path.realpath(SYS_PY):
        os.execv(SYS_PY, [SYS_PY] + sys.argv)
    raise

import ipaddress
import json
import logging
import random
import socket
import struct

logging.getLogger("scapy").setLevel(logging.ERROR)

from scapy.layers.dns import DNS, DNSQR, DNSRR  # noqa: E402
from scapy.layers.inet import (ICMP, IP, TCP, UDP, IPerror,  # noqa: E402
                               UDPerror)
from scapy.layers.inet6 import (ICMPv6EchoReply,  # noqa: E402
                                ICMPv6EchoRequest, ICMPv6ND_NS,
                                ICMPv6NDOptSrcLLAddr, IPv6,
                                IPv6ExtHdrFragment, IPv6ExtHdrHopByHop,
                                RouterAlert)
from scapy.layers.l2 import ARP, LLC, STP, Dot1Q, Dot3, Ether  # noqa: E402
from scapy.packet import Raw  # noqa: E402
from scapy.utils import RawPcapWriter  # noqa: E402

SEED = 0x64796E70  # "dynp"
TS0 = 1700000000  # capture timestamps: TS0 + (packet index) ms

# ---------------------------------------------------------------------------
# Addresses

MAC = ["02:00:00:00:00:%02x" % i for i in range(256)]
BCAST = "ff:ff:ff:ff:ff:ff"
C4, S4, R4 = "198.18.0.1", "198.18.0.2", "198.19.0.1"  # client, server, router
C6, S6 = "2001:db8::1", "2001:db8::2"
# IPv6 addresses whose RFC 5952 text needs care (json: the compressed form)
C6B = "2001:db8:0:0:1:0:0:1"   # -> 2001:db8::1:0:0:1 (first longest run)
S6B = "2001:db8:0:1:1:1:1:1"   # -> 2001:db8:0:1:1:1:1:1 (one 0 not compressed)
C6C = "2001:DB8:AB:CD::EF"     # -> 2001:db8:ab:cd::ef (lower case)

ETH_IPV4, ETH_ARP, ETH_IPV6 = 0x0800, 0x0806, 0x86DD
TPID_Q, TPID_AD = 0x8100, 0x88A8
L4_PROTOS = ("tcp", "udp", "icmp", "icmpv6")

# TCP flag bits
FIN, SYN, RST, PSH, ACK, URG, ECE, CWR = 1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80

AUTO = object()  # a length field scapy computes; the expectation follows it


def v6text(a):
    return str(ipaddress.IPv6Address(a))  # RFC 5952 form


def rnd32():
    return random.getrandbits(32)


def rbytes(n):
    return bytes(random.getrandbits(8) for _ in range(n))


def text_payload(n):
    """n bytes of printable filler (deterministic)."""
    s = b"dynpf-test-payload-"
    return (s * (n // len(s) + 1))[:n]


# ---------------------------------------------------------------------------
# Header specs. A frame is a list of specs; each spec is one header (proto
# set: it becomes a layer if the walk reaches it) or opaque bytes (proto None:
# the walk never looks at them). Every spec carries the scapy object that
# produces its bytes and the fields its json object must show.


class Spec:
    def __init__(self, proto, hlen, pkt, key=None, fields=None, **kw):
        self.proto = proto      # layer name, or None for payload bytes
        self.hlen = hlen        # header bytes (layer len)
        self.pkt = pkt          # scapy packet producing the bytes
        self.key = key          # record key of the json object, if any
        self.fields = dict(fields or {})
        self.nxt = kw.get("nxt")        # eth/tag: ethertype that follows
        self.tag = kw.get("tag")        # tag: dict for eth.vlans
        self.opts = kw.get("opts")      # tcp: [(kind, len, rel_off)]
        self.bad_off = kw.get("bad_off")  # rel. offset of a bad option
        self.ext = kw.get("ext")        # ipv6: give the ABI-2 chain fields
        self.stack = kw.get("stack", 0)  # 0 outermost, 1 inside a tunnel
        # a header that fails with its error_off inside it (MPLS depth,
        # GTP-U extensions): offset relative to the header, layer not kept
        self.fail_off = kw.get("fail_off")


def as_raw(spec, data):
    """spec with its bytes replaced by data (e.g. the first bytes of a
    datagram built whole, so a first fragment carries its real checksum)."""
    assert len(data) == spec.hlen
    s = Spec(spec.proto, spec.hlen, Raw(load=data), spec.key, spec.fields,
             nxt=spec.nxt, tag=spec.tag, opts=spec.opts, ext=spec.ext,
             stack=spec.stack, fail_off=spec.fail_off)
    s.bad_off = spec.bad_off
    return s


def payload(data):
    return Spec(None, len(data), Raw(load=data))


def raw_hdr(proto, data):
    """Bytes that the walk will take as header `proto` (malformed ones)."""
    return Spec(proto, len(data), Raw(load=data))


def eth(dst, src, etype):
    return Spec("eth", 14, Ether(dst=dst, src=src, type=etype), "eth",
                {"dst": dst, "src": src}, nxt=etype)


def tag(tpid, vid, nxt, pcp=0, dei=0):
    """One VLAN tag; tpid is the ethertype of the header before it."""
    proto = {TPID_Q: "vlan", TPID_AD: "qinq"}[tpid]
    return Spec(proto, 4, Dot1Q(prio=pcp, id=dei, vlan=vid, type=nxt),
                nxt=nxt, tag={"tpid": tpid, "vid": vid, "pcp": pcp,
                              "dei": dei})


def arp(op, sha, spa, tha, tpa):
    return Spec("arp", 28, ARP(hwtype=1, ptype=ETH_IPV4, hwlen=6, plen=4,
                               op=op, hwsrc=sha, psrc=spa, hwdst=tha,
                               pdst=tpa), "arp",
                {"htype": 1, "ptype": ETH_IPV4, "hlen": 6, "plen": 4,
                 "op": op, "sha": sha, "tha": tha, "spa": spa, "tpa": tpa})


def arp_raw(htype, ptype, hlen, plen, op, fill=0x11):
    """An ARP whose addresses are not decoded (not Ethernet/IPv4)."""
    data = struct.pack("!HHBBH", htype, ptype, hlen, plen, op)
    data += bytes([fill]) * (2 * (hlen + plen))
    return Spec("arp", len(data), Raw(load=data), "arp",
                {"htype": htype, "ptype": ptype, "hlen": hlen, "plen": plen,
                 "op": op})


def ipv4(src, dst, proto, ttl=64, tos=0, ident=1, df=False, mf=False,
         frag=0, evil=False, tot_len=AUTO, opts=None, bad=None, pad=b""):
    """IPv4 header with option area opts + [bad] + pad (as tcp() does).

    opts: well-formed options, one bytes object each (EOL ends the walk);
    bad: one malformed option (tlv_len at ipv4); pad: bytes after the
    walk's end. opts=None: IHL 5 and no `options` in the record (the
    ABI-1 captures); opts=[] with an empty area gives `options: []`.
    """
    flags = (4 if evil else 0) | (2 if df else 0) | (1 if mf else 0)
    kw = {}
    if tot_len is not AUTO:
        kw["len"] = tot_len
    area = b""
    walked, bad_off = None, None
    if opts is not None:
        walked, rel = walk_opts(opts, bad)
        area = b"".join(opts) + (bad or b"") + pad
        assert len(area) % 4 == 0 and len(area) <= 40, len(area)
        if bad is not None:
            bad_off = 20 + rel
    p = IP(src=src, dst=dst, proto=proto, ttl=ttl, tos=tos, id=ident,
           flags=flags, frag=frag,
           options=[Raw(load=area)] if area else [], **kw)
    hlen = 20 + len(area)
    f = {"src": src, "dst": dst, "proto": proto, "ttl": ttl, "tos": tos,
         "tot_len": tot_len, "id": ident, "hdr_len": hlen, "df": df,
         "mf": mf, "frag_off": frag, "nonfirst_frag": frag != 0}
    if walked is not None:
        f["options"] = walked
        if bad is None:
            f.update(decode_ip4opts(opts))
    return Spec("ipv4", hlen, p, "ipv4", f, opts=walked, bad_off=bad_off)


def walk_opts(opts, bad=None, eol=True):
    """[(type, len, rel_off)] of well-formed options (EOL/NOP, or Pad1 when
    eol is False, are 1 byte), and the relative offset after them."""
    rel, walked = 0, []
    for i, o in enumerate(opts):
        if o[0] == 0 or (eol and o[0] == 1):
            assert len(o) == 1
            walked.append((o[0], 1, rel))
        else:
            assert len(o) >= 2 and o[1] + (0 if eol else 2) == len(o), o
            walked.append((o[0], len(o), rel))
        if eol and o[0] == 0:
            assert i == len(opts) - 1 and bad is None, "EOL ends the walk"
        rel += len(o)
    return walked, rel


def decode_ip4opts(opts):
    """The decoded IPv4 option fields docs/parsing.md defines."""
    out = {}
    for o in opts:
        t = o[0]
        if t in (0, 1):
            continue
        ln = o[1]
        keys = ()
        if t == 148 and ln == 4:
            keys = ("ra",)
            out["ra"] = struct.unpack("!H", o[2:4])[0]
        elif t == 68 and ln >= 4:
            keys = ("ts_ptr",)
            out.update(ts_ptr=o[2], ts_oflw=o[3] >> 4, ts_flag=o[3] & 15)
        elif t == 7 and ln >= 3:
            keys = ("rr_ptr",)
            ptr = o[2]
            out["rr_ptr"] = ptr
            out["rr_count"] = 0 if ptr < 4 else min((ptr - 4) // 4,
                                                    (ln - 3) // 4)
        # a decoded type appearing twice: which one wins is not documented
        for k in keys:
            assert out.get("_" + k) is None, "duplicate decoded option"
            out["_" + k] = True
    return {k: v for k, v in out.items() if not k.startswith("_")}


# IPv4 options, as the bytes of one option each (NOP, EOL as for TCP)
def RA4(v=0, length=4):
    return bytes([148, length]) + struct.pack("!H", v) + b"\0" * (length - 4)


def TS4(ptr, oflw, flag, entries, slots):
    """Timestamp: `slots` 4-byte slots (8-byte for flags 1 and 3), the
    first ones filled with `entries` (bytes)."""
    size = 8 if flag in (1, 3) else 4
    body = b"".join(entries)
    body += b"\0" * (slots * size - len(body))
    return bytes([68, 4 + len(body), ptr, (oflw << 4) | flag]) + body


def RR4(ptr, slots, recorded=()):
    body = b"".join(socket.inet_aton(a) for a in recorded)
    body += b"\0" * (4 * slots - len(body))
    return bytes([7, 3 + 4 * slots, ptr]) + body


def ipv4_raw(src, dst, proto, tot_len, ver=4, ihl=5, ttl=64, opts=b""):
    """A hand-packed IPv4 header (checksum over its IHL*4 bytes)."""
    hdr = struct.pack("!BBHHHBBH4s4s", (ver << 4) | ihl, 0, tot_len, 1, 0,
                      ttl, proto, 0, socket.inet_aton(src),
                      socket.inet_aton(dst)) + opts
    n = max(ihl * 4, 0) if ihl >= 5 else 20
    csum = checksum(hdr[:n])
    hdr = hdr[:10] + struct.pack("!H", csum) + hdr[12:]
    return raw_hdr("ipv4", hdr)


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ipv6(src, dst, nh, hlim=64, tc=0, fl=0, plen=AUTO, ext=False):
    """ext: the record gets ipv6.ext, ext_flags and nonfirst_frag (ABI 2);
    the ABI-1 captures leave them out."""
    kw = {}
    if plen is not AUTO:
        kw["plen"] = plen
    p = IPv6(src=src, dst=dst, nh=nh, hlim=hlim, tc=tc, fl=fl, **kw)
    return Spec("ipv6", 40, p, "ipv6",
                {"src": v6text(src), "dst": v6text(dst), "next_header": nh,
                 "hop_limit": hlim, "tclass": tc, "flow_label": fl,
                 "payload_len": plen}, ext=ext)


# IPv6 extension headers (RFC 8200). Each builder gives a header spec; its
# fields are the ipv6.ext entry, with option/TLV offsets relative to the
# header (expect() makes them absolute) and no proto/off/len (expect()).

EXT_PROTOS = ("hopopts", "routing", "fragment", "dstopts", "ah", "esp")
EXT_NH = {"hopopts": 0, "routing": 43, "fragment": 44, "dstopts": 60,
          "ah": 51, "esp": 50}
EXT_FAMILY = {"hopopts": "hopopts_opt", "dstopts": "dstopts_opt",
              "routing": "srh_tlv"}
MAX_EXT = 8
MAX_TLVS = 40
PAD1 = b"\x00"   # IPv6 option Pad1 and SRH TLV Pad1


def PADN(n, kind=1):
    """Padding option of n bytes in all (n >= 2); SRH PadN: kind 4."""
    assert 2 <= n <= 257
    return bytes([kind, n - 2]) + b"\0" * (n - 2)


def padfill(n, kind=1):
    """n bytes of padding options (Pad1 only for n == 1)."""
    out = []
    while n > 0:
        if n == 1:
            out.append(PAD1)
            break
        k = min(n, 257)
        if n - k == 1:
            k -= 1
        out.append(PADN(k, kind))
        n -= k
    return out


def RA6(v=0):
    return b"\x05\x02" + struct.pack("!H", v)


def JUMBO(v):
    return b"\xc2\x04" + struct.pack("!I", v)


def O6(typ, dlen, fill=0xA5):
    """IPv6 option or SRH TLV `typ` with dlen data bytes."""
    return bytes([typ, dlen]) + bytes([fill]) * dlen


def HMAC_TLV(key_id, mac, d=False):
    """SRH HMAC TLV (RFC 8754 2.1.2): D flag/reserved, key id, HMAC."""
    assert len(mac) <= 32
    return (bytes([5, 6 + len(mac), 0x80 if d else 0, 0]) +
            struct.pack("!I", key_id) + mac)


def decode_srh_tlvs(tlvs):
    """The decoded SRH TLV fields docs/parsing.md defines: an HMAC TLV with
    at least 6 data bytes gives its key id and D flag; the last one counts."""
    out = {}
    for o in tlvs:
        if o[0] == 5 and o[1] >= 6:
            out = {"hmac_key_id": struct.unpack("!I", o[4:8])[0],
                   "hmac_d": bool(o[2] & 0x80)}
    return out


def decode_opts6(opts):
    out, unk = {}, set()
    for o in opts:
        t = o[0]
        if t == 5 and o[1] == 2:
            assert "ra" not in out, "duplicate decoded option"
            out["ra"] = struct.unpack("!H", o[2:4])[0]
        elif t == 0xC2 and o[1] == 4:
            assert "jumbo" not in out, "duplicate decoded option"
            out["jumbo"] = struct.unpack("!I", o[2:6])[0]
        elif t not in (0, 1, 5, 0xC2):
            unk.add(t >> 6)
    out["unknown_actions"] = sorted(unk)
    return out


def optsh(proto, nh, opts, bad=None, pad=b""):
    """Hop-by-hop or destination options header: options opts + [bad]
    (tlv_len) + pad (bytes after a bad option, still in the header)."""
    walked, rel = walk_opts(opts, bad, eol=False)
    area = b"".join(opts) + (bad or b"") + pad
    total = 2 + len(area)
    assert total % 8 == 0 and total <= 2048, total
    data = bytes([nh, total // 8 - 1]) + area
    f = {"next_header": nh,
         "options": [(t, ln, 2 + r) for t, ln, r in walked]}
    if bad is None:
        f.update(decode_opts6(opts))
    return Spec(proto, total, Raw(load=data), None, f,
                bad_off=None if bad is None else 2 + rel)


def hbh(nh, opts, **kw):
    return optsh("hopopts", nh, opts, **kw)


def dsto(nh, opts, **kw):
    return optsh("dstopts", nh, opts, **kw)


def rt_hdr(nh, rtype, segleft, addrs=(), body=None):
    """Routing header of type rtype: 4 reserved bytes + addresses (type 0,
    2), or `body` after the 4 first bytes."""
    if body is None:
        body = b"\0" * 4 + b"".join(socket.inet_pton(socket.AF_INET6, a)
                                    for a in addrs)
    total = 4 + len(body)
    assert total % 8 == 0 and total <= 2048, total
    data = bytes([nh, total // 8 - 1, rtype, segleft]) + body
    return Spec("routing", total, Raw(load=data), None,
                {"next_header": nh, "routing_type": rtype,
                 "segments_left": segleft})


def srh(nh, segs, segleft, tlvs=(), flags=0, tag=0, bad=None, pad=b"",
        last_entry=None, hel=None):
    """SRv6 SRH (routing type 4): segments segs (text), TLVs tlvs + [bad]
    (tlv_len) + pad. last_entry/hel: override the fields (bad_len)."""
    le = len(segs) - 1 if last_entry is None else last_entry
    walked, rel = walk_opts(list(tlvs), bad, eol=False)
    segb = b"".join(socket.inet_pton(socket.AF_INET6, a) for a in segs)
    area = b"".join(tlvs) + (bad or b"") + pad
    total = 8 + len(segb) + len(area)
    assert total % 8 == 0 and total <= 2048, total
    if hel is None:
        hel = total // 8 - 1
    data = struct.pack("!BBBBBBH", nh, hel, 4, segleft, le, flags,
                       tag) + segb + area
    base = 8 + len(segb)
    f = {"next_header": nh, "routing_type": 4, "segments_left": segleft,
         "last_entry": le, "srh_flags": flags, "tag": tag,
         "tlvs": [(t, n, base + r) for t, n, r in walked]}
    f.update(decode_srh_tlvs(tlvs))
    return Spec("routing", total, Raw(load=data), None, f,
                bad_off=None if bad is None else base + rel)


def frag6(nh, off, m, ident):
    data = struct.pack("!BBHI", nh, 0, (off << 3) | int(m), ident)
    return Spec("fragment", 8, Raw(load=data), None,
                {"next_header": nh, "frag_off": off, "m": bool(m),
                 "id": ident})


def ah(nh, spi, seq, icv=b"", plen=None):
    total = 12 + len(icv)
    if plen is None:
        assert total % 4 == 0
        plen = total // 4 - 2
    data = struct.pack("!BBHII", nh, plen, 0, spi, seq) + icv
    return Spec("ah", total, Raw(load=data), None,
                {"next_header": nh, "spi": spi})


def esp(spi, seq):
    """ESP header; its next header is in the encrypted trailer, so the
    entry gives no next_header (the docs do not say what it reports)."""
    return Spec("esp", 8, Raw(load=struct.pack("!II", spi, seq)), None,
                {"spi": spi})


def l4v6(l4, data=b"", src=None, dst=None):
    """l4 (+ data) as bytes with the checksum of an IPv6 packet src -> dst
    (for a chain of extension headers, which scapy does not see through)."""
    nh = {"tcp": 6, "udp": 17, "icmpv6": 58}[l4.proto]
    p = IPv6(src=src or C6, dst=dst or S6, nh=nh) / l4.pkt
    if data:
        p = p / Raw(load=data)
    whole = bytes(p)[40:]
    out = [as_raw(l4, whole[:l4.hlen])]
    if len(whole) > l4.hlen:
        out.append(payload(whole[l4.hlen:]))
    return out


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
        struct.pack("!II", l, r) for l, r in blocks)


def OPT(kind, length, fill=0xA5):
    """Option `kind` with length byte `length` and length-2 filler bytes."""
    return bytes([kind, length]) + bytes([fill]) * (length - 2)


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
    rel, walked = 0, []
    for i, o in enumerate(opts):
        if o[0] in (0, 1):
            assert len(o) == 1
            walked.append((o[0], 1, rel))
        else:
            assert len(o) >= 2 and o[1] == len(o), o
            walked.append((o[0], o[1], rel))
        if o[0] == 0:
            assert i == len(opts) - 1 and bad is None, "EOL ends the walk"
        rel += len(o)
    bad_off = None
    if bad is not None:
        bad_off = 20 + rel
    area = b"".join(opts) + (bad or b"") + pad
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


# ---------------------------------------------------------------------------
# Frames and their expected records


class Capture:
    def __init__(self, name, doc):
        self.name, self.doc = name, doc
        self.frames = []  # (desc, bytes, record)

    def add(self, desc, *specs, trail=b"", pad_to=None, cut=None, err=None):
        """Build one frame.

        trail: bytes after the built packet (beyond IP lengths);
        pad_to: zero-pad the frame to this length (Ethernet minimum 60);
        cut: keep only the first `cut` bytes of the frame;
        err: (error, index of the failing spec) per docs/parsing.md.
        """
        chain = specs[0].pkt
        for s in specs[1:]:
            chain = chain / s.pkt
        data = bytes(chain)
        end = len(data)
        data += trail
        if pad_to is not None:
            assert len(data) <= pad_to
            data += b"\0" * (pad_to - len(data))
        if cut is not None:
            assert cut < len(data)
            data = data[:cut]
        rec = self.expect(specs, end, len(data), err)
        rec = {"pkt": len(self.frames) + 1, **rec}
        self.frames.append((desc, data, rec))

    ORDER = ["len", "error", "error_layer", "error_proto", "error_off",
             "layers", "payload_off", "eth", "mpls", "arp", "ipv4", "ipv6",
             "gre", "tcp", "udp", "icmp", "icmpv6", "vxlan", "geneve",
             "gtpu", "inner", "tlv_overflow"]

    @staticmethod
    def expect(specs, end, flen, err):
        offs, off = [], 0
        for s in specs:
            offs.append(off)
            off += s.hlen
        nhdr = 0
        while nhdr < len(specs) and specs[nhdr].proto is not None:
            nhdr += 1
        rec = {"len": flen, "error": "ok"}
        if err is None:
            nlay = nhdr
        else:
            ename, idx = err
            assert idx < nhdr, "failing spec must be a header"
            fs = specs[idx]
            rec["error"] = ename
            rec["error_layer"] = idx
            rec["error_proto"] = fs.proto
            if fs.bad_off is not None:  # inside the option area
                assert ename == "tlv_len"
                rec["error_off"] = offs[idx] + fs.bad_off
                nlay = idx + 1
            elif fs.fail_off is not None:  # inside the header, not kept
                rec["error_off"] = offs[idx] + fs.fail_off
                nlay = idx
            else:
                rec["error_off"] = offs[idx]
                nlay = idx
        rec["layers"] = [{"proto": specs[i].proto, "off": offs[i],
                          "len": specs[i].hlen, "stack": specs[i].stack}
                         for i in range(nlay)]
        for i in range(nlay):
            assert offs[i] + specs[i].hlen <= flen, "layer past the frame"
            assert specs[i].stack in (0, 1)
            assert i == 0 or specs[i].stack >= specs[i - 1].stack
        if err is None and nlay and specs[nlay - 1].proto in L4_PROTOS:
            rec["payload_off"] = offs[nlay - 1] + specs[nlay - 1].hlen
        ethertype, kept = {}, {}
        for i in range(nlay):
            s = specs[i]
            tgt = rec if s.stack == 0 else rec.setdefault("inner", {})
            if s.proto == "eth":
                tgt["eth"] = dict(s.fields, vlans=[])
                ethertype[s.stack] = s.nxt
            elif s.proto in ("vlan", "qinq"):
                assert ethertype[s.stack] == s.tag["tpid"]
                tgt["eth"]["vlans"].append(s.tag)
                ethertype[s.stack] = s.nxt
            elif s.key:
                f = {}
                for k, v in s.fields.items():
                    if v is AUTO:
                        v = {"tot_len": end - offs[i],
                             "payload_len": end - offs[i] - 40,
                             "ulen": end - offs[i]}[k]
                    if k == "options" and s.proto == "geneve":
                        v = [{"class": cl, "type": ty, "len": ln,
                              "off": offs[i] + ro} for cl, ty, ln, ro in v]
                    elif k == "options":
                        name = "kind" if s.proto == "tcp" else "type"
                        v = [{name: kd, "len": ln,
                              "off": offs[i] + 20 + ro} for kd, ln, ro in v]
                    f[k] = v
                assert s.key not in tgt, "one %s per stack" % s.key
                tgt[s.key] = f
                if s.ext:
                    Capture.expect_ext(tgt, specs, offs, nlay, err, i, kept)
        for st, tgt in ((0, rec), (1, rec.get("inner"))):
            if tgt is None or "eth" not in tgt:
                continue
            e = tgt["eth"]
            tgt["eth"] = {"dst": e["dst"], "src": e["src"],
                          "ethertype": ethertype[st], "vlans": e["vlans"]}
            # After a failing tag the "ethertype after the tags" is not
            # defined by the docs: leave it out.
            if err and specs[err[1]].proto in ("vlan", "qinq") and \
                    specs[err[1]].stack == st:
                del tgt["eth"]["ethertype"]
        over = {f: True for f, n in kept.items() if n > MAX_TLVS}
        if over:
            rec["tlv_overflow"] = over
        order = Capture.ORDER
        assert set(rec) <= set(order)
        if "inner" in rec:
            assert set(rec["inner"]) <= set(order)
            rec["inner"] = {k: rec["inner"][k] for k in order
                            if k in rec["inner"]}
        return {k: rec[k] for k in order if k in rec}

    @staticmethod
    def expect_ext(tgt, specs, offs, nlay, err, i6, kept):
        """ipv6.ext / ext_flags / nonfirst_frag (and the TLV counts for
        tlv_overflow, in kept) from the extension headers that follow the
        ipv6 header at index i6 among the parsed layers."""
        exts = []
        j = i6 + 1
        while j < nlay and specs[j].proto in EXT_PROTOS and \
                specs[j].stack == specs[i6].stack:
            exts.append(j)
            j += 1
        lst = []
        for i in exts:
            s = specs[i]
            e = {"proto": s.proto, "off": offs[i], "len": s.hlen}
            for k, v in s.fields.items():
                if k in ("options", "tlvs"):
                    # every header of a family shares the family's list of
                    # MAX_TLVS entries: later ones are not kept
                    fam = EXT_FAMILY[s.proto]
                    out = []
                    for t, ln, ro in v:
                        if kept.get(fam, 0) < MAX_TLVS:
                            out.append({"type": t, "len": ln,
                                        "off": offs[i] + ro})
                        kept[fam] = kept.get(fam, 0) + 1
                    v = out
                e[k] = v
            lst.append(e)
        assert len(lst) <= MAX_EXT

        def flags(protos):
            cnt = {}
            for p in protos:
                cnt[p] = cnt.get(p, 0) + 1
            return {"hbh_not_first": "hopopts" in protos[1:],
                    "repeated": any(n > (2 if p == "dstopts" else 1)
                                    for p, n in cnt.items())}

        protos = [specs[i].proto for i in exts]
        fl = flags(protos)
        if err and err[0] == "depth" and err[1] == j and \
                specs[j].proto in EXT_PROTOS:
            # the 9th header is not parsed: never build a case where it
            # would change the flags
            assert flags(protos + [specs[err[1]].proto]) == fl
        v6 = tgt["ipv6"]
        v6["ext"] = lst
        v6["ext_flags"] = fl
        v6["nonfirst_frag"] = any(e["proto"] == "fragment" and
                                  e["frag_off"] != 0 for e in lst)

    def write(self, outdir):
        path = os.path.join(outdir, self.name + ".pcap")
        w = RawPcapWriter(path, linktype=1, snaplen=65535, sync=False)
        w.write_header(None)
        for i, (_, data, _) in enumerate(self.frames):
            usec = i * 1000
            w.write_packet(data, sec=TS0 + usec // 1000000,
                           usec=usec % 1000000)
        w.close()
        with open(os.path.join(outdir, self.name + ".expect.jsonl"), "w") as f:
            for _, _, rec in self.frames:
                f.write(json.dumps(rec) + "\n")


# ---------------------------------------------------------------------------
# eth_basic


def eth_v4(a=MAC[1], b=MAC[2]):
    return eth(b, a, ETH_IPV4)


def eth_v6(a=MAC[1], b=MAC[2]):
    return eth(b, a, ETH_IPV6)


def cap_eth_basic():
    c = Capture("eth_basic", "well-formed traffic of every protocol")
    cs, ss = rnd32(), rnd32()      # client / server ISN
    ct, st = rnd32(), rnd32()      # client / server TS clocks
    sp = 40122
    c.add("IPv4/TCP SYN, Linux options MSS SACK-perm TS NOP WS",
          eth_v4(), ipv4(C4, S4, 6, ident=0x1c46, df=True),
          tcp(sp, 80, cs, 0, SYN, 64240, LINUX_SYN(ct)))
    c.add("IPv4/TCP SYN-ACK, MSS SACK-perm TS NOP WS",
          eth_v4(MAC[2], MAC[1]), ipv4(S4, C4, 6, ident=0, df=True),
          tcp(80, sp, ss, cs + 1, SYN | ACK, 65160,
              [MSS(1460), SACKP, TS(st, ct), NOP, WS(7)]))
    c.add("IPv4/TCP ACK, NOP NOP TS",
          eth_v4(), ipv4(C4, S4, 6, ident=0x1c47, df=True),
          tcp(sp, 80, cs + 1, ss + 1, ACK, 502, [NOP, NOP, TS(ct + 1, st)]))
    req = b"GET / HTTP/1.1\r\nHost: www.example.test\r\nAccept: */*\r\n\r\n"
    c.add("IPv4/TCP PSH-ACK with data, NOP NOP TS",
          eth_v4(), ipv4(C4, S4, 6, ident=0x1c48, df=True),
          tcp(sp, 80, cs + 1, ss + 1, PSH | ACK, 502,
              [NOP, NOP, TS(ct + 1, st)]), payload(req))
    c.add("IPv4/TCP FIN-ACK, NOP NOP TS",
          eth_v4(), ipv4(C4, S4, 6, ident=0x1c49, df=True),
          tcp(sp, 80, cs + 1 + len(req), ss + 1, FIN | ACK, 502,
              [NOP, NOP, TS(ct + 5, st + 4)]))
    c.add("IPv4/TCP RST, no options, padded to 60",
          eth_v4(MAC[2], MAC[1]), ipv4(S4, C4, 6, ident=0, df=True),
          tcp(80, sp, ss + 1, 0, RST, 0), pad_to=60)
    c.add("IPv4/TCP SYN with ECE+CWR (ECN setup)",
          eth_v4(), ipv4(C4, S4, 6, ident=0x2000, df=True, tos=0x00),
          tcp(sp + 1, 443, rnd32(), 0, SYN | ECE | CWR, 64240,
              LINUX_SYN(ct + 9)))
    c.add("IPv4/TCP URG-PSH-ACK, TOS 0xb8 (EF)",
          eth_v4(), ipv4(C4, S4, 6, ident=0x2001, tos=0xB8, ttl=255),
          tcp(sp + 2, 23, rnd32(), rnd32(), URG | PSH | ACK, 1024,
              urgptr=1), payload(b"\xff\xf4\xff\xfd\x06"))
    dnsq = DNS(id=0x4a21, rd=1, qd=DNSQR(qname="www.example.test", qtype="A"))
    c.add("IPv4/UDP DNS query",
          eth_v4(), ipv4(C4, R4, 17, ident=0x3e01), udp(53001, 53),
          Spec(None, len(bytes(dnsq)), dnsq))
    dnsr = DNS(id=0x4a21, qr=1, rd=1, ra=1,
               qd=DNSQR(qname="www.example.test", qtype="A"),
               an=DNSRR(rrname="www.example.test", type="A", ttl=300,
                        rdata="198.18.0.2"))
    c.add("IPv4/UDP DNS response",
          eth_v4(MAC[3], MAC[1]), ipv4(R4, C4, 17, ident=0x9b1f, ttl=63),
          udp(53, 53001), Spec(None, len(bytes(dnsr)), dnsr))
    ping = bytes(range(0x10, 0x10 + 48)) + struct.pack("!Q", 0x1122334455)
    c.add("IPv4/ICMP echo request",
          eth_v4(), ipv4(C4, S4, 1, ident=0x51a0, df=True),
          icmp(8, 0, 0x1234, 1, ping))
    c.add("IPv4/ICMP echo reply",
          eth_v4(MAC[2], MAC[1]), ipv4(S4, C4, 1, ident=0x7f3e),
          icmp(0, 0, 0x1234, 1, ping))
    c.add("IPv4/ICMP destination unreachable (port), quoting IPv4/UDP",
          eth_v4(MAC[2], MAC[1]), ipv4(S4, C4, 1, ident=0x7f3f, tos=0xc0),
          icmp_unreach(3, IPerror(src=C4, dst=S4, id=0x3e02, ttl=64) /
                       UDPerror(sport=53002, dport=33434, len=20) /
                       Raw(load=b"\0" * 12)))
    c.add("IPv4/ICMP time exceeded, quoting IPv4/UDP",
          eth_v4(MAC[3], MAC[1]), ipv4(R4, C4, 1, ident=0x0001),
          Spec("icmp", 8, ICMP(type=11, code=0) /
               IPerror(src=C4, dst=S4, id=0x3e03, ttl=1) /
               UDPerror(sport=53003, dport=33435, len=8), "icmp",
               {"type": 11, "code": 0}))
    c.add("IPv4 with Router Alert option (IHL 6)/UDP",
          eth_v4(), ipv4(C4, S4, 17, ttl=1, ident=0x44, opts=[RA4(0)]),
          udp(5000, 5001), payload(text_payload(16)))
    c.add("IPv4 IHL 15 (Record Route)/TCP SYN with 40 bytes of options",
          eth_v4(), ipv4(C4, S4, 6, ident=0x45,
                         opts=[RR4(4, 9, [R4] * 9), EOL]),
          tcp(sp + 3, 80, rnd32(), 0, SYN, 64240,
              LINUX_SYN(ct + 20) + [OPT(34, 18, 0x5c), NOP, NOP]))
    c.add("IPv6/TCP SYN, MSS SACK-perm TS NOP WS, tclass and flow label",
          eth_v6(), ipv6(C6, S6, 6, tc=0x28, fl=0x5A3E1),
          tcp(41000, 443, rnd32(), 0, SYN, 64800,
              LINUX_SYN(ct + 30, mss=1440)))
    c.add("IPv6/TCP ACK with data",
          eth_v6(), ipv6(C6, S6, 6, fl=0x5A3E1),
          tcp(41000, 443, rnd32(), rnd32(), PSH | ACK, 507,
              [NOP, NOP, TS(ct + 31, st + 7)]), payload(rbytes(200)))
    dns6 = DNS(id=0x0b0b, rd=1, qd=DNSQR(qname="www.example.test",
                                         qtype="AAAA"))
    c.add("IPv6/UDP DNS AAAA query (RFC 5952: 2001:db8::1:0:0:1)",
          eth_v6(), ipv6(C6B, S6B, 17), udp(53004, 53),
          Spec(None, len(bytes(dns6)), dns6))
    data6 = bytes(range(56))
    c.add("IPv6/ICMPv6 echo request",
          eth_v6(), ipv6(C6, S6, 58), icmp6_echo(True, 0x0bad, 7, data6))
    c.add("IPv6/ICMPv6 echo reply",
          eth_v6(MAC[2], MAC[1]), ipv6(S6, C6, 58, hlim=64),
          icmp6_echo(False, 0x0bad, 7, data6))
    c.add("IPv6/ICMPv6 neighbor solicitation (unicast, NUD)",
          eth_v6(), ipv6(C6C, S6, 58, hlim=255),
          icmp6_ns(S6, MAC[1]))
    c.add("ARP request (broadcast)",
          eth(BCAST, MAC[1], ETH_ARP),
          arp(1, MAC[1], C4, "00:00:00:00:00:00", S4), pad_to=60)
    c.add("ARP reply",
          eth(MAC[1], MAC[2], ETH_ARP), arp(2, MAC[2], S4, MAC[1], C4),
          pad_to=60)
    c.add("ARP with htype 6 (not Ethernet: addresses not decoded)",
          eth(BCAST, MAC[4], ETH_ARP), arp_raw(6, ETH_IPV4, 6, 4, 1),
          pad_to=60)
    c.add("ARP with hlen 8 (layer len 8 + 2*(8+4) = 32)",
          eth(BCAST, MAC[4], ETH_ARP), arp_raw(1, ETH_IPV4, 8, 4, 1),
          pad_to=60)
    c.add("unknown ethertype 0x88b5 (local experimental): walk ends, ok",
          eth(MAC[2], MAC[1], 0x88B5), payload(text_payload(46)))
    llc = LLC(dsap=0x42, ssap=0x42, ctrl=3) / STP(rootmac=MAC[2],
                                                  bridgemac=MAC[2])
    c.add("802.3 length frame (type field 38 < 0x0600), LLC: walk ends, ok",
          Spec("eth", 14, Dot3(dst=MAC[2], src=MAC[1], len=38), "eth",
               {"dst": MAC[2], "src": MAC[1]}, nxt=38),
          Spec(None, 38, llc), pad_to=60)
    # ABI 2 walks the GRE header and the packet it carries (stack 1);
    # the bytes are those of ABI 1 (checked against scapy's build)
    gi = [ipv4("198.19.1.1", "198.19.1.2", 1), icmp(8, 0, 1, 1)]
    for s in gi:
        s.stack = 1
    assert bytes(gi[0].pkt / gi[1].pkt) == bytes(
        IP(src="198.19.1.1", dst="198.19.1.2", proto=1) /
        ICMP(type=8, id=1, seq=1))
    c.add("IPv4 protocol 47 (GRE) carrying IPv4/ICMP: gre, inner ipv4, "
          "inner icmp", eth_v4(), ipv4(C4, S4, 47, ident=0x66),
          Spec("gre", 4, Raw(load=b"\x00\x00\x08\x00"), "gre",
               {"flags": 0, "version": 0, "proto": ETH_IPV4,
                "checksum_present": False}), *gi)
    # ABI 2 parses the hop-by-hop header (scapy builds it: its UDP
    # checksum covers the chain, and the bytes are those of ABI 1)
    h = hbh(17, [RA6(0), PADN(2)])
    sh = IPv6ExtHdrHopByHop(nh=17, options=[RouterAlert()])
    assert bytes(sh) == bytes(h.pkt)
    h.pkt = sh
    c.add("IPv6 next header 0 (hop-by-hop, Router Alert)/UDP",
          eth_v6(), ipv6(C6, S6, 0, hlim=1, ext=True), h,
          udp(5000, 5001), payload(text_payload(8)))
    c.add("IPv6 next header 59 (no next header): walk ends after ipv6",
          eth_v6(), ipv6(C6, S6, 59), pad_to=60)
    c.add("short IPv4/UDP (tot_len 32) padded to 60: padding ignored",
          eth_v4(), ipv4(C4, S4, 17, ident=0x77), udp(6000, 6001),
          payload(b"ping"), pad_to=60)
    c.add("IPv4/TCP pure ACK (tot_len 40) padded to 60 with non-zero bytes",
          eth_v4(), ipv4(C4, S4, 6, ident=0x78, df=True),
          tcp(sp, 80, cs + 1, ss + 1, ACK, 502),
          trail=b"\xde\xad\xbe\xef\x01\x02")
    c.add("IPv4/ICMP echo (tot_len 28, no data) padded to 60",
          eth_v4(), ipv4(C4, S4, 1, ident=0x79), icmp(8, 0, 0x4242, 9),
          pad_to=60)
    return c


# ---------------------------------------------------------------------------
# vlan


def cap_vlan():
    c = Capture("vlan", "802.1Q / 802.1ad tag stacks")
    a, b = MAC[0x11], MAC[0x12]

    def frame(desc, tagl, inner_type, *rest, **kw):
        """tagl: [(tpid, vid[, pcp, dei])], outermost first."""
        specs = [eth(b, a, tagl[0][0] if tagl else inner_type)]
        for i, t in enumerate(tagl):
            nxt = tagl[i + 1][0] if i + 1 < len(tagl) else inner_type
            specs.append(tag(t[0], t[1], nxt, *t[2:]))
        c.add(desc, *specs, *rest, **kw)

    v4tcp = [ipv4(C4, S4, 6, ident=0x100, df=True),
             tcp(40200, 80, rnd32(), 0, SYN, 64240, LINUX_SYN(rnd32()))]
    frame("802.1Q vid 100 / IPv4/TCP SYN", [(TPID_Q, 100)], ETH_IPV4, *v4tcp)
    frame("QinQ: 802.1ad vid 10 + 802.1Q vid 200 / IPv4/UDP",
          [(TPID_AD, 10), (TPID_Q, 200)], ETH_IPV4,
          ipv4(C4, S4, 17, ident=0x101), udp(7000, 7001),
          payload(text_payload(20)))
    frame("3 tags: 802.1ad, 802.1Q, 802.1Q / IPv4/ICMP echo",
          [(TPID_AD, 11), (TPID_Q, 201), (TPID_Q, 301)], ETH_IPV4,
          ipv4(C4, S4, 1, ident=0x102), icmp(8, 0, 0x77, 1, b"abcdefgh"))
    frame("4 tags (the limit): 802.1ad x2, 802.1Q x2 / IPv6/UDP",
          [(TPID_AD, 12), (TPID_AD, 13), (TPID_Q, 202), (TPID_Q, 302)],
          ETH_IPV6, ipv6(C6, S6, 17), udp(7002, 7003),
          payload(text_payload(10)))
    frame("4 tags 802.1Q / IPv4/TCP SYN",
          [(TPID_Q, 1), (TPID_Q, 2), (TPID_Q, 3), (TPID_Q, 4)], ETH_IPV4,
          *v4tcp)
    frame("5 tags (all 802.1Q): depth error at the 5th tag",
          [(TPID_Q, 1), (TPID_Q, 2), (TPID_Q, 3), (TPID_Q, 4), (TPID_Q, 5)],
          ETH_IPV4, ipv4(C4, S4, 17, ident=0x103), udp(7004, 7005),
          payload(text_payload(8)), err=("depth", 5))
    frame("5 tags, the 5th is 802.1ad: depth error, error_proto qinq",
          [(TPID_AD, 1), (TPID_Q, 2), (TPID_Q, 3), (TPID_Q, 4),
           (TPID_AD, 5)], ETH_IPV4, ipv4(C4, S4, 17, ident=0x104),
          udp(7006, 7007), payload(text_payload(8)), err=("depth", 5))
    frame("802.1Q PCP 7 DEI 1 vid 4094 / IPv4/UDP",
          [(TPID_Q, 4094, 7, 1)], ETH_IPV4, ipv4(C4, S4, 17, ident=0x105),
          udp(7008, 7009), payload(text_payload(12)))
    frame("priority tag: 802.1Q vid 0 PCP 5 / IPv4/TCP SYN",
          [(TPID_Q, 0, 5, 0)], ETH_IPV4, *v4tcp)
    frame("QinQ with PCP/DEI on both tags (outer 3/1 vid 1, inner 6/0 "
          "vid 4095)", [(TPID_AD, 1, 3, 1), (TPID_Q, 4095, 6, 0)], ETH_IPV4,
          ipv4(C4, S4, 6, ident=0x106),
          tcp(40201, 22, rnd32(), rnd32(), ACK, 1000,
              [NOP, NOP, TS(rnd32(), rnd32())]))
    frame("802.1Q vid 300 / ARP request", [(TPID_Q, 300)], ETH_ARP,
          arp(1, a, C4, "00:00:00:00:00:00", S4), pad_to=64)
    frame("QinQ / ARP reply", [(TPID_AD, 20), (TPID_Q, 300)], ETH_ARP,
          arp(2, a, C4, b, S4), pad_to=64)
    frame("802.1Q vid 600 / IPv6/ICMPv6 echo request", [(TPID_Q, 600)],
          ETH_IPV6, ipv6(C6, S6, 58), icmp6_echo(True, 9, 1, b"x" * 32))
    frame("802.1Q vid 601 / IPv6/TCP SYN", [(TPID_Q, 601, 2, 0)], ETH_IPV6,
          ipv6(C6, S6, 6, fl=0xFFFFF, tc=0xFF),
          tcp(40202, 443, rnd32(), 0, SYN, 64800, LINUX_SYN(rnd32(), 1440)))
    frame("802.1Q then 802.1ad (unusual order) / IPv4/UDP",
          [(TPID_Q, 5), (TPID_AD, 6)], ETH_IPV4,
          ipv4(C4, S4, 17, ident=0x107), udp(7010, 7011),
          payload(text_payload(8)))
    frame("802.1Q carrying unknown ethertype 0x88b5: walk ends after vlan",
          [(TPID_Q, 700)], 0x88B5, payload(text_payload(42)))
    frame("802.1Q carrying an 802.3 length (0x002e): walk ends after vlan",
          [(TPID_Q, 701)], 0x002E,
          Spec(None, 46, LLC(dsap=0xaa, ssap=0xaa, ctrl=3) /
               Raw(load=text_payload(43))))
    c.add("TPID 0x9100 (old QinQ) is not a tag: unknown ethertype, ends",
          eth(b, a, 0x9100), payload(struct.pack("!HH", 30, ETH_IPV4)),
          payload(bytes(IP(src=C4, dst=S4, proto=17) /
                        UDP(sport=1, dport=2))), pad_to=60)
    return c


# ---------------------------------------------------------------------------
# tcp_options


def cap_tcp_options():
    c = Capture("tcp_options", "TCP option areas")
    n = [0]

    def pkt(desc, opts, pad=b"", data=b"", flags=ACK, v6=False, bad=None,
            doff=None, err=None):
        n[0] += 1
        t = tcp(42000 + n[0], 9, rnd32(), rnd32(), flags, 2000, opts, pad,
                bad=bad, doff=doff)
        ip = ipv6(C6, S6, 6) if v6 else ipv4(C4, S4, 6, ident=n[0],
                                              df=True)
        specs = [eth_v6() if v6 else eth_v4(), ip, t]
        if data:
            specs.append(payload(data))
        c.add(desc, *specs, err=err)

    t1, t2 = rnd32(), rnd32()
    s0 = rnd32()
    blk = [(s0 + 1000 * i + 500, s0 + 1000 * i + 900) for i in range(4)]
    pkt("full 40-byte area, 10 options: NOP NOP MSS SACK-perm NOP NOP TS "
        "NOP NOP SACK(2)",
        [NOP, NOP, MSS(1460), SACKP, NOP, NOP, TS(t1, t2), NOP, NOP,
         SACK(*blk[:2])])
    pkt("full 40-byte area, every decoded kind: MSS WS SACK-perm TS "
        "SACK(2) NOP NOP NOP",
        [MSS(8960), WS(14), SACKP, TS(t1, t2), SACK(*blk[:2]), NOP, NOP,
         NOP], flags=SYN)
    pkt("40 NOPs (40 TLVs: the walker's limit)", [NOP] * 40)
    pkt("39 NOPs then EOL", [NOP] * 39 + [EOL])
    for k in range(1, 5):
        if k < 4:
            o = [NOP, NOP, TS(t1 + k, t2), NOP, NOP, SACK(*blk[:k])]
        else:
            o = [NOP, NOP, SACK(*blk)]
        pkt("SACK with %d block%s" % (k, "s" if k > 1 else ""), o)
    pkt("NOP NOP SACK(3 blocks) then 8 NOPs",
        [NOP, NOP, SACK(*blk[:3])] + [NOP] * 8)
    pkt("MSS NOP WS EOL + 3 zero padding bytes (walk stops at EOL)",
        [MSS(1400), NOP, WS(2), EOL], pad=b"\0" * 3, flags=SYN)
    pkt("MSS EOL then garbage that would be a bad option (kind 5 len 0x20):"
        " walk stops at EOL",
        [MSS(1400), EOL], pad=b"\x05\x20\x01", flags=SYN)
    pkt("EOL first, 39 garbage bytes after it", [EOL],
        pad=bytes([8, 0xff]) + rbytes(37))
    pkt("scapy-style: MSS then EOL EOL EOL EOL (only the first EOL walked)",
        [MSS(536), EOL], pad=b"\0\0\0", flags=SYN)
    pkt("unknown kind 30 (MPTCP) len 12",
        [OPT(30, 12, 0x31), NOP, NOP, NOP, NOP], data=text_payload(20))
    pkt("unknown kind 34 (TFO cookie) len 10 in a Linux TFO SYN",
        [MSS(1460), SACKP, TS(t1, 0), NOP, WS(7), OPT(34, 10, 0x5c), NOP,
         NOP], flags=SYN, data=text_payload(30))
    pkt("unknown kind 254 (experimental, ExID) len 6",
        [bytes([254, 6, 0xf9, 0x89, 0xaa, 0xbb]), NOP, NOP])
    pkt("mixed unknown kinds 30/34/254/28/29 plus NOPs",
        [OPT(30, 12, 0x31), OPT(34, 10, 0x34), OPT(254, 6, 0xfe),
         OPT(28, 4, 0x1c), NOP, NOP, OPT(29, 6, 0x1d)])
    pkt("unknown kind with len 2 (empty value), kind 100 len 2", [
        OPT(100, 2), NOP, NOP])
    pkt("MSS with len 6 (recorded, not decoded), then WS 3 (decoded)",
        [OPT(2, 6, 0x05), WS(9), NOP, NOP, NOP], flags=SYN)
    pkt("WS with len 4 (not decoded), MSS ok", [OPT(3, 4, 0x07), MSS(1200)],
        flags=SYN)
    pkt("SACK-perm with len 3 (not decoded), TS ok",
        [OPT(4, 3), NOP, NOP, NOP, TS(t1, t2)], flags=SYN)
    pkt("TS with len 8 (not decoded), SACK-perm ok",
        [OPT(8, 8, 0x08), SACKP, NOP, NOP], flags=SYN)
    pkt("SACK with len 12 (not 2+8n: not decoded)",
        [NOP, NOP, OPT(5, 12, 0x55), NOP, NOP])
    pkt("SACK with len 2 (no blocks: not decoded)", [OPT(5, 2), NOP, NOP])
    pkt("MSS 65535, WS 14, TS 0xffffffff/0xffffffff",
        [MSS(65535), NOP, WS(14), NOP, NOP, TS(0xFFFFFFFF, 0xFFFFFFFF)],
        flags=SYN)
    pkt("MSS 0, WS 0, TS 0/0", [MSS(0), NOP, WS(0), NOP, NOP, TS(0, 0)],
        flags=SYN)
    pkt("data offset 5 with a payload that looks like options (none)",
        [], data=MSS(1460) + SACKP + TS(1, 2) + NOP + WS(7))
    pkt("option ends exactly at the end of the area, payload follows",
        [NOP, NOP, TS(t1, t2)], data=b"\x02\x04\x05\xb4" * 4)
    pkt("IPv6/TCP SYN, full 40-byte area (Linux SYN + TFO cookie + NOPs)",
        [MSS(1440), SACKP, TS(t1, 0), NOP, WS(7), OPT(34, 18, 0x5c),
         NOP, NOP], flags=SYN, v6=True)
    pkt("IPv6/TCP, SACK 4 blocks", [NOP, NOP, SACK(*blk)], v6=True,
        data=rbytes(100))
    return c


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
# malformed


def cap_malformed():
    c = Capture("malformed", "malformed and truncated headers")
    full_v4udp = [eth_v4(), ipv4(C4, S4, 17, ident=0x500), udp(45000, 9),
                  payload(rbytes(32))]
    # runts
    for n in (1, 6, 13):
        c.add("runt frame of %d bytes: truncated at eth" % n,
              raw_hdr("eth", bytes.fromhex("020000000002020000000001"
                                           "0800")[:n]),
              err=("truncated", 0))
    c.add("14-byte frame, ethertype IPv4 and nothing after: truncated ipv4",
          eth_v4(), raw_hdr("ipv4", b""), err=("truncated", 1))
    # vlan tag truncated
    c.add("802.1Q tag truncated (2 of 4 bytes)",
          eth(MAC[2], MAC[1], TPID_Q), tag(TPID_Q, 5, ETH_IPV4),
          *full_v4udp[1:], cut=16, err=("truncated", 1))
    c.add("QinQ: inner 802.1Q tag truncated (3 of 4 bytes)",
          eth(MAC[2], MAC[1], TPID_AD), tag(TPID_AD, 5, TPID_Q),
          tag(TPID_Q, 6, ETH_IPV4), *full_v4udp[1:], cut=21,
          err=("truncated", 2))
    # ipv4 / ipv6 fixed header truncated
    c.add("IPv4 header truncated (19 bytes)", *full_v4udp, cut=14 + 19,
          err=("truncated", 1))
    c.add("IPv4 header truncated (1 byte)", *full_v4udp, cut=15,
          err=("truncated", 1))
    v6udp = [eth_v6(), ipv6(C6, S6, 17), udp(45001, 9), payload(rbytes(16))]
    c.add("IPv6 header truncated (39 bytes)", *v6udp, cut=14 + 39,
          err=("truncated", 1))
    # ARP truncated
    arpf = [eth(BCAST, MAC[1], ETH_ARP),
            arp(1, MAC[1], C4, "00:00:00:00:00:00", S4)]
    c.add("ARP fixed part truncated (7 bytes)", *arpf, cut=14 + 7,
          err=("truncated", 1))
    c.add("ARP Ethernet/IPv4 addresses truncated (27 of 28 bytes)", *arpf,
          cut=14 + 27, err=("truncated", 1))
    c.add("ARP hlen 16 plen 16 (needs 72 bytes), frame has 46",
          eth(BCAST, MAC[1], ETH_ARP),
          raw_hdr("arp", struct.pack("!HHBBH", 1, ETH_IPV4, 16, 16, 1)),
          pad_to=60, err=("truncated", 1))

    # L4 truncated: IP lengths consistent, L4 header short
    def short_l4(desc, ip, l4, n, pad_to=None, v6=False):
        b = l4_bytes(ip, l4)[:n]
        ip2 = (ipv6(C6, S6, ip.fields["next_header"]) if v6 else
               ipv4(C4, S4, ip.fields["proto"], ident=ip.fields["id"]))
        c.add(desc, eth_v6() if v6 else eth_v4(), ip2, raw_hdr(l4.proto, b),
              pad_to=pad_to, err=("truncated", 2))

    ip6 = ipv4(C4, S4, 6, ident=0x501)
    t = tcp(45002, 80, rnd32(), 0, SYN, 64240, LINUX_SYN(rnd32()))
    short_l4("TCP header truncated (19 bytes, frame ends)", ip6, t, 19)
    short_l4("TCP header truncated (10 bytes) hidden by Ethernet padding "
             "(frame 60)", ip6, t, 10, pad_to=60)
    ip17 = ipv4(C4, S4, 17, ident=0x502)
    short_l4("UDP header truncated (7 bytes)", ip17, udp(45003, 9), 7)
    short_l4("UDP header truncated (4 bytes) hidden by padding", ip17,
             udp(45003, 9), 4, pad_to=60)
    ip1 = ipv4(C4, S4, 1, ident=0x503)
    short_l4("ICMP header truncated (7 bytes)", ip1, icmp(8, 0, 1, 1), 7)
    short_l4("ICMP header truncated (4 bytes) hidden by padding", ip1,
             icmp(8, 0, 1, 1), 4, pad_to=60)
    ip58 = ipv6(C6, S6, 58)
    short_l4("ICMPv6 header truncated (4 bytes)", ip58,
             icmp6_echo(True, 1, 1), 4, v6=True)
    ip6t = ipv6(C6, S6, 6)
    short_l4("IPv6/TCP header truncated (12 bytes), 20 bytes of trailer "
             "after payload_len", ip6t, t, 12, v6=True, pad_to=14 + 40 + 32)

    # IPv4 length fields
    tcpb = l4_bytes(ip6, t)
    for ihl in range(0, 5):
        c.add("IPv4 IHL %d (< 5): bad_len" % ihl, eth_v4(),
              ipv4_raw(C4, S4, 6, 20 + len(tcpb), ihl=ihl),
              payload(tcpb), err=("bad_len", 1))
    c.add("IPv4 IHL 6 but total length 20 (< IHL*4): bad_len", eth_v4(),
          ipv4_raw(C4, S4, 17, 20, ihl=6, opts=b"\x94\x04\x00\x00"),
          payload(rbytes(30)), err=("bad_len", 1))
    c.add("IPv4 IHL 15 but total length 56 (< 60): bad_len", eth_v4(),
          ipv4_raw(C4, S4, 17, 56, ihl=15, opts=b"\x01" * 40),
          payload(rbytes(30)), err=("bad_len", 1))
    c.add("IPv4 total length 0 (IHL 5): bad_len", eth_v4(),
          ipv4_raw(C4, S4, 6, 0), payload(tcpb), err=("bad_len", 1))
    c.add("IPv4 IHL 15, total length 60, frame has 40 bytes of IP: "
          "truncated", eth_v4(),
          ipv4_raw(C4, S4, 17, 60, ihl=15, opts=b"\x01" * 20),
          err=("truncated", 1))
    c.add("IPv4 total length one past the frame: truncated", eth_v4(),
          ipv4(C4, S4, 17, ident=0x504, tot_len=20 + 8 + 32 + 1),
          udp(45004, 9), payload(rbytes(32)), err=("truncated", 1))
    c.add("IPv4 total length 1500, frame of 60: truncated", eth_v4(),
          ipv4(C4, S4, 17, ident=0x505, tot_len=1500), udp(45005, 9),
          payload(rbytes(8)), pad_to=60, err=("truncated", 1))
    # version mismatch
    c.add("ethertype IPv4 carrying an IPv6 packet (version 6): bad_version",
          eth_v4(), Spec("ipv4", 40, IPv6(src=C6, dst=S6, nh=17) /
                         UDP(sport=45006, dport=9) / Raw(load=rbytes(20))),
          err=("bad_version", 1))
    c.add("ethertype IPv6 carrying an IPv4/UDP packet (version 4, 60 "
          "bytes): bad_version", eth_v6(),
          Spec("ipv6", 40, IP(src=C4, dst=S4, proto=17) /
               UDP(sport=45007, dport=9) / Raw(load=rbytes(32))),
          err=("bad_version", 1))
    c.add("ethertype IPv4, version 0: bad_version", eth_v4(),
          ipv4_raw(C4, S4, 6, 40, ver=0), payload(tcpb[:20]),
          err=("bad_version", 1))
    c.add("ethertype IPv4, version 15: bad_version", eth_v4(),
          ipv4_raw(C4, S4, 6, 40, ver=15), payload(tcpb[:20]),
          err=("bad_version", 1))
    c.add("ethertype IPv6, version 0 (40 zero bytes + 8): bad_version",
          eth_v6(), raw_hdr("ipv6", b"\0" * 48), err=("bad_version", 1))

    # TCP data offset
    def tcp_doff(desc, doff, data=b"", err="bad_len", pad_to=None):
        c.add(desc, eth_v4(), ipv4(C4, S4, 6, ident=0x510 + doff),
              tcp(45010 + doff, 80, rnd32(), rnd32(), ACK, 500, doff=doff),
              payload(data) if data else payload(b""), pad_to=pad_to,
              err=(err, 2))

    for d in range(0, 5):
        tcp_doff("TCP data offset %d (< 5): bad_len" % d, d, rbytes(24))
    tcp_doff("TCP data offset 15, 20 bytes of TCP + 10 of data: truncated",
             15, rbytes(10), "truncated")
    tcp_doff("TCP data offset 6, 20 bytes of TCP + 3: truncated (one short)",
             6, rbytes(3), "truncated")
    tcp_doff("TCP data offset 6, TCP ends at tot_len, padding would cover "
             "it: truncated", 6, b"", "truncated", pad_to=60)

    # TCP option errors: tcp is a layer, error_off is the option's offset
    def bad_opt(desc, opts, bad, pad=b"", data=b""):
        t = tcp(45020, 9, rnd32(), rnd32(), ACK, 1000, opts, pad, bad=bad)
        specs = [eth_v4(), ipv4(C4, S4, 6, ident=0x520), t]
        if data:
            specs.append(payload(data))
        c.add(desc, *specs, err=("tlv_len", 2))

    bad_opt("option length 0 (kind 8) after MSS", [MSS(1460)],
            b"\x08\x00", pad=b"\0" * 6 + b"\x01\x01\x01\x01")
    bad_opt("option length 0 as the first option (kind 30)", [],
            b"\x1e\x00", pad=b"\x01\x01")
    bad_opt("option length 1 (kind 3) after NOP NOP", [NOP, NOP],
            b"\x03\x01", pad=b"\x07\x00\x00\x00")
    bad_opt("unknown kind 200 with length 1", [NOP], b"\xc8\x01",
            pad=b"\x00")
    bad_opt("option overruns the area by 6 (SACK len 10 with 4 bytes left),"
            " data follows", [NOP, NOP, TS(1, 2)], b"\x05\x0a\x00\x00",
            data=rbytes(20))
    bad_opt("option overruns the area by 1 (TS len 10 with 9 left)",
            [NOP, NOP, NOP], b"\x08\x0a" + b"\x00" * 7, data=rbytes(20))
    bad_opt("option length 255 (first option)", [], b"\x05\xff\x00\x00",
            data=rbytes(300))
    bad_opt("area ends after a kind byte (kind 2, no length byte)",
            [NOP, NOP, NOP], b"\x02", data=b"\x04\x05\xb4" + rbytes(10))
    bad_opt("area ends after a kind byte, full options before it",
            [MSS(1460), SACKP, TS(5, 6), NOP, NOP, NOP], b"\x08")
    # UDP length
    c.add("UDP length 0: bad_len", eth_v4(), ipv4(C4, S4, 17, ident=0x530),
          udp(45030, 9, ulen=0), payload(rbytes(20)), err=("bad_len", 2))
    c.add("UDP length 7: bad_len", eth_v4(), ipv4(C4, S4, 17, ident=0x531),
          udp(45031, 9, ulen=7), payload(rbytes(20)), err=("bad_len", 2))
    c.add("UDP length one past the IP payload: truncated", eth_v4(),
          ipv4(C4, S4, 17, ident=0x532), udp(45032, 9, ulen=8 + 20 + 1),
          payload(rbytes(20)), err=("truncated", 2))
    c.add("UDP length past the IP payload but inside Ethernet padding: "
          "truncated", eth_v4(), ipv4(C4, S4, 17, ident=0x533),
          udp(45033, 9, ulen=12), payload(b"abc"), pad_to=60,
          err=("truncated", 2))
    c.add("IPv6/UDP length one past payload_len: truncated", eth_v6(),
          ipv6(C6, S6, 17), udp(45034, 9, ulen=8 + 20 + 1),
          payload(rbytes(20)), err=("truncated", 2))
    c.add("UDP length 8 with 20 more bytes in the IP payload: ok", eth_v4(),
          ipv4(C4, S4, 17, ident=0x534), udp(45035, 9, ulen=8),
          payload(rbytes(20)))
    # IPv6 payload length
    c.add("IPv6 payload length one past the frame: truncated", eth_v6(),
          ipv6(C6, S6, 17, plen=8 + 24 + 1), udp(45036, 9),
          payload(rbytes(24)), err=("truncated", 1))
    c.add("IPv6 payload length 1000, frame of 94: truncated", eth_v6(),
          ipv6(C6, S6, 6, plen=1000), tcp(45037, 80, rnd32(), 0, SYN,
                                           1000, LINUX_SYN(5)),
          err=("truncated", 1))
    c.add("IPv6 payload length shorter than the frame (trailer ignored): ok",
          eth_v6(), ipv6(C6, S6, 17), udp(45038, 9), payload(rbytes(12)),
          trail=rbytes(30))
    return c


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

    def v4tcp(size, desc=None, **kw):
        n[0] += 1
        t = tcp(46000 + n[0], 80, rnd32(), rnd32(), PSH | ACK, 30000,
                full_opts())
        hl = 14 + 20 + t.hlen
        c.add(desc or "IPv4/TCP, full option area, frame %d" % size,
              eth_v4(), ipv4(C4, S4, 6, ident=0x600 + n[0], df=True), t,
              payload(rbytes(size - hl)), **kw)

    def v6tcp(size, desc=None, **kw):
        n[0] += 1
        t = tcp(46000 + n[0], 80, rnd32(), rnd32(), ACK, 30000, full_opts())
        hl = 14 + 40 + t.hlen
        c.add(desc or "IPv6/TCP, full option area, frame %d" % size,
              eth_v6(), ipv6(C6, S6, 6, fl=n[0]), t,
              payload(rbytes(size - hl)), **kw)

    def v4udp(size, desc=None, **kw):
        n[0] += 1
        c.add(desc or "IPv4/UDP, frame %d" % size, eth_v4(),
              ipv4(C4, S4, 17, ident=0x600 + n[0]), udp(46000 + n[0], 9),
              payload(rbytes(size - 42)), **kw)

    for size in (1500, 3000, 4000, 8000, 9000):
        v4tcp(size)
        v6tcp(size)
        v4udp(size)
    for size in (3519, 3520, 3521, 3600, 4096, 4097, 7616, 7617, 9000):
        v4tcp(size)
        v6tcp(size)
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
                        [NOP, NOP, TS(rnd32(), rnd32())]),
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
    pkt("Record Route ptr 6 (not slot-aligned): rr_count 0", [RR4(6, 3),
                                                             EOL])
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
# ipv6_ext (ABI 2)

SEG = ["2001:db8:5::%x" % i for i in range(1, 9)]   # SRv6 segments
HOA = "2001:db8:6::1"                               # MIPv6 home address


def v6frame(c, desc, chain, l4=None, data=b"", hlim=64, fl=0, plen=AUTO,
            dst=None, err=None, tail=(), **kw):
    """eth / ipv6 / chain (header specs) / l4 + data (checksummed against
    dst, the final destination) / tail specs. err: (error, index in chain)."""
    first = chain[0].proto if chain else (l4.proto if l4 else None)
    nh = {**EXT_NH, "tcp": 6, "udp": 17, "icmpv6": 58}.get(first, 59)
    specs = [eth_v6(), ipv6(C6, S6, nh, hlim=hlim, fl=fl, plen=plen,
                            ext=True)] + list(chain)
    if l4 is not None:
        specs += l4v6(l4, data, dst=dst)
    specs += list(tail)
    c.add(desc, *specs, err=None if err is None else (err[0], err[1] + 2),
          **kw)


def chain_nh(protos, last):
    """Next header values to link headers `protos` ending with `last`."""
    nxt = [EXT_NH[p] for p in protos[1:]] + [last]
    return nxt


def build_chain(protos, last, seed):
    """A well-formed chain of extension headers of the given kinds."""
    out = []
    for i, (p, nh) in enumerate(zip(protos, chain_nh(protos, last))):
        k = seed + i
        if p == "hopopts":
            out.append(hbh(nh, [RA6(k & 3), PAD1, PAD1]))
        elif p == "dstopts":
            out.append(dsto(nh, [PADN(6)] if k % 2 else
                            [O6(0x1e, 2, k & 0xff), PAD1, PAD1]))
        elif p == "routing":
            out.append(srh(nh, SEG[:1 + k % 2], k % 2))
        elif p == "fragment":
            out.append(frag6(nh, 0, 0, 0x10000 + k))
        elif p == "ah":
            out.append(ah(nh, 0x1000 + k, k, struct.pack("!I", k) * 3))
        elif p == "esp":
            out.append(esp(0x2000 + k, k))
    return out


def cap_ipv6_ext():
    c = Capture("ipv6_ext", "IPv6 extension headers")
    n = [0]

    def t(flags=PSH | ACK, opts=None):
        n[0] += 1
        return tcp(48000 + n[0], 80, rnd32(), rnd32(), flags, 2000,
                   [NOP, NOP, TS(rnd32(), rnd32())] if opts is None
                   else opts)

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
    n[0] += 1
    tj = tcp(48000 + n[0], 80, rnd32(), rnd32(), ACK, 2000,
             [NOP, NOP, TS(rnd32(), rnd32())])
    jd = rbytes(100)
    add("jumbo: payload length 0, hop-by-hop Jumbo Payload (len 4) / TCP: "
        "the payload runs to the frame's end",
        [hbh(6, [JUMBO(8 + tj.hlen + len(jd))])], tj, jd, plen=0)
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
        [dsto(6, [PADN(4), bytes([0xC9, 16]) +
                  socket.inet_pton(socket.AF_INET6, HOA)])], t())
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
    n[0] += 1
    tf = tcp(48000 + n[0], 80, rnd32(), rnd32(), PSH | ACK, 2000,
             [NOP, NOP, TS(rnd32(), rnd32())])
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
    add("jumbo rule: payload length 0, hop-by-hop hdr ext len 2 (24) in "
        "a frame with 16 bytes after ipv6: truncated",
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
                 socket.inet_pton(socket.AF_INET6, SEG[0]))], u(),
        rbytes(8), err=("bad_len", 0))
    add("SRH last entry 255 in a 40-byte header: bad_len",
        [raw_hdr("routing", struct.pack("!BBBBBBH", 6, 4, 4, 0, 255, 0, 0) +
                 b"".join(socket.inet_pton(socket.AF_INET6, a)
                          for a in SEG[:2]))], u(), rbytes(8),
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
    blob = b"".join(bytes(x.pkt) for x in full)
    offs, o = [], 0
    for x in full:
        offs.append(o)
        o += x.hlen
    for cut in range(len(blob)):
        j = max(i for i in range(len(full)) if offs[i] <= cut)
        specs = full[:j] + [raw_hdr(full[j].proto, blob[offs[j]:cut])]
        add("chain hopopts dstopts routing fragment ah / udp cut to %d "
            "bytes of payload: truncated at %s" % (cut, full[j].proto),
            specs, plen=cut, err=("truncated", j))
    return c


# ---------------------------------------------------------------------------
# jumbo_ext (ABI 2): headers and options across byte 3520 of 9000-byte frames

EDGE = 3520


def cap_jumbo_ext():
    c = Capture("jumbo_ext", "extension headers across the linear part")
    n = [0]

    def pad_hdr(proto, nh, total):
        """An options header of `total` bytes of padding."""
        return optsh(proto, nh, padfill(total - 2))

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
            t, left = tail_tcp(opts or [NOP, NOP, TS(rnd32(), rnd32())],
                               l4_off)
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
        h0 = pad_hdr("dstopts", 0, D)
        h1 = around("hopopts", 6, 54 + D, at, opt, D)
        frame("dstopts 2048 / hop-by-hop 2048 with %s at %d" % (what, at),
              [h0, h1], l4_off=54 + 2 * D)
    for at, opt, what in ((EDGE - 2, RA6(0), "Router Alert"),
                          (EDGE - 1, O6(0x7E, 2, 0x7E), "unknown 0x7e")):
        frame("hop-by-hop 2048 / dstopts 2048 with %s at %d" % (what, at),
              [pad_hdr("hopopts", 60, D),
               around("dstopts", 6, 54 + D, at, opt, D)],
              l4_off=54 + 2 * D)
    frame("hop-by-hop 2048 / dstopts 2048: PadN(257) across 3520",
          [pad_hdr("hopopts", 60, D), pad_hdr("dstopts", 6, D)],
          l4_off=54 + 2 * D)
    # (b) an SRH TLV across 3520: dstopts 2048 then an SRH at 2102
    s0 = 54 + D
    nseg = 87  # segments end at 2102 + 8 + 1392 = 3502
    segs = ["2001:db8:5::%x" % (0x100 + i) for i in range(nseg)]
    frame("dstopts 2048 / SRH 87 segments, HMAC TLV at 3502 across 3520",
          [pad_hdr("dstopts", 43, D),
           srh(6, segs, 5, [HMAC_TLV(9, rbytes(32))])],
          l4_off=s0 + 8 + 16 * nseg + 40, dst=segs[0])
    frame("dstopts 2048 / SRH 87 segments, PadN(16) then unknown TLV 0x80 "
          "(len 6) at 3518",
          [pad_hdr("dstopts", 43, D),
           srh(6, segs, 5, [PADN(16, 4), O6(0x80, 4), PADN(2, 4)])],
          l4_off=s0 + 8 + 16 * nseg + 24, dst=segs[0])
    frame("dstopts 2048 / SRH 87 segments, Pad1 x17 then PadN type byte "
          "at 3519, length byte at 3520",
          [pad_hdr("dstopts", 43, D),
           srh(6, segs, 5, [PAD1] * 17 + [PADN(7, 4)])],
          l4_off=s0 + 8 + 16 * nseg + 24, dst=segs[0])
    # (c) a TCP option across 3520: hop-by-hop 2048 + dstopts 1392, TCP
    # at 3494, option area 3514..3546
    t0 = 54 + D + 1392
    for opts, what in (([NOP, NOP, TS(rnd32(), rnd32()), NOP, NOP,
                         SACK((1, 2), (3, 4))], "TS at 3516"),
                       ([NOP, NOP, NOP, NOP, MSS(8960), SACKP, TS(5, 6),
                         NOP, WS(7)], "MSS at 3518"),
                       ([NOP] * 5 + [WS(9), SACK((7, 8), (9, 10), (11, 12)),
                                     NOP, NOP],
                        "WS at 3519 (kind before, length after)"),
                       ([NOP] * 6 + [OPT(30, 20, 0x1e), NOP, NOP],
                        "unknown kind 30 len 20 starting at 3520")):
        frame("hop-by-hop 2048 / dstopts 1392 / TCP at %d, %s" % (t0, what),
              [pad_hdr("hopopts", 60, D), pad_hdr("dstopts", 6, 1392)],
              l4_off=t0, opts=opts)
    # (d) a fixed part across 3520: headers at 3518 (8-byte fixed part),
    # 3510 (AH, TCP)
    def pre(nh, upto):
        """hop-by-hop 2048 + dstopts to reach frame offset upto."""
        return [pad_hdr("hopopts", 60, D), pad_hdr("dstopts", nh,
                                                    upto - 54 - D)]
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
          [pad_hdr("hopopts", 60, D), pad_hdr("dstopts", 60, 1416),
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


def blob(specs):
    """The bytes of a list of specs."""
    if not specs:
        return b""
    chain = specs[0].pkt
    for s in specs[1:]:
        chain = chain / s.pkt
    return bytes(chain)


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
         e=None, fail_off=None):
    """GTP-U (3GPP TS 29.281) header; body: the bytes after it (for the
    length field). E/S/PN follow exts/seq/npdu (e: force the E flag)."""
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
    data = struct.pack("!BBHI", flags, msg, len(opt) + len(body), teid) + opt
    f = {"flags": flags, "version": ver, "msg_type": msg, "teid": teid}
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
            [NOP, NOP, TS(rnd32(), rnd32())] if opts is None else opts)
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

    def udp4(self, desc, dport, rest, err=None, sport=None, **kw):
        u = udp(sport or 40000 + self.nxt(), dport)
        self.v4(desc, 17, [u] + rest,
                None if err is None else (err[0], err[1] + 1), **kw)

    def udp6(self, desc, dport, rest, err=None, sport=None, **kw):
        u = udp(sport or 40000 + self.nxt(), dport)
        self.v6(desc, 17, [u] + rest,
                None if err is None else (err[0], err[1] + 1), **kw)

    def add(self, desc, specs, base, err, **kw):
        self.c.add(desc, *specs,
                   err=None if err is None else (err[0], err[1] + base),
                   **kw)


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
               t(n(), [NOP, NOP, TS(rnd32(), rnd32()), NOP, NOP,
                       SACK((100, 200))], text_payload(10))))
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
    def mp(desc, labels, rest, etype=ETH_MPLS, tags=()):
        specs = [eth(MAC[2], MAC[1], tags[0].tag["tpid"] if tags
                     else etype)] + \
            list(tags) + [mpls(labels)] + rest
        c.add(desc, *specs)
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
    return c


# ---------------------------------------------------------------------------
# tunnels_malformed (ABI 2)


def cap_tunnels_malformed():
    c = Capture("tunnels_malformed", "malformed tunnel headers")
    f = TunFrames(c)
    n = f.nxt

    def in4():
        return inner(in_eth(ETH_IPV4), in_v4(17), pkt_udp(n(), rbytes(8)))

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
    inn = inner(in_v4(17), pkt_udp(n(), rbytes(8)))
    f.udp4("GTP-U version 2 (flags 0x50): bad_version", GTPU_PORT,
           [gtpu(255, 1, blob(inn), ver=2)] + inn, err=("bad_version", 0))
    inn = inner(in_v4(17), pkt_udp(n(), rbytes(8)))
    f.udp4("GTP-U version 0 (flags 0x12, S): bad_version", GTPU_PORT,
           [gtpu(255, 2, blob(inn), ver=0, seq=1)] + inn,
           err=("bad_version", 0))
    inn = inner(in_v4(17), pkt_udp(n(), rbytes(8)))
    f.udp4("GTP-U PT 0 (GTP', flags 0x20): bad_version", GTPU_PORT,
           [gtpu(255, 3, blob(inn), pt=0)] + inn, err=("bad_version", 0))
    f.udp4("GTP-U header of 7 bytes: truncated", GTPU_PORT,
           [raw_hdr("gtpu", bytes(gtpu(255, 4, b"").pkt)[:7])],
           err=("truncated", 0))
    f.udp4("GTP-U with S, 10 bytes (optional part cut): truncated",
           GTPU_PORT, [raw_hdr("gtpu", bytes(gtpu(255, 5, b"", seq=1).pkt)
                                [:10])], err=("truncated", 0))
    f.udp4("GTP-U extension of 2 words with 5 bytes of it: truncated",
           GTPU_PORT, [raw_hdr("gtpu", bytes(gtpu(
               255, 6, b"", exts=[GEXT(0x85, b"\x10\x05" + rbytes(4))]
           ).pkt)[:17])], err=("truncated", 0))
    inn = inner(in_v4(17), pkt_udp(n(), rbytes(8)))
    hdr = struct.pack("!BBHIHBB", 0x34, 255, 8 + len(blob(inn)), 7, 0, 0,
                      0x85) + b"\x00\x00\x01\x00"
    f.udp4("GTP-U 1st extension with length 0: bad_len (error_off at the "
           "extension)", GTPU_PORT,
           [Spec("gtpu", len(hdr), Raw(load=hdr), fail_off=12)] + inn,
           err=("bad_len", 0))
    inn = inner(in_v4(17), pkt_udp(n(), rbytes(8)))
    hdr = struct.pack("!BBHIHBB", 0x36, 255, 12 + len(blob(inn)), 8, 9, 0,
                      0x40) + b"\x01\x08\x68\x85" + b"\x00\x09\x00\x00"
    f.udp4("GTP-U 2nd extension with length 0: bad_len (error_off at it)",
           GTPU_PORT, [Spec("gtpu", len(hdr), Raw(load=hdr), fail_off=16)] +
           inn, err=("bad_len", 0))
    inn = inner(in_v4(17), pkt_udp(n(), rbytes(8)))
    ex = [GEXT(0x40, b"\x00\x35"), GEXT(0x20, b"\x01\x02"),
          GEXT(0xC0, b"\x00\x07"), GEXT(0x85, b"\x00\x01"),
          GEXT(0x85, b"\x00\x02")]
    f.udp4("GTP-U with 5 extensions: depth at the 5th (error_off at it)",
           GTPU_PORT, [gtpu(255, 10, blob(inn), exts=ex, fail_off=28)] + inn,
           err=("depth", 0))
    # MPLS
    def mp(desc, labels, rest, err, **kw):
        c.add(desc, eth(MAC[2], MAC[1], ETH_MPLS), mpls(labels, **kw),
              *rest, err=err)
    mp("MPLS 9 entries without bottom of stack: depth after the 8th",
       [LSE(40 + i) for i in range(9)],
       [in_v4(17, src=T4A, dst=T4B), udp(40200, 9)], ("depth", 1),
       fail_off=32)
    mp("MPLS 8 entries without bottom of stack, IPv4 after: depth after "
       "the 8th", [LSE(50 + i) for i in range(8)],
       [in_v4(1, src=T4A, dst=T4B), icmp(8, 0, 1, 1)], ("depth", 1),
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
                 tcp(51999, 443, rnd32(), rnd32(), PSH | ACK, 1000,
                     [NOP, NOP, TS(rnd32(), rnd32())]), payload(rbytes(8)))
    data = blob(full)
    offs = [0, 14, 34]
    for cut in range(len(data) + 1):
        j = max(i for i in range(3) if offs[i] <= cut)
        if cut < 34:
            specs = full[:j] + inner(raw_hdr(full[j].proto,
                                             data[offs[j]:cut]))
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
        chain = [optsh("hopopts", 60, padfill(D - 2)),
                 optsh("dstopts", 17, padfill(dlen - 2))]
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


CAPTURES = [cap_eth_basic, cap_vlan, cap_tcp_options, cap_fragments,
            cap_malformed, cap_jumbo,
            cap_ipv4_options, cap_ipv6_ext, cap_ipv6_ext_malformed,
            cap_jumbo_ext, cap_tunnels, cap_tunnels_malformed,
            cap_jumbo_tunnels]


def main(argv):
    listing = "--list" in argv
    args = [a for a in argv if a != "--list"]
    outdir = args[0] if args else os.path.dirname(os.path.abspath(__file__))
    caps = []
    for f in CAPTURES:
        # One seed per capture: adding a packet to one leaves the others'
        # bytes alone, so a change to one family diffs only its captures.
        random.seed("%d:%s" % (SEED, f.__name__))
        caps.append(f())
    if listing:
        for cp in caps:
            for desc, data, rec in cp.frames:
                print("%s.pcap %3d %5d %-11s %s" % (cp.name, rec["pkt"],
                                                    len(data), rec["error"],
                                                    desc))
        return 0
    os.makedirs(outdir, exist_ok=True)
    for cp in caps:
        cp.write(outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
