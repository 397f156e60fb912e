#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""The data side of scripts/bench-report.sh (Python standard library only).

    scripts/bench_data.py BENCH.json DATADIR
    scripts/bench_data.py --merge BENCH.json LIVE.json

reads the JSON object of `dynpf -j bench` and
  - prints a readable summary of it on stdout (the numbers side by side, as
    `dynpf bench` without -j prints them, without the notes);
  - writes the data files of the plots into DATADIR, for each plot that has
    data: shapes-HOOK.dat and hooks.txt (plot a, scripts/bench/ns-per-shape.gp),
    classify.dat and classify-none.dat (plot b, ns-vs-rules.gp), live.dat and
    live-note.txt (plot c, live-mpps.gp); and note.txt, the method, for titles;
  - says on stderr which plot has no data and why ("bench-report: ...").
--merge adds the "live" object of `dynpf -j bench --live` (LIVE.json) to
BENCH.json, and its "targets" after BENCH.json's, in place (make bench runs
the two benches one after the other: --live runs alone).
Exit 1 when the file cannot be read or is not a JSON object."""
import json
import math
import os
import sys

PROG = 'bench-report'


def warn(msg):
    print(f'{PROG}: {msg}', file=sys.stderr)


def num(v):
    """A finite number, or None (null, missing, text, NaN)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return float(v) if math.isfinite(v) else None


def fmt(v, prec=1, width=0):
    v = num(v)
    s = 'n/a' if v is None else f'{v:.{prec}f}'
    return s.rjust(width)


def dat(v):
    """A value for a gnuplot data file: NaN when there is none."""
    v = num(v)
    return 'NaN' if v is None else repr(v)


def quote(s):
    """A gnuplot data-file string: double-quoted, no double quote inside."""
    return '"' + str(s).replace('"', "'") + '"'


# ---------------------------------------------------------------- the shapes

def shapes(d, out, datadir):
    res = [r for r in d.get('results') or [] if isinstance(r, dict)]
    if not res:
        warn('no "results" (shapes) in the JSON: ns-per-shape.png skipped')
        return
    hooks, names, by, size = [], [], {}, {}
    for r in res:
        h, s = str(r.get('hook', '?')), str(r.get('shape', '?'))
        if h not in hooks:
            hooks.append(h)
        if s not in names:
            names.append(s)
        by[s, h] = r
        if num(r.get('bytes')) is not None:
            size[s] = f'{num(r["bytes"]):.0f} B'
    for h in hooks:
        with open(os.path.join(datadir, f'shapes-{h}.dat'), 'w') as f:
            f.write('# shape empty_ns direct_ns dynpf_ns note\n')
            for s in names:
                r = by.get((s, h), {})
                if r.get('status', 'ok') != 'ok' or num(r.get('dynpf_ns')) is None:
                    note = 'n/a'
                elif num(r.get('direct_ns')) is None:
                    note = 'no direct'
                else:
                    note = ''
                label = f'{s}\\n{size[s]}' if s in size else s
                f.write(' '.join([quote(label), dat(r.get('empty_ns')), dat(r.get('direct_ns')),
                                  dat(r.get('dynpf_ns')), quote(note)]) + '\n')
    with open(os.path.join(datadir, 'hooks.txt'), 'w') as f:
        f.write('\n'.join(hooks) + '\n')

    out('shape          bytes  hook         empty   direct    dynpf  dynpf/direct  '
        'dynpf/empty  net ratio  TLVs  ns/TLV')
    for r in res:
        ok = r.get('status', 'ok') == 'ok'

        def ratio(k):
            v = num(r.get(k)) if ok else None
            return ('n/a' if v is None else f'{v:.2f}x')
        mark = '!' if r.get('parse_match') is False else ' '
        tlvs = r.get('tlvs') if ok else None
        out(f'{str(r.get("shape", "?")):<13}{mark}{str(r.get("bytes", "")):>6}  '
            f'{str(r.get("hook", "?")):<10}'
            f'{fmt(r.get("empty_ns") if ok else None, 1, 8)}'
            f'{fmt(r.get("direct_ns") if ok else None, 1, 9)}'
            f'{fmt(r.get("dynpf_ns") if ok else None, 1, 9)}'
            f'{ratio("dynpf_direct"):>14}{ratio("dynpf_empty"):>13}{ratio("net_ratio"):>11}'
            f'{"n/a" if tlvs is None else str(tlvs):>6}'
            f'{fmt(r.get("ns_per_tlv") if ok and tlvs else None, 1, 8)}')
    if any(r.get('parse_match') is False for r in res):
        out('!: direct and dynpf parsed the shape differently (the ratio compares unequal work)')
    out('net ratio = (dynpf - empty) / (direct - empty); n/a: see `dynpf bench --help`.')


