#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Docs stay in sync with the code, and the man pages with the docs.

- Every error code and protocol name of include/dynpf/pkt.h is in
  docs/json-output.md, every error code in docs/cli.md and dynpf(8).
- Every command of `dynpf help`, every subcommand of rules and rule, every
  option of `dynpf help` and of each command's --help, and every long option
  of the code's getopt tables (loader/) are in docs/cli.md and dynpf(8).
- Every key the configuration reader knows (loader/daemon/config.c) is in
  docs/config.md and dynpf.conf(5).
- Every rule keyword of docs/rules.md's tables (Matches, Actions), every
  setting and every control-channel error is in dynpf-rules(7).
- Every page renders without a warning, on a terminal and in PostScript.
- Every known difference from tshark (tests/tshark/policy.py, DIFFERENCES)
  has its line in docs/parsing.md ("Where dynpf and tshark differ") and is
  used by the comparison, and that section names no other.

Usage: check_docs.py [DYNPF [MANDIR]] (run.sh passes $DYNPF and $BUILD/man;
default build/dynpf and build/man, which make man writes)."""
import os
import re
import subprocess
import sys

dynpf = sys.argv[1] if len(sys.argv) > 1 else 'build/dynpf'
mandir = sys.argv[2] if len(sys.argv) > 2 else 'build/man'
bad = []


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError as e:
        bad.append(f'{path}: {e.strerror}' + (': make man' if path.startswith(mandir) else ''))
        return ''


def help_of(*args):
    r = subprocess.run([dynpf, *args], capture_output=True, text=True)
    return r.stdout + r.stderr


def man_text(page):
    """A page's text as its roff source says it: fonts and escapes off, one
    line (pandoc wraps lines between words)."""
    s = read(os.path.join(mandir, page))
    s = re.sub(r'\\f(\[[A-Z]*\]|[A-Z])', '', s)
    s = s.replace('\\-', '-').replace('\\[aq]', "'").replace('\\&', '')
    return ' '.join(s.split())


def require(what, names, docs, fmt='{}'):
    """Each of names must be in each of docs ({name: text}), as fmt says."""
    for n in sorted(names):
        for doc, text in docs.items():
            if fmt.format(n) not in text:
                bad.append(f'{what} {n} missing from {doc}')


OPT = re.compile(r'(?<![\w-])(--?[A-Za-z][\w-]*)')


def options(text):
    """The options a --help text defines (its option lines) or shows in its
    usage lines."""
    opts = set()
    for line in text.splitlines():
        s = line.strip()
        if s.startswith(('Usage:', 'dynpf ')):
            opts.update(OPT.findall(s))
        elif re.match(r'\s+-', line):
            opts.update(OPT.findall(re.split(r'\s{2,}', s)[0]))
    return opts


pages = {p: man_text(p) for p in ('dynpf.8', 'dynpf.conf.5', 'dynpf-rules.7')}

# Parse errors and protocols: the X-macro tables of the ABI.
hdr = read('include/dynpf/pkt.h')
json_doc = read('docs/json-output.md')
cli = read('docs/cli.md')
errors = re.findall(r'X\((\w+), (\d+), "(\w+)", "([^"]*)"\)', hdr)
protos = re.findall(r'X\((\w+), (\d+), "(\w+)"\)',
                    hdr[hdr.index('DYNPF_PROTOS(X)'):hdr.index('enum dynpf_proto {')])
if not errors or not protos:
    bad.append('could not read the X-macro tables of include/dynpf/pkt.h')
errs = {jname for _, _, jname, _ in errors}
require('error', errs, {'docs/json-output.md': json_doc, 'docs/cli.md': cli}, '`{}`')
require('error', errs, {'dynpf(8)': pages['dynpf.8']})
require('protocol', {j for _, _, j in protos if j != 'none'},
        {'docs/json-output.md': json_doc}, '`{}`')

# Commands, subcommands and options: the binary's own help.
usage = help_of('help')
cmds = [c for c in re.findall(r'^  (\w+) ', usage[usage.index('Commands:'):], re.M)
        if c != 'help']
rules_help = help_of('rules', '--help')
subs = ['rules ' + s for s in
        re.findall(r'^  (\w+) ', rules_help[rules_help.index('Subcommands:'):], re.M)]
subs += ['rule ' + s for s in re.findall(r'dynpf rule (\w+)', help_of('rule', '--help'))]
opts = options(usage)
for c in cmds + subs[:3]:
    opts |= options(help_of(*c.split(), '--help'))
for root, _, files in os.walk('loader'):
    for f in (f for f in files if f.endswith(('.c', '.h'))):
        opts.update('--' + o for o in re.findall(
            r'\{ *"([a-z][a-z0-9-]*)", *(?:no|required|optional)_argument',
            read(os.path.join(root, f))))
if len(cmds) < 10 or len(subs) < 6 or len(opts) < 40:
    bad.append(f'could not read the help of {dynpf}: {len(cmds)} commands, '
               f'{len(subs)} subcommands, {len(opts)} options')
both = {'docs/cli.md': ' '.join(cli.split()), 'dynpf(8)': pages['dynpf.8']}
require('command', cmds + subs, both, 'dynpf {}')
require('option', opts, both)

# Configuration keys: the reader's tables of known keys.
keys = set()
for table in re.findall(r'char \*const \w*keys\[\] = \{([^}]*)\}', read('loader/daemon/config.c')):
    keys.update(re.findall(r'"(\w+)"', table))
if len(keys) < 12:
    bad.append(f'could not read the keys of loader/daemon/config.c: {sorted(keys)}')
require('configuration key', keys, {'docs/config.md': read('docs/config.md')}, '`{}`')
require('configuration key', keys, {'dynpf.conf(5)': pages['dynpf.conf.5']})

# Rule keywords (the grammar's and the tables'), settings and control-channel
# errors: docs/rules.md.
rules_doc = read('docs/rules.md')
words = set()
for section in ('### Matches', '### Actions'):
    part = rules_doc[rules_doc.index(section):]
    part = part[:part.index('\n#', 1)]
    for row in (ln for ln in part.splitlines() if ln.startswith('| `')):
        for span in re.findall(r'`([^`]*)`', row):
            words.update(w for w in re.split(r'[\s,|]+', span)
                         if re.fullmatch(r'[a-z][a-z0-9_-]*', w))
grammar = rules_doc[rules_doc.index('    rule     ='):rules_doc.index('    file     =')]
words |= set(re.findall(r'"([a-z][\w-]*)"', grammar))
ctrl_errs = set()
for cell in re.findall(r'^\| (`E[A-Z0-9]+`[^|]*)\|', rules_doc, re.M):
    ctrl_errs.update(re.findall(r'`(E[A-Z0-9]+)`', cell))
if len(words) < 80 or len(ctrl_errs) < 8:
    bad.append(f'could not read docs/rules.md: {len(words)} keywords, {len(ctrl_errs)} errors')
require('rule keyword', words, {'dynpf-rules(7)': pages['dynpf-rules.7']})
require('control-channel error', ctrl_errs, {'dynpf-rules(7)': pages['dynpf-rules.7']})

# The known differences from tshark: the keys of DIFFERENCES, the keys the
# comparisons skip or side with (known(), documented(), excluded()), and the lines of
# docs/parsing.md's section, one key each, are the same.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tshark.policy import DIFFERENCES  # noqa: E402

parsing = read('docs/parsing.md')
sect = parsing.split('\n## Where dynpf and tshark differ\n', 1)
sect = sect[1].split('\n## ', 1)[0] if len(sect) == 2 else ''
lines = re.findall(r'^- `([a-z0-9_]+)`: \S', sect, re.M)
used = set()
for f in os.listdir('tests/tshark'):
    if f.endswith('.py'):
        used.update(re.findall(r'\b(?:known|documented|excluded)\((?:c, )?"([a-z0-9_]+)"',
                               read(os.path.join('tests/tshark', f))))
if not lines:
    bad.append('docs/parsing.md: no section "Where dynpf and tshark differ" listing keys')
if read('tests/tshark/policy.py').count('c.skip(') != 1:
    bad.append('tests/tshark/policy.py: skip an error only through known() (a key of DIFFERENCES)')
for k in sorted(set(lines) - set(DIFFERENCES)):
    bad.append(f'docs/parsing.md lists `{k}`, which tests/tshark/policy.py does not know')
for k in sorted(set(DIFFERENCES) - set(lines)):
    bad.append(f'known difference {k} (tests/tshark/policy.py) missing from docs/parsing.md')
for k in sorted(k for k in set(lines) if lines.count(k) > 1):
    bad.append(f'docs/parsing.md lists `{k}` {lines.count(k)} times')
for k in sorted(used - set(DIFFERENCES)):
    bad.append(f'tests/tshark uses known difference {k}, which DIFFERENCES does not hold')
for k in sorted(set(DIFFERENCES) - used):
    bad.append(f'known difference {k} is used nowhere in tests/tshark')

# Rendering: a terminal's (what man shows) and PostScript's.
for p in pages:
    path = os.path.join(mandir, p)
    if not os.path.exists(path):
        continue
    if '.SH NAME' not in read(path):
        bad.append(f'{p}: no NAME section')
    for dev in ('-Tutf8', '-Tps'):
        r = subprocess.run(['groff', '-t', '-man', dev, '-ww', '-z', path],
                           capture_output=True, text=True)
        if r.returncode or r.stderr:
            bad.append(f'{p}: groff {dev}: exit {r.returncode}: {r.stderr.strip()}')

for b in bad:
    print(b)
print(f'{len(errs)} errors, {len(protos)} protocols, {len(cmds)} commands, '
      f'{len(subs)} subcommands, {len(opts)} options, {len(keys)} configuration keys, '
      f'{len(words)} rule keywords, {len(ctrl_errs)} control-channel errors, '
      f'{len(DIFFERENCES)} known differences from tshark, '
      f'{len(pages)} man pages checked, {len(bad)} problems')
sys.exit(1 if bad else 0)
