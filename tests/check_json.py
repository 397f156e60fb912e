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
             'frag_off', 'nonfirst_frag', 'options'},
    'ipv6': {'src', 'dst', 'next_header', 'hop_limit', 'tclass', 'flow_label', 'payload_len',
             'ext', 'ext_flags', 'nonfirst_frag'},
    'tcp': {'sport', 'dport', 'seq', 'ack', 'window', 'hdr_len', 'flags', 'flag_names',
            'options'},
    'udp': {'sport', 'dport', 'ulen'},
    'icmp': {'type', 'code'},
    'icmpv6': {'type', 'code'},
    'mpls': {'labels'},
    'gre': {'flags', 'version', 'proto', 'checksum_present'},
    'vxlan': {'flags', 'vni'},
    'geneve': {'version', 'opt_len', 'oam', 'critical', 'proto', 'vni', 'options'},
    'gtpu': {'flags', 'version', 'msg_type', 'teid', 'ext'},
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
            # Stack 1 (a tunnel's inner packet) is reported under "inner".
            holder = r if layer.get('stack', 0) == 0 else r.get('inner', {})
            where_p = proto if holder is r else f'inner.{proto}'
            if proto in PER_LAYER:
                if proto not in holder:
                    missing.add(where_p)
                else:
                    missing |= {f'{where_p}.{k}'
                                for k in PER_LAYER[proto] - holder[proto].keys()}
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
