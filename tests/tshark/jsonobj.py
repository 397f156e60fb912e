# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""tshark's JSON as read here: objects that keep duplicate keys in order,
lookups that do not enter nested protocols, and its values as numbers,
booleans and strings."""
import functools
import re


class Obj:
    """A JSON object that keeps every key, duplicates included, in order."""
    __slots__ = ("pairs",)

    def __init__(self, pairs):
        self.pairs = pairs

    def __repr__(self):
        return "Obj(%r)" % (self.pairs,)


_PROTO_KEY = re.compile(r"[a-z0-9_]+")


@functools.lru_cache(maxsize=None)
def is_proto_key(key):
    """A key naming a nested protocol layer (e.g. `ip` inside `icmp`).
    Cached: the mutations' comparison asked it 6.8 million times."""
    return _PROTO_KEY.fullmatch(key) is not None


def find_all(obj, key, out=None):
    """Values of `key` in document order, searching subtrees of obj but not
    nested protocol layers."""
    if out is None:
        out = []
    if isinstance(obj, list):
        for v in obj:
            find_all(v, key, out)
        return out
    if not isinstance(obj, Obj):
        return out
    for k, v in obj.pairs:
        if k == key:
            out.append(v)
        if isinstance(v, (Obj, list)) and not is_proto_key(k):
            find_all(v, key, out)
    return out


def has_any(obj, keys):
    """Whether some key of the set keys is in obj, as find_all() finds
    them: one walk for all of them, not one per key."""
    if isinstance(obj, list):
        return any(has_any(v, keys) for v in obj)
    if not isinstance(obj, Obj):
        return False
    for k, v in obj.pairs:
        if k in keys:
            return True
        if isinstance(v, (Obj, list)) and not is_proto_key(k) and has_any(v, keys):
            return True
    return False


def get(obj, key):
    """First value of `key`: a direct child first, else the first one found
    in the subtrees; None when missing."""
    if isinstance(obj, Obj):
        for k, v in obj.pairs:
            if k == key:
                return v
    vals = find_all(obj, key)
    return vals[0] if vals else None


def get_any(obj, *keys):
    """get() of the first of keys obj has a value of; None when none."""
    for key in keys:
        v = get(obj, key)
        if v is not None:
            return v
    return None


def has_key(obj, key):
    """True when `key` occurs anywhere in obj, nested protocols included."""
    if isinstance(obj, list):
        return any(has_key(v, key) for v in obj)
    if not isinstance(obj, Obj):
        return False
    return any(k == key or has_key(v, key) for k, v in obj.pairs)


def to_int(s):
    if s is None:
        return None
    if isinstance(s, list):
        s = s[0]
    if isinstance(s, int):
        return s
    s = str(s).strip()
    try:
        if s.lower().startswith("0x"):
            return int(s, 16)
        return int(s, 10)
    except ValueError:
        return None


def to_bool(s):
    v = to_int(s)
    return None if v is None else bool(v)


def to_str(s):
    if isinstance(s, list):
        s = s[0]
    return None if s is None else str(s)


def dget(d, key):
    v = d.get(key) if isinstance(d, dict) else None
    return v
