# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""IPv6 headers, extension headers (RFC 8200, SRv6) and IPv6 frames with a chain."""
import socket
import struct

from scapy.layers.inet6 import IPv6
from scapy.packet import Raw

from .common import AUTO, C6, EXT_NH, S6, Spec, as_raw, option_area, payload, shift_err, v6text
from .l2 import eth_v6


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


def v6bytes(*addrs):
    """The 16 bytes of each IPv6 address (text), one after the other."""
    return b"".join(socket.inet_pton(socket.AF_INET6, a) for a in addrs)


# IPv6 extension headers (RFC 8200). Each builder gives a header spec; its
# fields are the ipv6.ext entry, with option/TLV offsets relative to the
# header (expect() makes them absolute) and no proto/off/len (expect()).

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


def held(spec):
    """spec (a hop-by-hop header) failing after its option walk, by the
    rules of RFC 2675: it stays in layers, error_off at its start."""
    spec.bad_off = 0
    return spec


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
    area, walked, bad_off = option_area(opts, bad, pad, eol=False, base=2)
    total = 2 + len(area)
    assert total % 8 == 0 and total <= 2048, total
    data = bytes([nh, total // 8 - 1]) + area
    f = {"next_header": nh,
         "options": [(t, ln, 2 + r) for t, ln, r in walked]}
    if bad is None:
        f.update(decode_opts6(opts))
    return Spec(proto, total, Raw(load=data), None, f, bad_off=bad_off)


def pad_opts(proto, nh, total):
    """An options header of `total` bytes of padding."""
    return optsh(proto, nh, padfill(total - 2))


def hbh(nh, opts, **kw):
    return optsh("hopopts", nh, opts, **kw)


def dsto(nh, opts, **kw):
    return optsh("dstopts", nh, opts, **kw)


def rt_hdr(nh, rtype, segleft, addrs=(), body=None):
    """Routing header of type rtype: 4 reserved bytes + addresses (type 0,
    2), or `body` after the 4 first bytes."""
    if body is None:
        body = b"\0" * 4 + v6bytes(*addrs)
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
    segb = v6bytes(*segs)
    base = 8 + len(segb)
    area, walked, bad_off = option_area(list(tlvs), bad, pad, eol=False,
                                        base=base)
    total = base + len(area)
    assert total % 8 == 0 and total <= 2048, total
    if hel is None:
        hel = total // 8 - 1
    data = struct.pack("!BBBBBBH", nh, hel, 4, segleft, le, flags,
                       tag) + segb + area
    f = {"next_header": nh, "routing_type": 4, "segments_left": segleft,
         "last_entry": le, "srh_flags": flags, "tag": tag,
         "tlvs": [(t, n, base + r) for t, n, r in walked]}
    f.update(decode_srh_tlvs(tlvs))
    return Spec("routing", total, Raw(load=data), None, f, bad_off=bad_off)


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
    # payload length 0 past 65,535 (a jumbogram): the checksum counts the
    # real length all the same (RFC 2675 section 4)
    big = l4.hlen + len(data) > 0xFFFF
    p = IPv6(src=src or C6, dst=dst or S6, nh=nh,
             **({"plen": 0} if big else {})) / l4.pkt
    if data:
        p = p / Raw(load=data)
    whole = bytes(p)[40:]
    out = [as_raw(l4, whole[:l4.hlen])]
    if len(whole) > l4.hlen:
        out.append(payload(whole[l4.hlen:]))
    return out


# ---------------------------------------------------------------------------
# IPv6 frames with a chain of extension headers (ipv6_ext and after)

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
    c.add(desc, *specs, err=shift_err(err, 2), **kw)


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
