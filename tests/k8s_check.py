#!/usr/bin/env python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""configs/kubernetes/ checked without a cluster (docs/kubernetes.md).

    tests/k8s_check.py                 the checks; ends "k8s_check: N passed, N failed"
    tests/k8s_check.py --emit DIR      the pod's inputs for tests/k8s_test.sh: each
                                       ConfigMap volume as the kubelet lays it out
                                       (DIR/MOUNTPATH/..data -> a dated directory, each
                                       key a symlink through ..data), DIR/caps (the
                                       added capabilities, setpriv's words) and
                                       DIR/env (NAME=VALUE lines: the mount paths)
"""
import json
import os
import re
import sys

import yaml

K8S = 'configs/kubernetes'
DOC = 'docs/kubernetes.md'
# What the daemon needs (docs/kubernetes.md says why), as Kubernetes names them.
CAPS = ['BPF', 'PERFMON', 'NET_ADMIN', 'SYS_ADMIN']
API = {'Namespace': 'v1', 'ConfigMap': 'v1', 'DaemonSet': 'apps/v1'}


def load(name):
    """The objects of a manifest, each with its file and position."""
    path = f'{K8S}/{name}'
    with open(path) as f:
        docs = [d for d in yaml.safe_load_all(f) if d is not None]
    for i, d in enumerate(docs):
        if not isinstance(d, dict):
            raise ValueError(f'{path}: document {i + 1} is not a mapping')
        d['_where'] = f'{path}#{i + 1}'
    return docs


def uncomment(text):
    """dynpf.conf is JSON with // and /* */ comments (outside strings)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == '\\' else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith('//', i):
            i = text.find('\n', i) if '\n' in text[i:] else n
        elif text.startswith('/*', i):
            i = text.index('*/', i) + 2
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def containerfile():
    """The Containerfile's instructions: [(INSTRUCTION, argument)], lines joined."""
    lines, cur = [], ''
    for ln in open(f'{K8S}/Containerfile'):
        ln = ln.rstrip('\n')
        if not cur and (not ln.strip() or ln.lstrip().startswith('#')):
            continue
        if ln.endswith('\\'):
            cur += ln[:-1]
            continue
        cur += ln
        word, _, arg = cur.strip().partition(' ')
        lines.append((word.upper(), arg.strip()))
        cur = ''
    return lines


def indented(text):
    """Every command of TEXT's indented (code) blocks, joined by && or not."""
    return [c.strip() for ln in text.split('\n') if ln.startswith('    ')
            for c in ln.split(' && ')]


def doc_block(after):
    """The indented block that follows the paragraph containing AFTER in the doc."""
    text = open(DOC).read()
    at = text.index(after)
    rest = text[at:].split('\n')
    block, started = [], False
    for ln in rest[1:]:
        if ln.startswith('    '):
            started = True
            block.append(ln[4:])
        elif started:
            break
    return block


class Pod:
    """What the checks and --emit need from the manifests."""

    def __init__(self):
        objs = load('dynpf.yaml') + load('rules.yaml')
        self.objs = objs
        by = {}
        for o in objs:
            by.setdefault(o.get('kind'), []).append(o)
        self.by = by
        self.ds = by['DaemonSet'][0]
        self.spec = self.ds['spec']['template']['spec']
        self.ctr = self.spec['containers'][0]
        self.cms = {c['metadata']['name']: c for c in by['ConfigMap']}
        self.volumes = {v['name']: v for v in self.spec.get('volumes', [])}
        self.mounts = {m['name']: m for m in self.ctr.get('volumeMounts', [])}
        self.conf_text = self.cms['dynpf-config']['data']['dynpf.conf']
        self.conf = json.loads(uncomment(self.conf_text))

    def mount_of(self, path):
        """The mount holding PATH, the deepest one."""
        best = None
        for m in self.mounts.values():
            mp = m['mountPath'].rstrip('/')
            if path == mp or path.startswith(mp + '/'):
                if best is None or len(mp) > len(best['mountPath'].rstrip('/')):
                    best = m
        return best

    def env(self):
        return {e['name']: e for e in self.ctr.get('env', [])}


def checks(pod, check):
    for o in pod.objs:
        check(f'{o["_where"]}: {o.get("kind")} has its apiVersion and a name',
              o.get('kind') in API and o.get('apiVersion') == API[o['kind']]
              and bool(o.get('metadata', {}).get('name')),
              f'kind {o.get("kind")!r}, apiVersion {o.get("apiVersion")!r}')
    ns = pod.by['Namespace'][0]['metadata']['name']
    check(f'every object but the namespace is in namespace {ns}',
          all(o['metadata'].get('namespace') == ns for o in pod.objs if o['kind'] != 'Namespace'))
    sel = pod.ds['spec']['selector']['matchLabels']
    labels = pod.ds['spec']['template']['metadata']['labels']
    check('the DaemonSet selects its pods', sel.items() <= labels.items(), f'{sel} vs {labels}')
    check('hostNetwork: true', pod.spec.get('hostNetwork') is True)
    sc = pod.ctr.get('securityContext', {})
    caps = sc.get('capabilities', {})
    check(f'capabilities: drop ALL, add exactly {", ".join(CAPS)}',
          caps.get('drop') == ['ALL'] and sorted(caps.get('add', [])) == sorted(CAPS),
          f'{caps}')
    check('not privileged', not sc.get('privileged') and not pod.spec.get('hostPID'))
    check('no netns in the configuration (hostNetwork: no setns)', 'netns' not in pod.conf)
    # Volumes and mounts, one for one.
    check('every volume mount has its volume, every volume is mounted',
          set(pod.mounts) == set(pod.volumes),
          f'mounts {sorted(pod.mounts)}, volumes {sorted(pod.volumes)}')
    check('no subPath (the kubelet never updates one)',
          not any('subPath' in m or 'subPathExpr' in m for m in pod.mounts.values()))
    sock_dir = os.path.dirname(pod.conf.get('socket', '/run/dynpf/dynpf.sock'))
    for what, path in (('pin_dir', pod.conf.get('pin_dir', '/sys/fs/bpf/dynpf')),
                       ('socket', sock_dir)):
        m = pod.mount_of(path)
        v = pod.volumes.get(m['name'], {}) if m else {}
        host = v.get('hostPath', {}).get('path')
        check(f'{what} {path} is on a hostPath volume of the node\'s same path',
              host is not None and host == m['mountPath'], f'mount {m}, volume {v}')
    bpf = pod.mount_of('/sys/fs/bpf')
    check('/sys/fs/bpf is the node\'s bpffs, mounted whole',
          bpf is not None and bpf['mountPath'] == '/sys/fs/bpf'
          and pod.volumes[bpf['name']]['hostPath'].get('type') == 'Directory')
    rules = pod.conf.get('rules', '')
    m = pod.mount_of(rules)
    cm = pod.volumes.get(m['name'], {}).get('configMap', {}).get('name') if m else None
    key = os.path.relpath(rules, m['mountPath']) if m else None
    check(f'"rules" {rules} is a key of a ConfigMap mounted as a directory',
          cm in pod.cms and key in pod.cms[cm].get('data', {}),
          f'mount {m}, ConfigMap {cm}, key {key}')
    check('the rule ConfigMap is rules.yaml\'s alone (kubectl apply of it rolls the rules)',
          cm == 'dynpf-rules' and [o['metadata']['name'] for o in load('rules.yaml')] == [cm])
    cfg = pod.mount_of('/etc/dynpf/config/dynpf.conf')
    check('dynpf-config is mounted where the entrypoint reads it (/etc/dynpf/config)',
          cfg is not None and cfg['mountPath'] == '/etc/dynpf/config'
          and pod.volumes[cfg['name']].get('configMap', {}).get('name') == 'dynpf-config')
    data = pod.cms['dynpf-config']['data']
    check('dynpf-config: dynpf.conf with @IFACE@, and iface.default',
          '@IFACE@' in pod.conf_text and data.get('iface.default', '').strip() != '')
    node = pod.env().get('NODE_NAME', {})
    check('NODE_NAME is the node\'s name (downward API)',
          node.get('valueFrom', {}).get('fieldRef', {}).get('fieldPath') == 'spec.nodeName')
    ro = sc.get('readOnlyRootFilesystem')
    run = pod.mount_of('/run/dynpf-pod/dynpf.conf')
    check('the entrypoint\'s configuration is on a writable volume (read-only root)',
          not ro or (run is not None and not run.get('readOnly')
                     and 'emptyDir' in pod.volumes[run['name']]))
    # The image: the recipe, the docs, the DaemonSet agree.
    cf = containerfile()
    check('Containerfile: FROM debian:bookworm-slim first',
          cf[:1] == [('FROM', 'debian:bookworm-slim')], f'{cf[:1]}')
    copies = [a.split() for i, a in cf if i == 'COPY']
    check('Containerfile: the .deb from where make deb puts it, the entrypoint from here',
          ['build/deb/dynpf_*.deb', '/tmp/'] in copies
          and ['configs/kubernetes/entrypoint.sh', '/usr/local/sbin/dynpf-entrypoint'] in copies
          and os.access(f'{K8S}/entrypoint.sh', os.X_OK), f'{copies}')
    entry = [json.loads(a) for i, a in cf if i == 'ENTRYPOINT']
    check('Containerfile: the entrypoint is the one copied, and the DaemonSet keeps it',
          entry == [['/usr/local/sbin/dynpf-entrypoint']] and 'command' not in pod.ctr,
          f'{entry}, command {pod.ctr.get("command")}')
    run_cmds = [c.strip() for i, a in cf if i == 'RUN' for c in a.split(' && ')]
    doc_cmds = doc_block("The Containerfile's RUN")
    check(f'the Containerfile\'s RUN commands are {DOC}\'s, one for one', run_cmds == doc_cmds,
          'Containerfile:\n  ' + '\n  '.join(run_cmds) + f'\n{DOC}:\n  ' + '\n  '.join(doc_cmds))
    build = doc_block('From the top of the tree')
    podman = r'podman build -f configs/kubernetes/Containerfile -t (\S+) \.'
    tag = [m.group(1) for ln in build for m in [re.fullmatch(podman, ln)] if m]
    head = open(f'{K8S}/Containerfile').read()
    check(f'{DOC} builds with make deb and podman build, as the Containerfile says',
          build[:1] == ['make deb'] and len(tag) == 1
          and all(f'#   {ln}\n' in head for ln in build), f'{build}')
    check('the image the docs build is the DaemonSet\'s', tag == [pod.ctr.get('image')],
          f'{tag} vs {pod.ctr.get("image")}')
    deploy = [ln for ln in doc_block('## Deploying') if ln.startswith('kubectl apply')]
    files = re.findall(r'-f (\S+)', deploy[0]) if deploy else []
    check(f'{DOC}\'s kubectl apply names the manifests',
          sorted(files) == sorted(f'{K8S}/{f}' for f in ('dynpf.yaml', 'rules.yaml')), f'{deploy}')
    readme = open('README.md').read()
    at = readme.find('\n## On Kubernetes\n')
    section = readme[at:readme.find('\n## ', at + 1)] if at >= 0 else ''
    ours, theirs = indented(section), set(indented(open(DOC).read()))
    check(f'the README\'s "On Kubernetes" commands are {DOC}\'s',
          bool(ours) and all(c in theirs for c in ours),
          'not in the doc: ' + ', '.join(c for c in ours if c not in theirs) if ours
          else 'README.md: no section "## On Kubernetes" with commands')


def emit(pod, out):
    """The pod's inputs as files, for tests/k8s_test.sh."""
    env = []
    for name, m in sorted(pod.mounts.items()):
        cm = pod.volumes[name].get('configMap')
        env.append(f'MOUNT_{name.upper().replace("-", "_")}={m["mountPath"]}')
        if not cm:
            continue
        # The kubelet's atomic writer: the keys in a dated directory, ..data
        # pointing at it, each key a symlink through ..data.
        top = out + m['mountPath']
        stamp = '..2026_01_01_00_00_00.000000001'
        os.makedirs(f'{top}/{stamp}')
        for key, val in pod.cms[cm['name']]['data'].items():
            with open(f'{top}/{stamp}/{key}', 'w') as f:
                f.write(val)
            os.symlink(f'..data/{key}', f'{top}/{key}')
        os.symlink(stamp, f'{top}/..data')
    with open(f'{out}/env', 'w') as f:
        f.write('\n'.join(env) + '\n')
    caps = pod.ctr['securityContext']['capabilities']['add']
    with open(f'{out}/caps', 'w') as f:
        f.write(','.join('+' + c.lower() for c in caps) + '\n')


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    counts = [0, 0]

    def check(name, cond, why=''):
        counts[0 if cond else 1] += 1
        print(f'{"ok  " if cond else "FAIL"}  {name}')
        if not cond and why:
            print('\n'.join('      | ' + ln for ln in str(why).splitlines()))

    try:
        pod = Pod()
    except (OSError, ValueError, KeyError, IndexError, yaml.YAMLError) as e:
        check('the manifests parse as YAML, with a DaemonSet and its ConfigMaps', False,
              f'{type(e).__name__}: {e}')
        pod = None
    if len(sys.argv) == 3 and sys.argv[1] == '--emit':
        if pod is None:
            return 1
        emit(pod, sys.argv[2])
        return 0
    if len(sys.argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    if pod is not None:
        check('the manifests parse as YAML, with a DaemonSet and its ConfigMaps', True)
        try:
            checks(pod, check)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
            check('the manifests have the fields the checks read', False,
                  f'{type(e).__name__}: {e}')
    print(f'k8s_check: {counts[0]} passed, {counts[1]} failed')
    return 1 if counts[1] else 0


if __name__ == '__main__':
    sys.exit(main())