def primitives(d, out):
    p = d.get('primitives')
    hooks = p.get('hooks') if isinstance(p, dict) else None
    if not isinstance(hooks, dict) or not hooks:
        return
    names = []
    for h in hooks.values():
        for k in (h.get('ns_per_call') or {}) if isinstance(h, dict) else {}:
            if k not in names:
                names.append(k)
    out('')
    out(f'dynptr primitives, ns per call ({p.get("calls", "?")} calls per program, '
        f'on {p.get("shape", "?")})')
    out(f'{"":<16}' + ''.join(f'{h:>11}' for h in hooks))
    for n in names:
        out(f'{n:<16}' + ''.join(
            fmt(((hooks[h] or {}).get('ns_per_call') or {}).get(n), 2, 11) for h in hooks))


# ----------------------------------------------------------------- the rules

def rules(d, out, datadir):
    r = d.get('rules')
    cls = [c for c in (r.get('classify') or [] if isinstance(r, dict) else [])
           if isinstance(c, dict) and num(c.get('rules')) is not None]
    if not cls:
        warn('no "rules.classify" in the JSON: ns-vs-rules.png skipped')
    else:
        series, counts, by = [], [], {}
        for c in cls:
            key = f'{c.get("shape", "?")} {c.get("hook", "?")}'
            n = int(num(c['rules']))
            if key not in series:
                series.append(key)
            if n not in counts:
                counts.append(n)
            by[key, n] = c
        counts.sort()
        logx = [n for n in counts if n >= 1]
        if not logx:
            warn('"rules.classify" has no rule count >= 1: ns-vs-rules.png skipped')
        else:
            hdr = 'rules ' + ' '.join(quote(s) for s in series) + '\n'
            with open(os.path.join(datadir, 'classify.dat'), 'w') as f:
                f.write(hdr)
                for n in logx:
                    f.write(f'{n} ' + ' '.join(dat(by.get((s, n), {}).get('dynpf_ns'))
                                               for s in series) + '\n')
            # The cost with no rule loaded cannot sit on a log axis: a
            # horizontal line across the axis, from the first to the last count.
            with open(os.path.join(datadir, 'classify-none.dat'), 'w') as f:
                f.write(hdr)
                for n in (logx[0], logx[-1]):
                    f.write(f'{n} ' + ' '.join(dat(by.get((s, 0), {}).get('dynpf_ns'))
                                               for s in series) + '\n')
        out('')
        out('classification, ns per packet (dynpf_xdp / dynpf_tc_ingress) by rules loaded')
        out(f'{"packet hook":<20}{"empty":>8}' + ''.join(f'{n:>9}' for n in counts))
        for s in series:
            first = by.get((s, counts[0]), {})
            out(f'{s:<20}{fmt(first.get("empty_ns"), 1, 8)}' +
                ''.join(fmt(by.get((s, n), {}).get('dynpf_ns'), 1, 9) for n in counts))
        out('empty: the test-run floor (at the first count); only a catch-all matches.')
        # Counts timed again after a slow phase (rb_time_steady(), docs/bench.md).
        again = [st for st in (r.get('sets') or []) if isinstance(st, dict) and
                 (num(st.get('timed')) or 0) > 1]
        if again:
            out('timed again (a slow phase of the machine), the gauge in each attempt: ' +
                '; '.join(f'{st.get("rules")} rules ' +
                          ', '.join(fmt(g, 1, 0).strip() for g in st.get('gauge_ns') or []) +
                          f' ns, attempt {int(num(st.get("timed_kept")) or 0) + 1} kept'
                          for st in again))

    if not isinstance(r, dict):
        return
    ups = [u for u in r.get('updates') or [] if isinstance(u, dict)]
    if ups:
        out('')
        out('rule updates per second (rule adds through the ring, beside the raw map-write floor)')
        out(f'{"batch":>6}{"ring/s":>12}{"us/txn":>11}{"map_update_elem/s":>20}'
            f'{"map_update_batch/s":>21}')
        for u in ups:
            out(f'{str(u.get("batch", "?")):>6}{fmt(u.get("ring_per_s"), 0, 12)}'
                f'{fmt(u.get("ring_txn_us"), 1, 11)}{fmt(u.get("map_update_elem_per_s"), 0, 20)}'
                f'{fmt(u.get("map_update_batch_per_s"), 0, 21)}')
    ste = [s for s in r.get('submit_to_effective') or [] if isinstance(s, dict)]
    if ste:
        out('')
        out('submit to effective (us, median; a drop rule for the syn packet)')
        out(f'{"rules":>8}{"effective":>12}{"flushed":>12}{"seen by a poller":>19}')
        for s in ste:
            out(f'{str(s.get("rules", "?")):>8}{fmt(s.get("effective_us"), 1, 12)}'
                f'{fmt(s.get("flushed_us"), 1, 12)}{fmt(s.get("seen_by_poller_us"), 1, 19)}')
    nft = r.get('nft')
    if isinstance(nft, dict):
        out('')
        loads = [x for x in nft.get('loads') or [] if isinstance(x, dict)]
        if nft.get('status', 'ok') != 'ok' or not loads:
            out(f'nft: {nft.get("status", "no loads")}')
        else:
            total = {int(num(s['rules'])): s.get('total_load_ms')
                     for s in r.get('sets') or []
                     if isinstance(s, dict) and num(s.get('rules')) is not None}
            out('nft -f of the same rules, beside dynpf\'s total load (ms)')
            out(f'{"rules":>8}{"nft -f ms":>12}{"dynpf ms":>12}')
            for x in loads:
                n = num(x.get('rules'))
                out(f'{str(x.get("rules", "?")):>8}{fmt(x.get("nft_ms"), 1, 12)}'
                    f'{fmt(total.get(int(n)) if n is not None else None, 1, 12)}')


