#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Check that `dynpf -j parse` prints the fields docs/json-output.md promises,
for every packet of the given captures. Usage: check_json.py DYNPF CAPTURE..."""
import json
import subprocess
import sys

ALWAYS = {'pkt', 'hook', 'len', 'status', 'error', 'layers'}
ON_ERROR = {'error_layer', 'error_proto', 'error_off'}
LAYER_KEYS = {'proto', 'off', 'len', 'stack'}
PER_LAYER = {
    'eth': {'dst', 'src', 'ethertype', 'vlans'},
    'arp': {'htype', 'ptype', 'hlen', 'plen', 'op'},
    'ipv4': {'src', 'dst', 'proto', 'ttl', 'tos', 'tot_len', 'id', 'hdr_len', 'df', 'mf',
             'frag_off', 'nonfirst_frag'},
    'ipv6': {'src', 'dst', 'next_header', 'hop_limit', 'tclass', 'flow_label', 'payload_len'},
    'tcp': {'sport', 'dport', 'seq', 'ack', 'window', 'hdr_len', 'flags', 'flag_names',
            'options'},
    'udp': {'sport', 'dport', 'ulen'},
    'icmp': {'type', 'code'},
    'icmpv6': {'type', 'code'},
}
L4 = {'tcp', 'udp', 'icmp', 'icmpv6'}


def check(cap, dynpf):
    out = subprocess.run([dynpf, '-j', 'parse', cap], capture_output=True, text=True)
    lines = out.stdout.splitlines()
    bad = []
    if not lines or not json.loads(lines[-1]).get('summary'):
        return [f'{cap}: the last line is not the summary record']
    for n, line in enumerate(lines[:-1], 1):
        r = json.loads(line)
        where = f'{cap}: pkt {r.get("pkt")}'
        if r.get('pkt') != n:
            bad.append(f'{where}: "pkt" should be {n}')
        missing = ALWAYS - r.keys()
        if r.get('error') != 'ok':
            missing |= ON_ERROR - r.keys()
        for layer in r.get('layers', []):
            if LAYER_KEYS - layer.keys():
                bad.append(f'{where}: layer {layer} lacks {LAYER_KEYS - layer.keys()}')
            proto = layer.get('proto')
            if proto in PER_LAYER:
                if proto not in r:
                    missing.add(proto)
                else:
                    missing |= {f'{proto}.{k}' for k in PER_LAYER[proto] - r[proto].keys()}
            if proto in L4 and 'payload_off' not in r:
                missing.add('payload_off')
        if missing:
            bad.append(f'{where}: missing {sorted(missing)}')
    return bad


def main():
    dynpf, caps = sys.argv[1], sys.argv[2:]
    bad = [b for cap in caps for b in check(cap, dynpf)]
    for b in bad:
        print(b)
    print(f'{len(caps)} captures checked, {len(bad)} problems')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
