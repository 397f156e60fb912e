# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""IPv4 headers and IPv4 options."""
import socket
import struct

from scapy.layers.inet import IP
from scapy.packet import Raw

from .common import AUTO, Spec, checksum, option_area, raw_hdr


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
    area, walked, bad_off = b"", None, None
    if opts is not None:
        area, walked, bad_off = option_area(opts, bad, pad, base=20)
        assert len(area) % 4 == 0 and len(area) <= 40, len(area)
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
    # ABI 2 (opts given): the record's `ext` lists the AH and ESP headers
    # that follow (capture.py)
    return Spec("ipv4", hlen, p, "ipv4", f, opts=walked, bad_off=bad_off,
                ext=walked is not None)


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