def frames(d, out):
    """--frames: a capture's frames in turn, one test run each."""
    r = d.get('rules')
    fr = r.get('frames') if isinstance(r, dict) else None
    if not isinstance(fr, dict):
        return
    sets = [x for x in fr.get('sets') or []
            if isinstance(x, dict) and num(x.get('rules')) is not None]
    if not sets:
        return
    out('')
    out(f'frames in turn ({fr.get("capture", "?")}, {fr.get("frames", "?")} frames, '
        f'{fr.get("rounds", "?")} rounds), one test run each: mean ns per frame')
    out(f'{"rules":>8}{"empty":>9}{"parse":>9}{"classify":>10}{"no cache":>10}{"dynpf":>9}'
        f'{"xdp-filter":>12}{"dynpf/xf":>10}')
    for x in sets:
        st = x.get('after_stage_ns') or []
        e, w, xf = num(x.get('empty_ns')), num(x.get('dynpf_ns')), num(x.get('xdp_filter_ns'))
        nc = num(x.get('dynpf_cache_off_ns'))
        # The stages: dynptr, lookups, window, parse, then the classifier's
        # (one stage until 2026-12-07, five since): the last ends it.
        parse = num(st[3]) - num(st[2]) if len(st) >= 5 else None
        cls = num(st[-1]) - num(st[3]) if len(st) >= 5 else None
        ratio = (w - e) / (xf - e) if None not in (w, e, xf) and xf > e else None
        out(f'{str(x.get("rules")):>8}{fmt(e, 1, 9)}{fmt(parse, 1, 9)}{fmt(cls, 1, 10)}'
            f'{fmt(nc, 1, 10)}{fmt(w, 1, 9)}{fmt(xf, 1, 12)}'
            + (f'{ratio:>9.2f}x' if ratio else f'{"-":>10}'))
    out('parse, classify: what each stage adds, without the candidates\' cache (no cache:'
        ' the whole')
    out('program without it); dynpf: the whole program; dynpf/xf: over the empty program\'s'
        ' cost.')


# ------------------------------------------- single-rule transactions, the CLI

