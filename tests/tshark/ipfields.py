# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Field by field, dynpf's IPv4 header (with its options) and IPv6 header
(with its extension headers) against tshark's."""
from .fields import compare_plain, opt_one, values
from .jsonobj import dget, find_all, get, get_any, has_key, to_bool, to_int, to_str
from .options import calipso_misread, tshark_ipv4_options, tshark_ipv6_options
from .policy import known
from .protos import EXT_NXT, IPV6_EXT


def compare_ipv4(c, d, t):
    tos = get_any(t, "ip.dsfield", "ip.tos")
    fo = to_int(get(t, "ip.frag_offset"))
    vals = {
        "src": to_str(get(t, "ip.src")),
        # With a source route option tshark shows the final destination
        # as ip.dst and the header's as ip.cur_rt.
        "dst": to_str(get(t, "ip.cur_rt") or get(t, "ip.dst")),
        "proto": to_int(get(t, "ip.proto")),
        "ttl": to_int(get(t, "ip.ttl")),
        "tos": to_int(tos),
        "tot_len": to_int(get(t, "ip.len")),
        "id": to_int(get(t, "ip.id")),
        "hdr_len": to_int(get(t, "ip.hdr_len")),
        "df": to_bool(get(t, "ip.flags.df")),
        "mf": to_bool(get(t, "ip.flags.mf")),
        # tshark 4.0 shows ip.frag_offset in 8-byte units, like dynpf.
        "frag_off": fo,
        "nonfirst_frag": None if fo is None else fo != 0,
    }
    compare_plain(c, "ipv4", d, vals)
    opts, stop = tshark_ipv4_options(t)
    if opts is None:
        if (vals["hdr_len"] or 20) > 20:
            c.skip("ipv4.options", "tshark shows no option area")
        return
    dopts = [[dget(o, "type"), dget(o, "len")]
             for o in dget(d, "options") or []]
    topts = [[k, ln] for k, ln, _ in opts]
    if stop is not None and stop >= 2:
        # tshark's own minimum length for the type ends its list; dynpf
        # walks on (any length >= 2 is valid for it).
        known(c, "ipv4_option_min_len", "ipv4.options")
        dopts = dopts[:len(topts)]
    c.check("ipv4.options", dopts, topts)

    def decoded(typ, good_len):
        return [v for k, ln, v in opts
                if k == typ and v is not None and good_len(ln)]

    ra = [to_int(get(v, "ip.opt.ra")) for v in decoded(148, lambda n: n == 4)]
    ts = decoded(68, lambda n: n is not None and n >= 4)
    rr = decoded(7, lambda n: n is not None and n >= 3)
    rrc = []
    for v in rr:
        ptr = to_int(get(v, "ip.opt.ptr"))
        if ptr is not None and ptr >= 4 and ptr % 4 == 0:
            # tshark lists the recorded addresses unless the pointer is
            # before the first or inside one (dynpf counts (ptr - 4) / 4).
            rrc.append(len(find_all(v, "ip.rec_rt")))
        elif dget(d, "rr_count") is not None:
            known(c, "rr_pointer", "ipv4.rr_count")
            rrc = None
            break
    partial = stop is not None
    for key, tvals in (
            ("ra", ra),
            ("ts_ptr", [to_int(get(v, "ip.opt.ptr")) for v in ts]),
            ("ts_oflw", [to_int(get(v, "ip.opt.overflow")) for v in ts]),
            ("ts_flag", [to_int(get(v, "ip.opt.flag")) for v in ts]),
            ("rr_ptr", [to_int(get(v, "ip.opt.ptr")) for v in rr]),
            ("rr_count", rrc)):
        if tvals is not None:
            opt_one(c, d, key, tvals, partial, "ipv4")


def compare_ipv6(c, d, t):
    vals = values(t, to_str, [("src", "ipv6.src"), ("dst", "ipv6.dst")])
    vals.update(values(t, to_int, [("next_header", "ipv6.nxt"), ("hop_limit", "ipv6.hlim"),
                                   ("tclass", "ipv6.tclass"), ("flow_label", "ipv6.flow"),
                                   ("payload_len", "ipv6.plen")]))
    compare_plain(c, "ipv6", d, vals)


