#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Every `ok` parse is bounded by the shortest enclosing length (issue 17).

Reads dynpf's JSON records (`dynpf -j replay ...`, `dynpf -j parse ...`,
docs/json-output.md) from the given files, or from stdin, and for every
record whose error is "ok" walks its layers in order with a bound B that
starts at the frame's length. Each length-bearing layer lowers B for every
layer after it, inner stacks included:

    ipv4 at o    o + tot_len
    ipv6 at o    o + 40 + payload_len, or o + 40 + jumbo when payload_len is 0
                 and its hop-by-hop header carries a Jumbo Payload option
    udp at o     o + ulen
    gtpu at o    o + 8 + length (skipped, with a note, while the JSON gtpu
                 object has no "length")

A layer that ends past B (or past its own length field), or a payload_off past
the bound of its L4 header, is a violation: printed with the packet number,
the hook, the layer and the length field it overruns. Exit 1 on any violation,
or when no packet record was read; 0 otherwise.

Usage: check_bounds.py [--max-print N] [JSONL...]"""
import argparse
import collections
import json
import sys

L4 = {'tcp', 'udp', 'icmp', 'icmpv6'}


def stack_fields(rec, stack):
    """The object holding stack `stack`'s per-protocol objects: the record
    itself for stack 0, its "inner" object for stack 1."""
    if stack == 0:
        return rec
    return rec.get('inner')


def jumbo_of(ipv6):
    """The Jumbo Payload value of the hop-by-hop header of this IPv6 object's
    extension headers, or None."""
    for e in ipv6.get('ext', []):
        if e.get('proto') == 'hopopts' and 'jumbo' in e:
            return e['jumbo']
    return None


def own_end(proto, off, obj, notes):
    """(end, field, value) that a length-bearing layer at off announces, or
    None."""
    if proto == 'ipv4':
        return off + obj['tot_len'], 'ipv4 tot_len', obj['tot_len']
    if proto == 'ipv6':
        plen = obj['payload_len']
        if plen == 0:
            jumbo = jumbo_of(obj)
            if jumbo is not None:
                return off + 40 + jumbo, 'ipv6 jumbo', jumbo
        if plen == 0 and obj.get('next_header') == 0:
            return off + 40, 'ipv6 payload_len', '0 (and no Jumbo Payload option)'
        return off + 40 + plen, 'ipv6 payload_len', plen
    if proto == 'udp':
        if obj['ulen'] == 0:  # a UDP jumbogram (RFC 2675): it ends with the jumbogram
            return None
        return off + obj['ulen'], 'udp ulen', obj['ulen']
    if proto == 'gtpu':
        if 'length' not in obj:
            notes.add('gtpu: the JSON gtpu object has no "length" yet: '
                      'the GTP-U Length is not checked')
            return None
        return off + 8 + obj['length'], 'gtpu length', obj['length']
    return None


def check_record(rec, notes):
    """The violations of one ok record: (the length field overrun, text)."""
    bad = []
    where = 'pkt %s hook %s' % (rec.get('pkt'), rec.get('hook'))
    bound, field, why = rec['len'], 'frame length', 'the frame length %d' % rec['len']
    l4_bound = None
    for i, lay in enumerate(rec.get('layers', [])):
        proto, off, end, stack = lay['proto'], lay['off'], lay['off'] + lay['len'], lay['stack']
        name = 'layer %d %s (stack %d, bytes %d..%d)' % (i, proto, stack, off, end)
        if end > bound:
            bad.append((field, '%s: %s overruns %s: it ends at %d'
                        % (where, name, why, bound)))
        holder = stack_fields(rec, stack)
        if holder is None:
            bad.append(('no inner', '%s: %s: no "inner" object for stack %d'
                        % (where, name, stack)))
            continue
        obj = holder.get(proto)
        own = own_end(proto, off, obj, notes) if obj is not None else None
        if own is not None:
            own_end_, own_field, value = own
            if end > own_end_:
                bad.append((own_field, '%s: %s overruns its own %s %s: it ends at %d'
                            % (where, name, own_field, value, own_end_)))
            if own_end_ < bound:
                bound, field = own_end_, own_field
                why = '%s %s (layer %d, stack %d, at %d)' % (own_field, value, i, stack, off)
        if proto in L4:
            l4_bound = (bound, field, why)
    if 'payload_off' in rec and l4_bound and rec['payload_off'] > l4_bound[0]:
        bad.append((l4_bound[1], '%s: payload_off %d overruns %s: it ends at %d'
                    % (where, rec['payload_off'], l4_bound[2], l4_bound[0])))
    return bad


def records(paths):
    for path in paths or ['-']:
        f = sys.stdin if path == '-' else open(path)
        with f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line.startswith('{'):
                    continue
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as e:
                    sys.exit('%s:%d: not JSON: %s' % (path, n, e))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--max-print', type=int, default=20,
                    help='print the first violation of at most this many records (default 20)')
    ap.add_argument('jsonl', nargs='*', help='JSON lines (default: stdin)')
    a = ap.parse_args()
    notes = set()
    nrec = nok = nbad_rec = nbad = 0
    by_field = collections.Counter()
    for rec in records(a.jsonl):
        if 'pkt' not in rec or rec.get('status') != 'parsed':
            continue
        nrec += 1
        if rec.get('error') != 'ok':
            continue
        nok += 1
        bad = check_record(rec, notes)
        if bad:
            nbad_rec += 1
            # A record counts once for each length field it overruns.
            by_field.update({field for field, _ in bad})
        nbad += len(bad)
        if bad and nbad_rec <= a.max_print:
            more = ' (and %d more in this record)' % (len(bad) - 1) if len(bad) > 1 else ''
            print(bad[0][1] + more)
    if nbad_rec > a.max_print:
        print('... and %d more records' % (nbad_rec - a.max_print))
    for n in sorted(notes):
        print('note:', n)
    if by_field:
        print('records by the length field overrun:',
              ', '.join('%s %d' % kv for kv in sorted(by_field.items())))
    print('%d records parsed, %d ok, %d violations in %d records'
          % (nrec, nok, nbad, nbad_rec))
    if not nrec:
        print('no packet record read')
        return 1
    return 1 if nbad else 0


if __name__ == '__main__':
    sys.exit(main())