def single(d, out):
    """Single-rule transactions with the rule set idle (rules.single) and under
    the live traffic (live.single), side by side; the CLI against a daemon."""
    r = d.get('rules') if isinstance(d.get('rules'), dict) else {}
    lv = d.get('live') if isinstance(d.get('live'), dict) else {}
    cols = [(name, o) for name, o in (('idle', r.get('single')),
                                      ('under traffic', lv.get('single')))
            if isinstance(o, dict)]
    if cols:
        by = {name: {k.get('kind'): k for k in o.get('kinds') or [] if isinstance(k, dict)}
              for name, o in cols}
        out('')
        out('single-rule transactions, one producer: txn/s and ack p99 (us), with '
            + ', '.join(f'{o.get("rules_loaded", "?")} rules loaded ({n})' for n, o in cols))
        out(f'{"kind":>10}' + ''.join(f'{n + " txn/s":>22}{"p99 us":>9}' for n, _ in cols))
        for kind in ('add', 'replace', 'delete'):
            row = [by[n].get(kind, {}) for n, _ in cols]
            out(f'{kind:>10}' + ''.join(f'{fmt(k.get("per_s"), 0, 22)}'
                                        f'{fmt(k.get("ack_p99_us"), 1, 9)}' for k in row))
        out(f'{"all":>10}' + ''.join(f'{fmt(o.get("all_per_s"), 0, 22)}{"":>9}'
                                     for _, o in cols))
        out('in force when acked: ' + ', '.join(f'{n} {o.get("in_force", "?")} of '
                                                f'{o.get("checked", "?")}' for n, o in cols))
    cli = r.get('cli')
    if isinstance(cli, dict) and cli.get('measured'):
        out('')
        out(f'the CLI against a daemon, {cli.get("rules_loaded", "?")} rules loaded')
        for k in ('rule_add', 'rule_del'):
            v = cli.get(k) or {}
            out(f'  dynpf {k.replace("_", " "):<10} start to exit: '
                f'p50 {fmt(v.get("p50_ms"), 2)} ms, p90 {fmt(v.get("p90_ms"), 2)} ms')
        out(f'  dynpf rules apply: {fmt(cli.get("apply_per_s"), 0)} changes/s a line a '
            f'transaction, {fmt(cli.get("apply_batch_per_s"), 0)} with --batch '
            f'({cli.get("apply_batch_lines", "?")} lines)')


# ------------------------------------------------------------------ the live

LABEL_KEYS = ('name', 'config', 'configuration', 'label', 'mode', 'prog', 'program')
RULES_KEYS = ('rules', 'rule_count', 'nrules', 'n_rules', 'rule_counts')


def mpps_of(o):
    """The Mpps of one entry: "mpps" (any case), a key ending in mpps, or pps / 1e6."""
    keys = {k.lower(): k for k in o}
    if 'mpps' in keys:
        return num(o[keys['mpps']])
    for lk, k in keys.items():
        if lk.endswith('mpps') and num(o[k]) is not None:
            return num(o[k])
    if 'pps' in keys and num(o[keys['pps']]) is not None:
        return num(o[keys['pps']]) / 1e6
    return None


def has_mpps(o):
    return isinstance(o, dict) and mpps_of(o) is not None


def live_entries(live):
    """The list of {label, mpps, rules} in "live", whatever its exact shape:
    a list of objects with an Mpps figure; an object holding such a list
    (under any key); or an object of NAME: {mpps ...}."""
    items = []
    if isinstance(live, list):
        items = live
    elif isinstance(live, dict):
        lists = [v for v in live.values() if isinstance(v, list) and any(map(has_mpps, v))]
        if lists:
            items = lists[0]
        else:
            items = [v if any(x in v for x in LABEL_KEYS) else dict(v, name=k)
                     for k, v in live.items() if has_mpps(v)]
    out = []
    for i, o in enumerate(items):
        if not has_mpps(o):
            continue
        label = next((str(o[k]) for k in LABEL_KEYS if isinstance(o.get(k), str)), None)
        hook = o.get('hook')
        n = next((num(o[k]) for k in RULES_KEYS if num(o.get(k)) is not None), None)
        if label is None:
            label = ' '.join(x for x in (str(hook or ''), f'{n:g} rules' if n is not None
                                         else '') if x) or f'#{i + 1}'
        else:
            if isinstance(hook, str) and hook.lower() not in label.lower():
                label = f'{label} {hook}'
            if n is not None and 'rule' not in label.lower():
                label = f'{label}, {n:g} rule{"" if n == 1 else "s"}'
        out.append({'label': label, 'mpps': mpps_of(o), 'rules': n})
    return out


