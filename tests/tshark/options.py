# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""The option lists tshark shows: IPv4, IPv6 hop-by-hop and destination
options, TCP, Geneve; the GTP-U extension headers."""
import re

from .jsonobj import Obj, find_all, get, has_key, to_int


def type_len(v, type_key, len_key):
    """(type, len) of an option tshark shows as the subtree v with fields
    type_key and len_key, or None when v is not one. EOL (0) and NOP (1)
    have no length byte: len 1 (IPv4 and TCP options alike)."""
    if not isinstance(v, Obj):
        return None
    typ = to_int(get(v, type_key))
    if typ is None:
        return None
    ln = to_int(get(v, len_key))
    if ln is None and typ in (0, 1):
        ln = 1   # EOL and NOP have no length byte
    return typ, ln


# tshark's texts for an IPv4 option whose length byte is unusable: these
# end its option list (and dynpf's walk, with tlv_len).
IPV4_OPT_BAD = re.compile(r"^(.*) \((with too-short option length = (\d+) "
                          r"bytes?|option length = \d+ bytes says option "
                          r"goes past end of options|length byte past end "
                          r"of options)\)$")
IPV4_OPT_UNKNOWN = re.compile(r"^Unknown \(0x([0-9a-fA-F]+)\) "
                              r"\((\d+) bytes?\)$")


def ipv4_options_tree(t):
    if not isinstance(t, Obj):
        return None
    for k, v in t.pairs:
        if k.startswith("Options: (") and isinstance(v, Obj):
            return v
    return None


def tshark_ipv4_options(t):
    """([(type, len, tree Obj or None)], stop) in wire order from tshark's
    IPv4 option area, or (None, None) when tshark shows none. stop is None
    when the list is complete, else the length tshark rejected the option
    after the list with (-1: missing or past the area)."""
    tree = ipv4_options_tree(t)
    if tree is None:
        return None, None
    opts = []
    for k, v in tree.pairs:
        m = IPV4_OPT_BAD.match(k)
        if m and has_key(v, "ip.opt.len.invalid"):
            return opts, (int(m.group(3)) if m.group(3) else -1)
        m = IPV4_OPT_UNKNOWN.match(k)
        if m:
            # Unknown types are a text item naming type and length.
            opts.append((int(m.group(1), 16), int(m.group(2)), None))
            continue
        tl = type_len(v, "ip.opt.type", "ip.opt.len")
        if tl is not None:
            opts.append(tl + (v,))
    return opts, None


def ipv4_option_errors(t):
    """True when tshark rejects an IPv4 option length as dynpf does
    (tlv_len): missing, 0, 1, or past the option area. A length tshark finds
    too short for the option type (e.g. 2 for Record Route) is not one."""
    opts, stop = tshark_ipv4_options(t)
    return stop is not None and stop < 2


def tshark_ipv6_options(t):
    """[(type, len)] of a hop-by-hop/destination options header in wire
    order; len as dynpf counts it (data length + 2, Pad1 1). Stops at an
    option tshark could not read the length of."""
    opts = []
    for k, v in t.pairs:
        if k != "ipv6.opt" or not isinstance(v, Obj):
            continue
        typ = to_int(get(v, "ipv6.opt.type"))
        ln = to_int(get(v, "ipv6.opt.length"))
        if typ is None or (ln is None and typ != 0):
            break
        opts.append((typ, 1 if typ == 0 else ln + 2, v))
    return opts


def calipso_misread(typ, ln, v):
    """True for a CALIPSO option (RFC 5570, type 7) whose compartment
    length disagrees with its option length: tshark 4.0 reads the bitmap by
    the compartment length and goes on from there, past the option."""
    if typ != 7 or v is None:
        return False
    n = to_int(get(v, "ipv6.opt.calipso.cmpt.length"))
    return n is not None and 2 + 8 + 4 * n != ln


def options_overrun(t, name):
    """True when tshark's option list for an options header runs past the
    header (tshark 4.0 shows such an option without a complaint)."""
    hl = to_int(get(t, "ipv6.%s.len_oct" % name))
    return hl is not None and \
        sum(ln for _, ln, _ in tshark_ipv6_options(t)) > hl - 2


def tshark_tcp_options(t):
    """[(kind, len, tree Obj)] in wire order from tcp.options_tree, or None
    when tshark shows no option area."""
    tree = get(t, "tcp.options_tree")
    if tree is None:
        return None
    opts = []
    for k, v in tree.pairs:
        # Each option is a subtree (`tcp.options.mss_tree`, or a protocol
        # such as `mptcp`) holding tcp.option_kind. Options tshark finds
        # invalid are a text item with only an expert note (and end the
        # list, like dynpf's walk).
        tl = type_len(v, "tcp.option_kind", "tcp.option_len")
        if tl is None:
            continue
        opts.append(tl + (v,))
        if tl[0] == 0:
            # tshark shows every padding byte after EOL as one more EOL;
            # the walk (dynpf's and RFC 9293's) ends at the first.
            break
    return opts


def tshark_geneve_options(t):
    """[(class, type, len)] of the Geneve options tshark shows, and whether
    it found one past the option area."""
    opts = []
    bad = False
    tree = get(t, "geneve.options_tree")
    if tree is None:
        return opts, bad
    for k, v in tree.pairs:
        if k != "geneve.option_tree" or not isinstance(v, Obj):
            continue
        if has_key(v, "geneve.option.length.invalid"):
            bad = True
            break
        opts.append([to_int(get(v, "geneve.option.class")),
                     to_int(get(v, "geneve.option.type")),
                     to_int(get(v, "geneve.option.length"))])
    if has_key(t, "geneve.option.length.invalid"):
        bad = True
    return opts, bad


def gtpu_ext(t):
    """The GTP-U extension header types tshark walked, in order."""
    out = []
    for v in find_all(t, "gtp.ext_hdr.next"):
        v = to_int(v)
        if not v:
            break
        out.append(v)
    return out
