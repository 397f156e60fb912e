#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""The arrows between loader/'s folders run one way: every include of a
loader header names its folder (but the BPF baselines' own, *.bpf.*), and a
folder includes only its own headers and those of the folders
loader/README.md's table says it may call. Also:
include/ includes nothing of the project, parsers/ only parsers/ and the
ABI, bpf/ never loader/. Prints each include that breaks a rule; exit 1."""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def may_call():
    """folder -> the folders it may include, from loader/README.md's table."""
    text = open(os.path.join(ROOT, 'loader/README.md')).read()
    folders = re.findall(r'^\| `(\w+)/` \|', text, re.M)
    allowed = {}
    for row in re.findall(r'^\| `(\w+)/` \|.*\| ([^|]*) \|$', text, re.M):
        name, calls = row
        if calls.strip().startswith('everything below'):
            allowed[name] = set(folders[folders.index(name) + 1:])
        else:
            allowed[name] = set(re.findall(r'\b(\w+)\b', calls)) & set(folders)
    return folders, allowed


def sources(top):
    for d, _, files in os.walk(os.path.join(ROOT, top)):
        for f in files:
            if f.endswith(('.c', '.h')):
                yield os.path.join(d, f)


def main():
    folders, allowed = may_call()
    bad = []
    if sorted(folders) != sorted(allowed) or len(folders) < 8:
        sys.exit('loader/README.md: the table of folders is not as expected')
    present = sorted(e for e in os.listdir(os.path.join(ROOT, 'loader'))
                     if os.path.isdir(os.path.join(ROOT, 'loader', e)))
    if present != sorted(folders):
        bad.append(f'loader/README.md lists {sorted(folders)}, loader/ holds {present}')
    for path in sources('loader'):
        rel = os.path.relpath(path, ROOT)
        own = rel.split('/')[1]
        for inc in INC.findall(open(path).read()):
            top = inc.split('/')[0] if '/' in inc else None
            if top in folders:
                if top != own and top not in allowed[own]:
                    bad.append(f'{rel}: includes {inc}: {own}/ may not call {top}/')
            elif os.path.exists(os.path.join(ROOT, 'loader', own, inc)) and '.bpf.' not in rel:
                bad.append(f'{rel}: includes "{inc}" without its folder ("{own}/{inc}")')
    rules = [('include', lambda i: False),
             ('parsers', lambda i: '/' not in i or i.startswith('dynpf/')),
             ('rules', lambda i: '/' not in i or i.startswith('dynpf/')),
             ('bpf', lambda i: i.split('/')[0] not in folders)]
    for top, ok in rules:
        for path in sources(top):
            for inc in INC.findall(open(path).read()):
                known = inc.startswith('dynpf/') or any(
                    os.path.exists(os.path.join(ROOT, t, inc))
                    for t in ('include', 'parsers', 'rules', 'bpf'))
                if top == 'include' and not inc.startswith('dynpf/') and known:
                    bad.append(f'{os.path.relpath(path, ROOT)}: include/ includes {inc}')
                elif top != 'include' and not ok(inc):
                    bad.append(f'{os.path.relpath(path, ROOT)}: includes {inc}')
    for b in bad:
        print(b)
    print(f'{len(bad)} includes against the layers')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