def live(d, out, datadir):
    if 'live' not in d:
        warn('no "live" object in the JSON (it comes from `dynpf bench --live`): '
             'live-mpps.png skipped')
        return
    why = d['live'].get('unavailable') if isinstance(d['live'], dict) else None
    if why:
        # `dynpf -j bench --live` on a kernel that refuses its generator.
        out('')
        out(f'live traffic: not measured: {why}')
        warn(f'the live run could not run here: live-mpps.png skipped ({why})')
        return
    ent = live_entries(d['live'])
    if not ent:
        warn('"live" holds no entry with an Mpps figure: live-mpps.png skipped')
        return
    with open(os.path.join(datadir, 'live.dat'), 'w') as f:
        f.write('# label mpps rules\n')
        for e in ent:
            f.write(f'{quote(e["label"].replace(", ", chr(92) + "n"))} {dat(e["mpps"])} '
                    f'{dat(e["rules"])}\n')
    # The title's note: the scalar fields of "live" (its settings, whatever they are).
    lv = d['live']
    note = ', '.join(f'{k} {v}' for k, v in lv.items()
                     if isinstance(v, (str, int, float)) and not isinstance(v, bool)
                     ) if isinstance(lv, dict) else ''
    with open(os.path.join(datadir, 'live-note.txt'), 'w') as f:
        f.write((note[:150] or 'live traffic') + '\n')
    out('')
    out('live traffic, Mpps')
    for e in ent:
        out(f'  {e["label"]:<40}{fmt(e["mpps"], 3, 10)}')


# ------------------------------------------------------------- the targets

def targets(d, out):
    t = d.get('targets')
    if not isinstance(t, list) or not t:
        return
    out('')
    out('targets (issue 18): each ratio measured in this run')
    out(f'  {"":<48}{"target":>9}{"now":>9}')
    for e in t:
        if not isinstance(e, dict):
            continue
        most = num(e.get('at_most'))
        want = f'<={most:5.2f}' if most is not None else f'>={fmt(e.get("at_least"), 2, 5)}'
        now = num(e.get('now'))
        res = 'not measured' if now is None else 'met' if e.get('met') else 'MISSED'
        have = ('-'.rjust(9) if now is None else f'{now:7.2f}ms' if e.get('unit') == 'ms'
                else f'{now:8.3f}x')
        out(f'  {str(e.get("what", "?")):<48}{want:>9}{have}  {res}')


def load(path):
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        warn(f'{path}: {e}')
        return None
    if not isinstance(d, dict):
        warn(f'{path}: not a JSON object (the output of `dynpf -j bench`)')
        return None
    return d


def merge(path, live_path):
    d, lv = load(path), load(live_path)
    if d is None or lv is None:
        return 1
    if 'live' not in lv:
        warn(f'{live_path}: no "live" object (the output of `dynpf -j bench --live`)')
        return 1
    d['live'] = lv['live']
    d['targets'] = list(d.get('targets') or []) + list(lv.get('targets') or [])
    with open(path + '.tmp', 'w') as f:
        json.dump(d, f, indent=1)
        f.write('\n')
    os.replace(path + '.tmp', path)
    return 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--merge':
        return merge(sys.argv[2], sys.argv[3])
    if len(sys.argv) != 3:
        print(f'usage: {sys.argv[0]} BENCH.json DATADIR | --merge BENCH.json LIVE.json',
              file=sys.stderr)
        return 2
    path, datadir = sys.argv[1:]
    d = load(path)
    if d is None:
        return 1
    os.makedirs(datadir, exist_ok=True)
    lines = []
    out = lines.append

    method = d.get('method', '?')
    note = f'{method}, repeat {d.get("repeat", "?")}, median of {d.get("runs", "?")} runs'
    with open(os.path.join(datadir, 'note.txt'), 'w') as f:
        f.write(note + '\n')
    cpu = num(d.get('cpu'))
    out(f'dynpf bench: {note}, ns per packet'
        + ('' if cpu is None else f', pinned to CPU {cpu:.0f}' if cpu >= 0 else ', not pinned'))
    out('')
    shapes(d, out, datadir)
    primitives(d, out)
    rules(d, out, datadir)
    frames(d, out)
    single(d, out)
    live(d, out, datadir)
    targets(d, out)
    print('\n'.join(lines))
    return 0


if __name__ == '__main__':
    sys.exit(main())