def ext_len(name, t):
    """The header length tshark gives for an extension header, or None."""
    if name in ("hopopts", "dstopts", "routing"):
        return to_int(get(t, "ipv6.%s.len_oct" % name))
    if name == "fragment":
        return 8
    if name == "ah":
        n = to_int(get(t, "ah.length"))
        return None if n is None else (n + 2) * 4
    return None   # esp: dynpf counts SPI and sequence (8)


def compare_ipv4_ext(c, d, tl):
    """dynpf's ipv4.ext list (AH and ESP behind IPv4) against the AH and
    ESP layers tshark shows after the IPv4 header."""
    compare_ipv6_ext(c, d, tl, None, None, l3="ipv4")


def compare_ipv6_ext(c, d, tl, err_k, overflow, stopped_at=None, l3="ipv6",
                     count_k=None):
    """dynpf's ipv6.ext list against tshark's extension headers; err_k is
    the index of the header holding dynpf's tlv_len error, or None;
    overflow is the record's tlv_overflow; stopped_at the extension header
    dynpf stopped in with an error (not in its list), or None; count_k the
    index of the header whose walk dynpf ended at its TLV limit
    (tlv_count), or None. With l3
    "ipv4": the ipv4.ext list, which has no chain flags."""
    dext = dget(d, "ext")
    if not isinstance(dext, list):
        return
    for k, de in enumerate(dext):
        name = dget(de, "proto")
        f = "%s.ext[%d]." % (l3, k)
        if k >= len(tl.ext):
            c.skip(f[:-1], "tshark has no extension header here")
            continue
        if not c.check(f + "proto", name, tl.ext[k][0]):
            continue
        t = tl.ext[k][1]
        partial = k == err_k
        if tl.is_bad(t) and not partial:
            c.skip(f[:-1], "tshark flags this %s header" % name)
            continue
        nxt = EXT_NXT.get(name)
        vals = {}
        if nxt is not None:
            vals["next_header"] = to_int(get(t, nxt))
        if name != "esp":
            vals["len"] = ext_len(name, t)
        if name in ("hopopts", "dstopts"):
            opts = tshark_ipv6_options(t)
            dopts = [[dget(o, "type"), dget(o, "len")]
                     for o in dget(de, "options") or []]
            topts = [[ty, ln] for ty, ln, _ in opts]
            if partial:
                # tshark shows the option dynpf rejected, or part of it.
                topts = topts[:len(dopts)]
            bad = [i for i, (ty, ln, v) in enumerate(opts)
                   if has_key(v, "ipv6.opt.invalid_len") or
                   calipso_misread(ty, ln, v)]
            if bad and len(dopts) > bad[0] + 1:
                # tshark steps over an option with a length it finds wrong
                # for the type (e.g. Router Alert) by the type's own size,
                # and over a CALIPSO option by its compartment length.
                known(c, "ip6_option_type_len", f + "options")
                dopts, topts = dopts[:bad[0] + 1], topts[:bad[0] + 1]
            area = (vals["len"] or 0) - 2
            tsum = sum(ln for _, ln, _ in opts)
            if not partial and not bad and tsum != area:
                # Some tshark option dissectors (MPL, SMF_DPD, ...) read
                # their fixed fields past a shorter option length and go on
                # from there: tshark's list then does not tile the area.
                # tshark's options cover tsum bytes of the area
                known(c, "ip6_option_own_fields", f + "options")
                opts = dopts = topts = None
            fam = name + "_opt"
            if opts is not None and dget(overflow, fam) and \
                    len(dopts) < len(topts):
                # dynpf keeps MAX_TLVS entries of the family
                known(c, "limits", f + "options")
                topts = topts[:len(dopts)]
            if opts is not None and dopts != topts:
                # CALIPSO (7), SMF_DPD (8) and MPL (0x6d): tshark reads
                # their own length fields, past a shorter option length,
                # and goes on from there (seen with a dynpf tlv_len error
                # too, where the area check above does not apply).
                k = next((i for i, (a, b) in enumerate(zip(dopts, topts))
                          if a != b), min(len(dopts), len(topts)))
                odd = [ty for ty, _ in dopts[:k] if ty in (7, 8, 0x6d)]
                if odd:
                    known(c, "ip6_option_own_fields", f + "options")
                    dopts, topts = dopts[:k], topts[:k]
            if opts is not None:
                c.check(f + "options", dopts, topts)
            for key, typ, good, tk in (("ra", 5, 4, "ipv6.opt.router_alert"),
                                       ("jumbo", 0xC2, 6, "ipv6.opt.jumbo")):
                if opts is None:
                    break
                tv = [to_int(get(v, tk)) for ty, ln, v in opts
                      if ty == typ and ln == good]
                opt_one(c, de, key, tv, partial, f[:-1])
            if k == count_k and opts is not None:
                # dynpf walked no option past its limit; tshark all of them
                known(c, "limits", f + "unknown_actions")
            elif not partial and opts is not None:
                c.check(f + "unknown_actions", dget(de, "unknown_actions"),
                        sorted(set(ty >> 6 for ty, _, _ in opts
                                   if ty not in (0, 1, 5, 0xC2))))
        elif name == "routing":
            rt = to_int(get(t, "ipv6.routing.type"))
            vals["routing_type"] = rt
            vals["segments_left"] = to_int(get(t, "ipv6.routing.segleft"))
            if rt == 4:
                tag = to_str(get(t, "ipv6.routing.srh.tag"))
                vals["last_entry"] = to_int(get(t, "ipv6.routing.srh.last_entry"))
                vals["srh_flags"] = to_int(get(t, "ipv6.routing.srh.flags"))
                vals["tag"] = None if tag is None else \
                    int(tag.replace(":", "") or "0", 16)
                if dget(de, "tlvs"):
                    known(c, "srh_tlvs", f + "tlvs")
        elif name == "fragment":
            # tshark 4.0 shows ipv6.fraghdr.offset in 8-byte units.
            vals["frag_off"] = to_int(get(t, "ipv6.fraghdr.offset"))
            vals["m"] = to_bool(get(t, "ipv6.fraghdr.more"))
            vals["id"] = to_int(get(t, "ipv6.fraghdr.ident"))
        elif name in ("ah", "esp"):
            vals["spi"] = to_int(get(t, name + ".spi"))
        compare_plain(c, f[:-1], de, vals)
    if l3 != "ipv6":
        return
    # Chain-wide flags, from the headers dynpf walked as tshark shows them.
    names = [n for n, _ in tl.ext[:len(dext)]]
    if len(names) < len(dext) or any(tl.is_bad(o) for _, o in tl.ext[:len(dext)]):
        return
    if stopped_at is not None:
        # dynpf counts the header it stopped in (named by the next header
        # field before it) in the flags, as tshark names it.
        if dext:
            nxt = to_int(get(tl.ext[len(dext) - 1][1],
                             EXT_NXT.get(tl.ext[len(dext) - 1][0], "")))
        else:
            nxt = to_int(get(tl.l3[1], "ipv6.nxt"))
        if nxt in IPV6_EXT:
            names.append(IPV6_EXT[nxt])
    fl = dget(d, "ext_flags") or {}
    c.check("ipv6.ext_flags.hbh_not_first", dget(fl, "hbh_not_first"),
            "hopopts" in names[1:])
    c.check("ipv6.ext_flags.repeated", dget(fl, "repeated"),
            any(names.count(n) > (2 if n == "dstopts" else 1)
                for n in set(names)))
    fo = [to_int(get(o, "ipv6.fraghdr.offset")) for n, o in
          tl.ext[:len(dext)] if n == "fragment"]
    if None not in fo:
        c.check("ipv6.nonfirst_frag", dget(d, "nonfirst_frag"),
                any(x != 0 for x in fo))
