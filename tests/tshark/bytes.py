# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Byte tests (docs/rules.md "Byte tests") against tshark's display filters:
PAIRS holds rules and filters meaning the same thing; the packets each rule
counts (replay --rules, the verdict's `matched`) must be the packets its
filter selects (one tshark pass, a Lua listener per filter). Where the two
parse differently, a packet is skipped under a key of DIFFERENCES, never
silently (tests/tshark_bytes.py says how to run it)."""
import json
import os
import subprocess
import tempfile

from .compare import error_stack
from .policy import DIFFERENCES
from .run import TSHARK_OPTS


def excluded(key, pred):
    """A packet for which pred(rec) holds is skipped under the known
    difference key when rule and filter disagree on it."""
    if key not in DIFFERENCES:
        raise KeyError(key)
    return (key, pred)


def tlvs(rec, fam):
    """The TLV lists of a family in a dynpf record, every stack:
    (layer name, [{"type", "len", "off"}...]) a header."""
    out = []
    for d in (rec, rec.get("inner") or {}):
        if fam == "tcp":
            out.append(("tcp", (d.get("tcp") or {}).get("options") or []))
        elif fam == "ipv4":
            out.append(("ipv4", (d.get("ipv4") or {}).get("options") or []))
        elif fam in ("hopopts", "dstopts", "routing"):
            for e in (d.get("ipv6") or {}).get("ext") or []:
                if e.get("proto") == fam:
                    out.append((fam, e.get("options") or e.get("tlvs") or []))
        elif fam == "geneve":
            out.append(("geneve", (d.get("geneve") or {}).get("options") or []))
    return out


def kind(t):
    return t.get("type", t.get("kind"))


def has_type(rec, fam, typ):
    return any(kind(t) == typ for _, lst in tlvs(rec, fam) for t in lst)


def overflow(rec, m, bad, stack):
    """dynpf kept 40 TLVs of a family or stopped at its limits: what lies
    beyond them is not tested."""
    return bool(rec.get("tlv_overflow")) or \
        rec.get("error") in ("tlv_count", "depth")


def err_stack(rec):
    """The stack of dynpf's failing header (0 outer, 1 inner)."""
    layers = rec.get("layers") or []
    return error_stack(rec, layers, [x.get("proto") for x in layers],
                       [x.get("stack", 0) for x in layers])


def stopped(rec, m, bad, stack):
    """dynpf stopped at a header it finds bad, in the stack the rule tests
    or before it, and the rule does not count the packet: what follows (and
    an option area past its bad TLV) is not parsed, so no test there holds;
    tshark dissects on."""
    return not m and rec.get("error") not in (None, "ok") and \
        err_stack(rec) <= stack


def gre_payload(rec, m, bad, stack):
    """dynpf's walk ends after a GRE header whose payload it does not parse
    (version 1, or a protocol other than Ethernet, IP, MPLS): tshark
    dissects it."""
    layers = rec.get("layers") or []
    return not m and rec.get("error") == "ok" and layers and \
        layers[-1].get("proto") == "gre"


def threw(rec, m, bad, stack):
    """tshark threw (Malformed Packet) and its filter misses the packet:
    what it would have shown after the exception is not there."""
    return bad and m


def tpid_9100(rec, m, bad, stack):
    return (rec.get("eth") or {}).get("ethertype") == 0x9100


# frame.protocols, tshark's layers in order: headers that are not IP
# (Ethernet, tags, MPLS, UDP, a tunnel), an IP layer, its extension headers.
NOT_L3 = r"(?:(?!ip:|ipv6:)[^:]+:)*"
EXT = r"(?:ipv6\\.[a-z]+:|ah:)*"
QUOTED = '(frame.protocols contains "icmp:ip" || ' \
    'frame.protocols contains "icmpv6:ipv6")'


def first_l3(name, test):
    """The frame's first IP layer is name (ip or ipv6) and test holds."""
    return 'frame.protocols matches "^%s%s(:|$)" && %s' % (NOT_L3, name, test)


def inner_l3(name, test):
    """The frame's second IP layer (a tunnel's inner packet, not one an ICMP
    error quotes) is name and test(its layer operator) holds."""
    alts = []
    for outer in ("ip", "ipv6"):
        alts.append('(frame.protocols matches "^%s%s:%s%s(:|$)" && %s)'
                    % (NOT_L3, outer, NOT_L3, name,
                       test("%s#%d" % (name, 2 if outer == name else 1))))
    return "!%s && (%s)" % (QUOTED, " || ".join(alts))


def srh_first_tlv(typ, data_off, value, mask):
    """The first TLV after an SRH's segment list is of type typ, with
    value under mask (hex bytes with colons) at data_off of its data: one
    alternative per Last Entry (tshark 4.0 does not dissect SRH TLVs)."""
    alts = []
    n = len(value.split(":"))
    for last in range(16):
        off = 8 + 16 * (last + 1)
        alts.append("(ipv6.routing.srh.last_entry == %d && "
                    "ipv6.routing[%d:1] == %02x && "
                    "{ipv6.routing[%d:%d] & %s} == %s)"
                    % (last, off, typ, off + 2 + data_off, n, mask, value))
    return "ipv6.routing.type == 4 && (%s)" % " || ".join(alts)


def odd_len(fam, typ, length):
    """The packet has a TLV of type typ whose length is not the type's own
    (length): dynpf tests its bytes by its length, tshark decodes nothing
    from it."""
    return lambda rec, m, bad, stack: any(
        kind(t) == typ and t.get("len") != length
        for _, lst in tlvs(rec, fam) for t in lst)


def in_ip6_area(fam, typ):
    """The option type is in an IPv6 options header of the other kind
    (fam): tshark's ipv6.opt does not say which header holds it."""
    return lambda rec, m, bad, stack: has_type(rec, fam, typ)


def srh_not_first(typ):
    """An SRH whose TLV of type typ is not the first of its TLV area: the
    filter reads the first one only (tshark 4.0 lists no SRH TLV)."""
    return lambda rec, m, bad, stack: any(
        kind(t) == typ for _, lst in tlvs(rec, "routing") for t in lst[1:])


# (rule, display filter, exclusions). Each rule must count at least one
# packet of the corpus and miss at least one, and so must its filter.
# tshark's protocol items of an option (tcp.options.mss, ip.options.*,
# geneve.option, gtp.ext_hdr) span the whole option, type and length
# included: one slice of one item tests one option.
PAIRS = [
    ("tcp option 254 data 0:2 0xf989",
     "tcp.options.experimental[0:1,2:2] == fe:f9:89", []),
    ("tcp option 253 data 0:2 0xf989",
     "tcp.options.experimental[0:1,2:2] == fd:f9:89", []),
    ("tcp option 253 data 2:4 0x12345678",
     "tcp.options.experimental[0:1,4:4] == fd:12:34:56:78", []),
    ("tcp option 254 data 2:2 0xaabb",
     "tcp.options.experimental[0:1,4:2] == fe:aa:bb", []),
    ("tcp option mss data 0:2 0x0500/0xff00",
     "{tcp.options.mss_val & 0xff00} == 0x0500",
     [excluded("option_len_for_type", odd_len("tcp", 2, 4))]),
    ("tcp option mss data 0:2 1460",
     "tcp.options.mss[0:2,2:2] == 02:04:05:b4",
     [excluded("option_len_for_type", odd_len("tcp", 2, 4))]),
    ("tcp option ts data 4:4 0",
     "tcp.options.timestamp.tsecr == 0",
     [excluded("option_len_for_type", odd_len("tcp", 8, 10))]),
    ("tcp option 34 data 0:1 0x5c",
     "tcp.options.tfo[2:1] == 5c", []),
    ("ip option rr data 0:1 4",
     "ip.options.record_route[2:1] == 04", []),
    ("ip option ra data 0:2 0",
     "ip.options.routeralert[1:3] == 04:00:00",
     [excluded("option_len_for_type", odd_len("ipv4", 148, 4))]),
    ("ip6 hbh option ra data 0:2 0",
     "ipv6.hopopts && ipv6.opt.router_alert == 0",
     [excluded("ip6_opt_header", in_ip6_area("dstopts", 5)),
      excluded("option_len_for_type", odd_len("hopopts", 5, 4))]),
    ("ip6 dst option 0xc9 data 0:4 0x20010db8",
     "ipv6.dstopts && ipv6.opt.mipv6.home_address == 2001:db8::/32",
     [excluded("ip6_opt_header", in_ip6_area("hopopts", 0xc9))]),
    ("srh tlv hmac data 0:1 0x80/0x80",
     srh_first_tlv(5, 0, "80", "80"),
     [excluded("srh_tlvs", srh_not_first(5))]),
    ("geneve option 0x0103:0x83 data 0:1 0xa9",
     "geneve.option[0:3,4:1] == 01:03:83:a9", []),
    ("gtpu ext 0x85 data 0:1 0x10/0xf0",
     "gtp.ext_hdr.pdu_ses_con.pdu_type == 1", []),
    ("@l3 0 1 0x45",
     first_l3("ip", "ip#1[0:1] == 45"), []),
    ("@l3 0 1 0x60/0xf0 proto tcp @l4 13 1 0x02/0x02",
     'frame.protocols matches "^%sipv6:%stcp(:|$)" && '
     '{tcp#1[13:1] & 02} == 02' % (NOT_L3, EXT), []),
    # tshark shows the data of a RST as its reset cause
    ("proto tcp @payload 0 4 0x47455420",
     'frame.protocols matches "^%s(ip:|ipv6:%s)tcp(:|$)" && '
     '(tcp.payload#1[0:4] == "GET " || tcp.reset_cause#1 matches "^GET ")'
     % (NOT_L3, EXT), []),
    ("inner @l3 0 1 0x45",
     inner_l3("ip", lambda ip: "%s[0:1] == 45" % ip), []),
    ("inner proto tcp @l4 2 2 443",
     # proto: the IPv4 header's protocol, the IPv6 chain's upper layer
     "!%s && frame.protocols matches "
     "\"^%s(ip|ipv6):%s(ip:|ipv6:%s)tcp(:|$)\" && tcp#1[2:2] == 01:bb"
     % (QUOTED, NOT_L3, NOT_L3, EXT), []),
]


LUA = """
local filters = %s
for i, f in ipairs(filters) do
  local ok, l
  if f == "" then
    ok, l = pcall(Listener.new, "frame")
  else
    ok, l = pcall(Listener.new, "frame", f)
  end
  if not ok then
    io.write("bad ", i, " ", tostring(l), "\\n")
  else
    function l.packet(pinfo) io.write(i, " ", pinfo.number, "\\n") end
  end
end
"""


def lua_str(s):
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def tshark_sets(tshark, cap, filters):
    """{pair index: set of frame numbers} from one tshark pass."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(LUA % ("{" + ", ".join(lua_str(x) for x in filters) + "}"))
        script = f.name
    try:
        r = subprocess.run([tshark, "-n", "-q", "-r", cap] + TSHARK_OPTS +
                           ["-X", "lua_script:" + script],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
    finally:
        os.unlink(script)
    if r.returncode != 0:
        raise RuntimeError("tshark failed on %s (exit %d): %s"
                           % (cap, r.returncode, r.stderr.strip()))
    sets = {i: set() for i in range(len(filters))}
    for line in r.stdout.splitlines():
        w = line.split(" ", 2)
        if w[0] == "bad":
            raise RuntimeError("filter %s is refused by tshark: %s"
                               % (filters[int(w[1]) - 1], w[2]))
        sets[int(w[0]) - 1].add(int(w[1]))
    return sets


def dynpf_records(dynpf, cap, rules):
    """{frame: record} of `replay --rules` (xdp-frags, which runs frames of
    any size up to 64 KB; checked against the native classifier)."""
    r = subprocess.run([dynpf, "-j", "replay", cap, "--rules", rules,
                        "--hook", "xdp-frags", "--check-native"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    recs = {}
    for line in r.stdout.splitlines():
        o = json.loads(line)
        if "pkt" in o:
            recs[o["pkt"]] = o
    if r.returncode != 0:
        raise RuntimeError("%s replay %s --rules %s failed (exit %d): %s"
                           % (dynpf, cap, rules, r.returncode,
                              r.stderr.strip()))
    return recs


def write_rules(path, pairs):
    with open(path, "w") as f:
        for i, (rule, _, _) in enumerate(pairs, 1):
            f.write("id %d %s count\n" % (i, rule))


def compare(dynpf, tshark, cap, names, pairs=PAIRS, verbose=False):
    """Each pair's packets on the capture cap (names[frame-1]: where each
    frame comes from, for the report). The number of failures."""
    with tempfile.NamedTemporaryFile("w", suffix=".rules",
                                     delete=False) as f:
        rules = f.name
    try:
        write_rules(rules, pairs)
        recs = dynpf_records(dynpf, cap, rules)
    finally:
        os.unlink(rules)
    sets = tshark_sets(tshark, cap,
                       [p[1] for p in pairs] +
                       ["_ws.malformed", "", "vxlan || geneve || gtp"])
    malformed, seen = sets[len(pairs)], sets[len(pairs) + 1]
    tunnels = sets[len(pairs) + 2]
    frames = sorted(recs)
    bad = 0
    for i, (rule, filt, excl) in enumerate(pairs):
        rid = i + 1
        ours = set()
        skipped = {}
        compared = 0
        # the deepest stack the rule tests: a TLV test any, @l3 the outer
        stack = 0 if "@" in rule and not rule.startswith("inner") else 1
        for n in frames:
            rec = recs[n]
            if rec.get("status") != "parsed":
                # under 14 bytes: no hook runs it, no rule sees it
                skipped.setdefault("not_run", []).append(n)
                continue
            if n not in seen:
                skipped.setdefault(NO_TAP, []).append(n)
                continue
            m = rid in (rec.get("verdict") or {}).get("matched", [])
            t = n in sets[i]
            if m:
                ours.add(n)
            if m == t:
                compared += 1
                continue
            why = [k for k, pred in excl + COMMON
                   if pred(rec, m, n in malformed, stack)]
            if not why and n not in tunnels and udp_tunnel(rec):
                why = [TUNNEL_PORT_OTHER]
            if why:
                skipped.setdefault(why[0], []).append(n)
                continue
            bad += 1
            print("%s: %s: rule %s, filter %s"
                  % (names[n - 1], rule, "counts it" if m else "does not",
                     "selects it" if t else "does not"))
        theirs = sets[i] & set(frames)
        if not ours or not theirs or ours == set(frames) or \
                theirs == set(frames):
            bad += 1
            print("%s: counts %d of %d frames, the filter selects %d: "
                  "each must select some and miss some, else the pair "
                  "cannot fail" % (rule, len(ours), len(frames),
                                   len(theirs)))
        print("%-44s %4d counted, %4d selected, %5d agree%s"
              % (rule, len(ours), len(theirs), compared,
                 "".join(", %d skipped (%s)" % (len(v), k)
                         for k, v in sorted(skipped.items()))))
        if verbose:
            for k, v in sorted(skipped.items()):
                print("  skipped (%s: %s): %s"
                      % (k, DIFFERENCES.get(k, "under 14 bytes: no hook "
                                            "runs it"),
                         " ".join(names[n - 1] for n in v)))
    return bad


# A frame tshark runs no tap on (its Lua listeners see nothing of it).
NO_TAP = excluded("tshark_no_tap", lambda *a: True)[0]
# A tunnel over UDP that tshark does not dissect as one (udp_tunnel()).
TUNNEL_PORT_OTHER = excluded("tunnel_port_other", lambda *a: True)[0]


def udp_tunnel(rec):
    """dynpf parsed a VXLAN, Geneve or GTP-U header right after the outer
    UDP header, which came from a lower port than it went to: tshark
    tries the lower port's protocol first."""
    layers = [x.get("proto") for x in rec.get("layers") or []]
    udp = rec.get("udp") or {}
    return "udp" in layers and layers.index("udp") + 1 < len(layers) and \
        layers[layers.index("udp") + 1] in ("vxlan", "geneve", "gtpu") and \
        udp.get("sport", 65536) < udp.get("dport", 0)


# Differences every pair may meet.
COMMON = [
    excluded("limits", overflow),
    excluded("stops_at_error", stopped),
    excluded("tshark_threw", threw),
    excluded("tpid_9100", tpid_9100),
    excluded("gre_payload", gre_payload),
]
