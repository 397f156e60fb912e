# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""A capture: its frames, their expected records (the json of docs/json-output.md)
and the writing of NAME.pcap and NAME.expect.jsonl."""
import json
import os

from scapy.utils import RawPcapWriter

from .common import AUTO, EXT_FAMILY, EXT_PROTOS, L4_PROTOS, MAX_EXT, MAX_TLVS, TS0, blob, offsets


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
        data = blob(specs)
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
        offs = offsets(specs)
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
            if fs.bad_off is not None:  # the header kept, error inside it
                # an option past the area, or a Jumbo Payload option the
                # rules of RFC 2675 refuse (the hop-by-hop header walked)
                assert ename == "tlv_len" or (
                    fs.proto == "hopopts" and ename in ("bad_hdr",
                                                        "truncated"))
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
                if s.ext and s.proto == "ipv4":
                    Capture.expect_ext4(tgt, specs, offs, nlay, i)
                elif s.ext:
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
    def ext_entry(spec, off):
        """The ext list entry of an AH or ESP header (IPv4 and IPv6)."""
        return {"proto": spec.proto, "off": off, "len": spec.hlen,
                **spec.fields}

    @staticmethod
    def expect_ext4(tgt, specs, offs, nlay, i4):
        """ipv4.ext: AH and ESP after the ipv4 header at index i4 among
        the parsed layers (IPv4 has no chain flags)."""
        lst = []
        j = i4 + 1
        while j < nlay and specs[j].proto in ("ah", "esp") and \
                specs[j].stack == specs[i4].stack:
            lst.append(Capture.ext_entry(specs[j], offs[j]))
            j += 1
        assert len(lst) <= MAX_EXT
        tgt["ipv4"]["ext"] = lst

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
        # 65535, or the largest frame (an IPv6 jumbogram) if larger
        snap = max([65535] + [len(d) for _, d, _ in self.frames])
        w = RawPcapWriter(path, linktype=1, snaplen=snap, sync=False)
        w.write_header(None)
        for i, (_, data, _) in enumerate(self.frames):
            usec = i * 1000
            w.write_packet(data, sec=TS0 + usec // 1000000,
                           usec=usec % 1000000)
        w.close()
        with open(os.path.join(outdir, self.name + ".expect.jsonl"), "w") as f:
            for _, _, rec in self.frames:
                f.write(json.dumps(rec) + "\n")
