# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""tshark's layers of a packet mapped onto dynpf's: the stacks (the packet,
the one a tunnel carries), and which of their headers tshark flags."""
from .jsonobj import Obj, find_all, get, get_any, has_any, has_key, is_proto_key, to_int, to_str
from .options import ipv4_option_errors
from .policy import documented
from .protos import TAG_TPID, TSHARK_EXT, TSHARK_L3, TSHARK_L4, TSHARK_UDP_TUN


SEV_ERROR = 0x00800000  # PI_ERROR in _ws.expert.severity

# Top-level items that tshark appends after the layer it stopped in.
STOP_MARKS = ("_ws.malformed", "_ws.short", "_ws.unreassembled")

# Expert items (any severity) by which tshark says a header is invalid in
# the way dynpf reports as a parse error.
AGREE_EXPERTS = {
    "ipv6.plen_exceeds_framing",   # payload length past the frame
    "tcp.option.len.invalid",      # option length 0/1/missing/overrunning
    "ip.bogus_ip_length",
    "ip.bogus_header_length",
    "ip.bogus_ip_version",
    "tcp.short_segment",
    "udp.length.bad",
    "udp.length.bad_zero",
    "geneve.version.unknown",       # bad_version
    "geneve.option.length.invalid",  # an option past the option area
    # RFC 2675, dynpf's bad_hdr at the hop-by-hop header
    "ipv6.opt.jumbo.missing",       # payload length 0, no Jumbo option
    "ipv6.opt.jumbo.prohibited",    # a Jumbo option and a payload length
    "ipv6.opt.jumbo.truncated",     # a Jumbo value below 65,536
    "ipv6.opt.jumbo.fragment",      # a Jumbo option and a fragment header
}

# Subtrees whose expert items say nothing about the header's fixed part:
# TCP option problems are checked through the option list itself (tshark
# rates non-zero bytes after EOL an Error; dynpf ignores them by design).
NOT_FLAGGING = {"tcp.options_tree"}
documented("tcp_after_eol")
# IPv6 extension headers are subtrees of the ipv6 layer (ah too, as a nested
# protocol; esp is a layer of its own): each is compared, and flagged, as a
# header of its own, so a bad option does not hide the fixed IPv6 header.
NOT_FLAGGING |= {"ipv6.hopopts", "ipv6.routing", "ipv6.fraghdr",
                 "ipv6.dstopts"}


def flagged(obj):
    """True when a layer holds a malformed item or an Error expert item."""
    if isinstance(obj, list):
        return any(flagged(v) for v in obj)
    if not isinstance(obj, Obj):
        return False
    for k, v in obj.pairs:
        if k in STOP_MARKS:
            return True
        if k in NOT_FLAGGING:
            continue
        if k == "_ws.expert.severity":
            try:
                if int(v, 0) >= SEV_ERROR:
                    return True
            except (TypeError, ValueError):
                pass
        if isinstance(v, (Obj, list)) and not is_proto_key(k):
            if flagged(v):
                return True
    return False


def ext_children(obj):
    """[(tshark key, Obj)]: the IPv6 extension headers tshark shows inside
    an ipv6 layer, in order."""
    if not isinstance(obj, Obj):
        return []
    return [(k, v) for k, v in obj.pairs
            if k in TSHARK_EXT and isinstance(v, Obj)]


class TLayers:
    """tshark's layer chain for one packet, mapped onto dynpf's positions."""

    def __init__(self, layers):
        self.frame = None
        self.eth = None
        self.tags = []       # (tshark name, Obj)
        self.l3 = None       # (dynpf name, Obj)
        self.l4 = None
        self.ext = []        # IPv6 extension headers: (dynpf name, Obj)
        self.bad = set()     # ids of flagged layer Obj
        self.complains = set()  # ids of layer Obj with an AGREE_EXPERTS item
        self.opts_bad = set()   # ids of tcp Obj whose option walk threw
        jseq = []
        trailers = []   # layers after the exception: Ethernet trailers
        stopped = False
        for k, v in layers.pairs:
            if k == "frame":
                self.frame = v
            elif k in STOP_MARKS:
                stopped = True
            elif stopped and not k.startswith("_ws"):
                trailers.append(k)
            elif not k.startswith("_ws"):
                jseq.append((k, v))
        # tshark leaves a layer it entered but could not add a field to
        # (e.g. 4 bytes of ICMP) out of the JSON; frame.protocols still
        # names it. Align the two, standing in an empty Obj for those.
        protos = [x for x in (to_str(get(self.frame, "frame.protocols"))
                              or "").split(":") if x and x != "ethertype"]
        # The JSON names GTP' "gtpprime", frame.protocols "gtp". A layer
        # frame.protocols does not name at all is a heuristic dissector's
        # leftover (e.g. "cups" on UDP port 631, which then hands on to
        # vxlan by the destination port): not a header of the packet.
        # A trailer dissector (vssmonitoring, ...) runs after the exception
        # that ended the packet: it is not the header that threw.
        for k in trailers:
            if k in protos:
                del protos[len(protos) - 1 - protos[::-1].index(k)]
        jseq = [("gtp" if k == "gtpprime" else k, v) for k, v in jseq]
        jseq = [(k, v) for k, v in jseq if k in protos]
        # A protocol dissected inside a layer (an MPTCP option in tcp, the
        # quoted header in icmp) is part of that layer.
        seq = []
        j = 0
        last = None      # (layer Obj, where) of the last protocol entered
        nested_ext = 0   # extension headers of the ipv6 layer entered
        for x in protos:
            if j < len(jseq) and jseq[j][0] == x:
                seq.append(jseq[j])
                j += 1
                # frame.protocols names MPLS once for all label entries;
                # the JSON has a layer per entry.
                while x == "mpls" and j < len(jseq) and jseq[j][0] == x:
                    seq.append(jseq[j])
                    j += 1
                last = (seq[-1][1], "layer")
                nested_ext = 0
            elif (seq and seq[-1][0] == "ipv6" and x in TSHARK_EXT
                  and nested_ext < len(ext_children(seq[-1][1]))
                  and ext_children(seq[-1][1])[nested_ext][0] == x):
                # An extension header inside the ipv6 layer: a header of
                # its own for the exception that may end the dissection.
                last = (ext_children(seq[-1][1])[nested_ext][1], "layer")
                nested_ext += 1
            elif seq and has_key(seq[-1][1], x):
                opts = get(seq[-1][1], "tcp.options_tree")
                last = (seq[-1][1], "options" if has_key(opts, x)
                        else "layer")
            elif seq and seq[-1][0] == x and not seq[-1][1].pairs and \
                    j >= len(jseq):
                # A header tshark could not add a field to cannot hold
                # another of its kind: frame.protocols names some twice
                # (arp:arp for a truncated ARP packet).
                pass
            else:
                seq.append((x, Obj([])))
                last = (seq[-1][1], "layer")
        seq += jseq[j:]
        # tshark's ip dissector hands a header of version 6 to ipv6 (the
        # ip layer then is empty or absent from the JSON): one header.
        merged = []
        for k, v in seq:
            if k == "ipv6" and merged and merged[-1][0] == "ip" and \
                    (not merged[-1][1].pairs or
                     to_int(get(merged[-1][1], "ip.version")) == 6):
                ip = merged[-1][1]
                merged[-1] = ("ip", Obj(ip.pairs + v.pairs))
                if last is not None and (last[0] is v or last[0] is ip):
                    last = (merged[-1][1], last[1])
                continue
            merged.append((k, v))
        seq = merged
        if j < len(jseq) or last is None:
            last = (seq[-1][1], "layer") if seq else None
        for k, v in seq + [e for k, v in seq if k == "ipv6"
                           for e in ext_children(v)]:
            if flagged(v):
                self.bad.add(id(v))
            if has_any(v, AGREE_EXPERTS):
                self.complains.add(id(v))
            if k == "ip" and ipv4_option_errors(v):
                self.complains.add(id(v))
        for k, v in seq:
            # The Jumbo option's faults (RFC 2675) are the hop-by-hop
            # header's to dynpf. tshark finds one with a fragment header at
            # the fragment header, and a Jumbo value past the packet as a
            # payload length past the frame (at the IPv6 header).
            kids = ext_children(v) if k == "ipv6" else []
            if any(find_all(o, "ipv6.opt.jumbo.fragment") for _, o in kids) \
                    or (to_int(get(v, "ipv6.plen")) == 0 and
                        find_all(v, "ipv6.plen_exceeds_framing")):
                self.complains.update(id(o) for n, o in kids
                                      if n == "ipv6.hopopts")
        self.stop_obj = last[0] if stopped and last is not None else None
        if stopped and last is not None:
            # The exception that ended the dissection (malformed, short
            # frame, fragment boundary) came from the last protocol entered.
            if last[1] == "options":
                self.opts_bad.add(id(last[0]))
            else:
                self.bad.add(id(last[0]))
        self.stacks = []
        if seq and seq[0][0] == "eth":
            self._walk(seq, 0)
        st = self.stacks[0] if self.stacks else TStack(self)
        # Stack 0 is what the rest of the script calls the packet's layers.
        self.eth, self.tags, self.l3, self.l4, self.ext = \
            st.eth, st.tags, st.l3, st.l4, st.ext

    def _walk(self, seq, i):
        """One stack of tshark's layers from seq[i]: link (eth and tags),
        MPLS labels, L3 (with IPv6 extension headers), L4, tunnel header;
        the packet a tunnel carries is the next stack."""
        st = TStack(self)
        self.stacks.append(st)
        if i < len(seq) and seq[i][0] == "eth":
            st.eth = seq[i][1]
            i += 1
            while i < len(seq) and seq[i][0] in ("vlan", "ieee8021ad"):
                st.tags.append(seq[i])
                i += 1
        while i < len(seq) and seq[i][0] == "mpls":
            st.mpls.append(seq[i][1])
            i += 1
        if i < len(seq):
            st.after_mpls = seq[i]
        if i < len(seq) and seq[i][0] in TSHARK_L3:
            st.l3 = (TSHARK_L3[seq[i][0]], seq[i][1])
            i += 1
            if st.l3[0] == "ipv6":
                st.ext = [(TSHARK_EXT[k], v)
                          for k, v in ext_children(st.l3[1])]
            if st.l3[0] in ("ipv4", "ipv6"):
                # AH and ESP behind IPv4 are layers of their own, as ESP
                # (and an AH tshark could not nest) behind IPv6.
                while i < len(seq) and seq[i][0] in TSHARK_EXT:
                    st.ext.append((TSHARK_EXT[seq[i][0]], seq[i][1]))
                    i += 1
            if i < len(seq) and seq[i][0] in TSHARK_L4:
                st.l4 = (TSHARK_L4[seq[i][0]], seq[i][1])
                i += 1
        if i >= len(seq):
            return
        k = seq[i][0]
        if st.l4 is not None and st.l4[0] == "udp" and k in TSHARK_UDP_TUN:
            st.tunnel = (TSHARK_UDP_TUN[k], seq[i][1])
            i += 1
        elif st.l3 is not None and st.l3[0] != "arp" and st.l4 is None \
                and k == "gre":
            st.tunnel = ("gre", seq[i][1])
            i += 1
        elif st.l3 is not None and st.l3[0] != "arp" and st.l4 is None \
                and k in ("ip", "ipv6"):
            st.ipip = True
        else:
            return
        if i < len(seq):
            st.next = seq[i]
            if seq[i][0] in ("eth", "ip", "ipv6", "mpls"):
                self._walk(seq, i)

    def stack(self, s):
        return self.stacks[s] if s < len(self.stacks) else None

    def is_bad(self, obj):
        return obj is not None and id(obj) in self.bad

    def agrees_bad(self, obj):
        return obj is not None and (id(obj) in self.bad
                                    or id(obj) in self.complains)

    def tag_list(self):
        """[(tpid, vid, pcp, dei, Obj)] as dynpf would see them, and the
        ethertype after them (the first non-tag type)."""
        et = to_int(get(self.eth, "eth.type"))
        if et is None:
            et = to_int(get(self.eth, "eth.len"))
        tags = []
        for name, obj in self.tags:
            if et not in TAG_TPID:
                # e.g. 0x9100, which tshark takes as a tag
                documented("tpid_9100")
                break
            if name == "ieee8021ad":
                pcps = find_all(obj, "ieee8021ad.priority")
                deis = find_all(obj, "ieee8021ad.dei")
                nxt = get_any(obj, "ieee8021ah.etype", "ieee8021ad.etype")
                cvid = get(obj, "ieee8021ad.cvid")
                if cvid is not None and len(pcps) == 2 and len(deis) == 2:
                    # An 802.1ad tag right inside an 802.1ad tag: tshark
                    # shows both in one layer, as S-VID and C-VID.
                    tags.append((et, to_int(get(obj, "ieee8021ad.svid")),
                                 to_int(pcps[0]), to_int(deis[0]), obj))
                    tags.append((0x88a8, to_int(cvid), to_int(pcps[1]),
                                 to_int(deis[1]), obj))
                    et = to_int(nxt)
                    continue
                vid = get_any(obj, "ieee8021ad.id", "ieee8021ad.svid")
                pcp = pcps[0] if pcps else None
                dei = deis[0] if deis else None
            else:
                vid = get(obj, "vlan.id")
                pcp = get(obj, "vlan.priority")
                dei = get_any(obj, "vlan.dei", "vlan.cfi")
                nxt = get_any(obj, "vlan.etype", "vlan.len")
            tags.append((et, to_int(vid), to_int(pcp), to_int(dei), obj))
            et = to_int(nxt)
        return tags, et


class TStack:
    """tshark's layers of one stack (the packet, or the one a tunnel
    carries), mapped onto dynpf's positions."""

    def __init__(self, top):
        self.top = top
        self.eth = None
        self.tags = []       # (tshark name, Obj)
        self.mpls = []       # one Obj per label entry
        self.after_mpls = None  # (tshark name, Obj) after the link layers
        self.l3 = None       # (dynpf name, Obj)
        self.l4 = None
        self.ext = []        # IPv6 extension headers, AH and ESP behind
        #                      IPv4: (dynpf name, Obj)
        self.tunnel = None   # (dynpf name, Obj)
        self.ipip = False    # an IP header follows the L3 header directly
        self.next = None     # (tshark name, Obj) after the tunnel header

    @property
    def opts_bad(self):
        return self.top.opts_bad

    @property
    def stop_obj(self):
        return self.top.stop_obj

    def layer(self, name):
        """The tshark Obj dissecting dynpf layer `name`, or None."""
        if name == "eth":
            return self.eth
        if name == "mpls":
            return self.mpls[0] if self.mpls else None
        for lay in (self.l3, self.l4, self.tunnel):
            if lay is not None and lay[0] == name:
                return lay[1]
        return None

    def objs(self):
        """Every tshark layer Obj of this stack."""
        return [o for o in [self.eth] + [o for _, o in self.tags] +
                self.mpls + [x[1] for x in (self.l3, self.l4, self.tunnel)
                             if x is not None] + [o for _, o in self.ext]
                if o is not None]

    def ext_at(self, k, name):
        """tshark's k-th IPv6 extension header if it is a `name`, or None."""
        if k < len(self.ext) and self.ext[k][0] == name:
            return self.ext[k][1]
        return None

    def is_bad(self, obj):
        return self.top.is_bad(obj)

    def agrees_bad(self, obj):
        return self.top.agrees_bad(obj)

    def is_bad_any(self, objs):
        return any(self.is_bad(o) for o in objs)

    def tag_list(self):
        return TLayers.tag_list(self)
