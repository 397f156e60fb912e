#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Docs stay in sync with the code: every error code and protocol name in
include/dynpf/pkt.h is documented in docs/json-output.md, every error code's
meaning in the README, and every subcommand of the binary in the README."""
import re
import subprocess
import sys

hdr = open('include/dynpf/pkt.h').read()
json_doc = open('docs/json-output.md').read()
readme = open('README.md').read()
bad = []

errors = re.findall(r'X\((\w+), (\d+), "(\w+)", "([^"]*)"\)', hdr)
protos = re.findall(r'X\((\w+), (\d+), "(\w+)"\)',
                    hdr[hdr.index('DYNPF_PROTOS(X)'):hdr.index('enum dynpf_proto {')])
if not errors or not protos:
    bad.append('could not read the X-macro tables of include/dynpf/pkt.h')
for name, val, jname, _ in errors:
    if f'`{jname}`' not in json_doc:
        bad.append(f'error {jname} ({val}) missing from docs/json-output.md')
    if f'`{jname}`' not in readme:
        bad.append(f'error {jname} ({val}) missing from README.md')
for name, val, jname in protos:
    if jname != 'none' and f'`{jname}`' not in json_doc:
        bad.append(f'protocol {jname} ({val}) missing from docs/json-output.md')

# The binary under test: argv[1] (run.sh passes $DYNPF), else build/dynpf.
dynpf = sys.argv[1] if len(sys.argv) > 1 else 'build/dynpf'
usage = subprocess.run([dynpf, 'help'], capture_output=True, text=True).stdout
cmds = re.findall(r'^  (\w+) ', usage[usage.index('Commands:'):], re.M)
for c in cmds:
    if c != 'help' and f'dynpf {c}' not in readme and f'`{c}`' not in readme:
        bad.append(f'command {c} is not described in README.md')

for b in bad:
    print(b)
print(f'{len(errors)} errors, {len(protos)} protocols, {len(cmds)} commands checked, '
      f'{len(bad)} problems')
sys.exit(1 if bad else 0)
