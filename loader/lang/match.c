// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The match keywords of the rule language (docs/rules.md, "Matches").
 *
 * One table, match_kws[]: a keyword's words, the function that reads what
 * follows them, and what the match fills and excludes. rp_match() finds the
 * keyword word by word, claims what it takes (its slot: a second match of
 * the same field is a duplicate; the family or protocol it implies: another
 * one is a conflict), runs its function, and marks the fields it set.
 */
#include <stdio.h>
#include <string.h>

#include "lang/lang.h"
#include "match.h"
#include "protocheck.h"

struct match_kw;
typedef int match_fn(struct rp *p, const struct match_kw *k);

struct match_kw {
	const char *words; /* one blank apart: "tcp dport" */
	match_fn *parse;   /* reads what follows the words; NULL: nothing does */
	enum slot slot;    /* at most once a rule; SLOT_NONE: no limit */
	__u32 field;       /* the DYNPF_M_* bit it fills; 0: none (TLV, value tests, inner) */
	__u8 family;       /* the IP family it implies: ip saddr 4 */
	__u8 proto;        /* the protocol it implies: tcp dport 6 */
	__u8 arg;          /* tlv_match: the TLV family; val_match: the DYNPF_V_* */
	bool stack;        /* it tests the rule's stack of headers: never before `inner` */
	const char *what;  /* what its value is, for messages */
	__u32 max;         /* the largest number; value_match: 0 takes names only */
	const struct name_val *names; /* value_match: the value's names */
};

static int slot_take(struct rp *p, enum slot s, const char *what, size_t col)
{
	if (p->slot_col[s]) {
		if (!strcmp(what, p->slot_what[s]))
			return rp_fail(p, col, "duplicate match: '%s' is already at column %zu",
				       what, p->slot_col[s]);
		return rp_fail(p, col,
			       "duplicate match: '%s' tests the same field as '%s' at column %zu",
			       what, p->slot_what[s], p->slot_col[s]);
	}
	p->slot_col[s] = col;
	p->slot_what[s] = what;
	return 0;
}

/* A match on the rule's stack of headers: only after `inner`, if any. */
static void stack_match(struct rp *p, const char *what, size_t col)
{
	if (!p->stack_col) {
		p->stack_col = col;
		p->stack_what = what;
	}
}

static unsigned int ethertype_family(__u16 t)
{
	return t == 0x0800 ? 4 : t == 0x86dd ? 6 : 0;
}

static int family_set(struct rp *p, __u8 fam, const char *what, size_t col)
{
	struct dynpf_match *m = &p->r->m;

	if (m->family && m->family != fam)
		return rp_fail(
			p, col,
			"family conflict: '%s' matches IPv%u, '%s' at column %zu matches IPv%u",
			what, fam, p->fam_what, p->fam_col, m->family);
	if ((m->fields & DYNPF_M_ETHERTYPE) && ethertype_family(m->ethertype) &&
	    ethertype_family(m->ethertype) != fam)
		return rp_fail(
			p, col,
			"family conflict: '%s' matches IPv%u, '%s' at column %zu matches IPv%u",
			what, fam, p->slot_what[SLOT_ETHERTYPE], p->slot_col[SLOT_ETHERTYPE],
			ethertype_family(m->ethertype));
	if (!m->family) {
		m->family = fam;
		p->fam_what = what;
		p->fam_col = col;
	}
	m->fields |= DYNPF_M_FAMILY;
	return 0;
}

static void proto_text(__u32 proto, char *buf, size_t size)
{
	const char *n = nv_name(lang_ipprotos, proto);

	if (n)
		snprintf(buf, size, "%s", n);
	else
		snprintf(buf, size, "%u", proto);
}

static int proto_set(struct rp *p, __u8 proto, const char *what, size_t col)
{
	struct dynpf_match *m = &p->r->m;
	char a[16], b[16];

	if ((m->fields & DYNPF_M_PROTO) && m->proto != proto) {
		proto_text(proto, a, sizeof(a));
		proto_text(m->proto, b, sizeof(b));
		return rp_fail(p, col,
			       "protocol conflict: '%s' matches %s, '%s' at column %zu matches %s",
			       what, a, p->proto_what, p->proto_col, b);
	}
	if (!(m->fields & DYNPF_M_PROTO)) {
		m->proto = proto;
		m->fields |= DYNPF_M_PROTO;
		p->proto_what = what;
		p->proto_col = col;
	}
	return 0;
}

/* `th` ports need TCP or UDP: a conflict with any other protocol. */
static int th_proto_check(struct rp *p)
{
	struct dynpf_match *m = &p->r->m;
	enum slot s = p->slot_col[SLOT_SPORT] ? SLOT_SPORT : SLOT_DPORT;
	size_t col =
		p->slot_col[SLOT_PROTO] > p->slot_col[s] ? p->slot_col[SLOT_PROTO] : p->slot_col[s];
	char a[16];

	if (!(m->fields & DYNPF_M_PROTO) || !(m->fields & (DYNPF_M_SPORT | DYNPF_M_DPORT)) ||
	    m->proto == 6 || m->proto == 17)
		return 0;
	proto_text(m->proto, a, sizeof(a));
	return rp_fail(
		p, col,
		"protocol conflict: '%s' at column %zu needs tcp or udp, '%s' at column %zu matches %s",
		p->slot_what[s], p->slot_col[s], p->proto_what, p->proto_col, a);
}

/*
 * What a keyword takes before its value is read: its slot, then the family
 * and the protocol it implies. The family alone (`ip`, `ip6`) is the other
 * way round: `ip6 ip` is a family conflict, `ip ip` a duplicate, while
 * `ip6 saddr ::1 ip saddr 198.18.0.1` is a duplicate.
 */
static int claim(struct rp *p, const struct match_kw *k)
{
	bool alone = k->field == DYNPF_M_FAMILY;
	int e;

	if (alone && (e = family_set(p, k->family, k->words, p->col)))
		return e;
	if (k->slot && (e = slot_take(p, k->slot, k->words, p->col)))
		return e;
	if (k->family && !alone && (e = family_set(p, k->family, k->words, p->col)))
		return e;
	if (k->proto && (e = proto_set(p, k->proto, k->words, p->col)))
		return e;
	return 0;
}

/* iif IFNAME|NUM */
static int iif_match(struct rp *p, const struct match_kw *k)
{
	return rp_need_ifindex(p, k->what, &p->r->m.ifindex);
}

/* ether saddr|daddr MAC */
static int mac_match(struct rp *p, const struct match_kw *k)
{
	struct dynpf_match *m = &p->r->m;
	int e;

	if ((e = rp_need(p, k->what)))
		return e;
	if (!word_mac(&p->cur, k->field == DYNPF_M_ETH_SRC ? m->eth_src : m->eth_dst))
		return rp_expected(p, k->what);
	return 0;
}

/* ip|ip6 saddr|daddr PREFIX */
static int prefix_match(struct rp *p, const struct match_kw *k)
{
	struct dynpf_match *m = &p->r->m;
	bool src = k->field == DYNPF_M_SRC;

	return rp_need_prefix(p, k->family, k->what, src ? m->src : m->dst,
			      src ? &m->src_plen : &m->dst_plen);
}

/* One value, a name of k->names or a number up to k->max (if not 0). */
static int value_match(struct rp *p, const struct match_kw *k)
{
	struct dynpf_match *m = &p->r->m;
	const struct name_val *nv;
	__u32 v;
	int e;

	if ((e = rp_need(p, k->what)))
		return e;
	if (k->names && (nv = nv_lookup(k->names, &p->cur)))
		v = nv->val;
	else if (!k->max || !word_num(&p->cur, k->max, &v))
		return rp_expected(p, k->what);
	/* In the order of struct dynpf_match. */
	switch (k->field) {
	case DYNPF_M_PROTO:
		return proto_set(p, v, k->words, p->col);
	case DYNPF_M_FRAG:
		m->frag = v;
		break;
	case DYNPF_M_DSCP:
		m->dscp = v;
		break;
	case DYNPF_M_ERROR:
		m->error = v;
		break;
	case DYNPF_M_ETHERTYPE:
		if (m->family && ethertype_family(v) && ethertype_family(v) != m->family)
			return rp_fail(
				p, p->col,
				"family conflict: 'ether type' matches IPv%u, '%s' at column %zu matches IPv%u",
				ethertype_family(v), p->fam_what, p->fam_col, m->family);
		m->ethertype = v;
		break;
	case DYNPF_M_VLAN:
		m->vlan = v;
		break;
	}
	return 0;
}

/* ttl|hoplimit RANGE, tcp|udp|th sport|dport RANGE */
static int range_match(struct rp *p, const struct match_kw *k)
{
	struct dynpf_match *m = &p->r->m;
	__u32 lo, hi;
	int e;

	if ((e = rp_need_range(p, k->what, k->max, &lo, &hi)))
		return e;
	switch (k->field) {
	case DYNPF_M_TTL:
		m->ttl_lo = lo;
		m->ttl_hi = hi;
		break;
	case DYNPF_M_SPORT:
		m->sport_lo = lo;
		m->sport_hi = hi;
		break;
	case DYNPF_M_DPORT:
		m->dport_lo = lo;
		m->dport_hi = hi;
		break;
	}
	return 0;
}

/* FLAGS: names or NUMs separated by commas. */
static bool flag_list(const char *s, size_t n, __u8 *out)
{
	__u8 v = 0;

	if (!n)
		return false;
	for (size_t i = 0; i <= n;) {
		const char *comma = memchr(s + i, ',', n - i);
		size_t end = comma ? (size_t)(comma - s) : n;
		struct word w = { s + i, end - i, 0 };
		const struct name_val *f = nv_lookup(lang_tcp_flags, &w);
		__u32 x;

		if (f)
			v |= f->val;
		else if (lang_num(w.p, w.len, 0xff, &x))
			v |= x;
		else
			return false;
		if (!comma)
			break;
		i = end + 1;
	}
	*out = v;
	return true;
}

#define PROTO_WHAT "a protocol (tcp udp icmp icmpv6 gre esp ah sctp ipip ipv6 or 0-255)"
#define ERROR_WHAT \
	"a parse error name (ok truncated bad_len depth bad_version tlv_len tlv_count bad_hdr)"
#define FLAGS_WHAT "TCP flags (fin,syn,rst,psh,ack,urg,ece,cwr or 0-255)"

/* tcp flags FLAGS [/ FLAGS]: the mask in the same word or the next ones. */
static int tcp_flags_match(struct rp *p, const struct match_kw *k)
{
	struct dynpf_match *m = &p->r->m;
	__u8 v, mask;
	const char *slash;
	int e;

	if ((e = rp_need(p, k->what)))
		return e;
	slash = memchr(p->cur.p, '/', p->cur.len);
	if (slash) {
		size_t vlen = slash - p->cur.p;

		if (!flag_list(p->cur.p, vlen, &v) ||
		    !flag_list(slash + 1, p->cur.len - vlen - 1, &mask))
			return rp_expected(p, FLAGS_WHAT "[/MASK]");
	} else {
		struct word w;

		if (!flag_list(p->cur.p, p->cur.len, &v))
			return rp_expected(p, FLAGS_WHAT);
		mask = v;
		w = rp_peek(p);
		if (w.p && w.p[0] == '/') {
			rp_next(p);
			if (p->cur.len == 1) {
				if ((e = rp_need(p, "a mask of " FLAGS_WHAT)))
					return e;
				if (!flag_list(p->cur.p, p->cur.len, &mask))
					return rp_expected(p, "a mask of " FLAGS_WHAT);
			} else if (!flag_list(p->cur.p + 1, p->cur.len - 1, &mask)) {
				return rp_expected(p, "a mask of " FLAGS_WHAT);
			}
		}
	}
	if (!mask)
		return rp_expected_why(p, FLAGS_WHAT, "a mask of no flags tests nothing");
	if (v & ~mask)
		return rp_expected_why(p, FLAGS_WHAT, "a flag outside the mask never matches");
	m->tcp_flags = v;
	m->tcp_flags_mask = mask;
	return 0;
}

#define DATA_WHAT "a value (NUM or 0x hex, in network byte order)"

/*
 * NUM as len bytes in network byte order, into out[0 .. len): decimal (up to
 * 64 bits) or 0x hex (up to 2 * len digits). false: not a number, or one
 * that does not fit.
 */
static bool data_num(const char *s, size_t n, unsigned int len, __u8 *out)
{
	memset(out, 0, DYNPF_DATA_MAX);
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		size_t digits = n - 2;

		while (digits > 1 && s[n - digits] == '0') /* leading zeros fit */
			digits--;
		if (digits > 2 * len)
			return false;
		for (size_t i = 0; i < digits; i++) {
			int d = lang_hexval(s[n - 1 - i]);

			if (d < 0)
				return false;
			out[len - 1 - i / 2] |= (__u8)(i & 1 ? d << 4 : d);
		}
		for (size_t i = 2; i < n - digits; i++)
			if (s[i] != '0')
				return false;
		return true;
	}
	{
		unsigned long long v = 0;

		if (!n || n > 20)
			return false;
		for (size_t i = 0; i < n; i++) {
			if (s[i] < '0' || s[i] > '9' || v > (~0ull - (s[i] - '0')) / 10)
				return false;
			v = v * 10 + (s[i] - '0');
		}
		for (unsigned int i = 0; i < len; i++, v >>= 8)
			out[len - 1 - i] = v & 0xff;
		return !v;
	}
}

/* VALUE[/MASK], len bytes each: the current word. */
static int data_value(struct rp *p, struct dynpf_data_test *t)
{
	const char *slash = memchr(p->cur.p, '/', p->cur.len);
	size_t vlen = slash ? (size_t)(slash - p->cur.p) : p->cur.len;
	char what[96];
	bool any = false;

	snprintf(what, sizeof(what), "a value of %u byte%s (NUM or 0x hex)[/MASK]", t->len,
		 t->len == 1 ? "" : "s");
	if (!data_num(p->cur.p, vlen, t->len, t->val))
		return rp_expected(p, what);
	if (slash) {
		if (!data_num(slash + 1, p->cur.len - vlen - 1, t->len, t->mask))
			return rp_expected(p, what);
	} else {
		memset(t->mask, 0xff, t->len);
	}
	for (unsigned int i = 0; i < t->len; i++) {
		any |= t->mask[i] != 0;
		if (t->val[i] & ~t->mask[i])
			return rp_expected_why(p, what,
					       "a value bit outside the mask never matches");
	}
	if (!any)
		return rp_expected_why(p, what, "a mask of no bits tests nothing");
	return 0;
}

/* Add a byte test to the rule. */
static int data_add(struct rp *p, const struct dynpf_data_test *t, const char *words)
{
	struct dynpf_match *m = &p->r->m;

	if (m->ndata >= DYNPF_MATCH_DATA)
		return rp_fail(
			p, p->col,
			"too many byte tests: '%s' would be the %uth, a rule holds at most %u",
			words, m->ndata + 1, DYNPF_MATCH_DATA);
	m->data[m->ndata++] = *t;
	m->fields |= DYNPF_M_DATA;
	return 0;
}

/*
 * data OFF:LEN VALUE[/MASK], after a TLV's type (data is the current
 * word): the test of t->where and t->type.
 */
static int tlv_data(struct rp *p, struct dynpf_data_test *t, const char *words)
{
	__u32 max = dynpf_tlv_data_max(t->where), off, len;
	const char *colon;
	char what[96];
	int e;

	snprintf(what, sizeof(what), "OFF:LEN (LEN 1-%u, OFF+LEN at most %u)", DYNPF_DATA_MAX, max);
	if ((e = rp_need(p, what)))
		return e;
	colon = memchr(p->cur.p, ':', p->cur.len);
	if (!colon || !lang_num(p->cur.p, colon - p->cur.p, 0xffff, &off) ||
	    !lang_num(colon + 1, p->cur.len - (colon + 1 - p->cur.p), 0xffff, &len))
		return rp_expected(p, what);
	if (len < 1 || len > DYNPF_DATA_MAX)
		return rp_expected_why(p, what, "a test compares 1 to 16 bytes");
	if (off + len > max)
		return rp_expected_why(p, what, "no TLV of this family has data that long");
	t->off = off;
	t->len = len;
	if ((e = rp_need(p, "a value")) || (e = data_value(p, t)))
		return e;
	return data_add(p, t, words);
}

static int tlv_test(struct rp *p, struct dynpf_tlv_test *t, const char *words);

/* A TLV presence test: NAME|NUM (Geneve: CLASS:TYPE) [missing]. */
static int tlv_match(struct rp *p, const struct match_kw *k)
{
	const struct tlv_kind *kind = tlv_kind_of(k->arg);
	struct dynpf_tlv_test t = { .family = k->arg };
	const struct name_val *nv;
	int e;

	if ((e = rp_need(p, k->what)))
		return e;
	if (!kind->types) {
		const char *colon = memchr(p->cur.p, ':', p->cur.len);
		__u32 cls, type;

		if (!colon || !lang_num(p->cur.p, colon - p->cur.p, 0xffff, &cls) ||
		    !lang_num(colon + 1, p->cur.len - (colon + 1 - p->cur.p), 0xff, &type))
			return rp_expected(p, k->what);
		t.type = cls << 8 | type;
	} else if ((nv = nv_lookup(kind->types, &p->cur))) {
		t.type = nv->val;
	} else if (!word_num(&p->cur, 0xff, &t.type) ||
		   (kind->only_named && !nv_name(kind->types, t.type))) {
		return rp_expected(p, k->what);
	}
	return tlv_test(p, &t, k->words);
}

/*
 * After a TLV's type: `data OFF:LEN VALUE[/MASK]` (a byte test), or its
 * presence test, `missing` for its absence. t: the family and type.
 */
static int tlv_test(struct rp *p, struct dynpf_tlv_test *t, const char *words)
{
	struct dynpf_match *m = &p->r->m;
	struct word w = rp_peek(p);

	if (word_eq(&w, "data") && t->family != DYNPF_TT_EXT) {
		struct dynpf_data_test d = { .where = t->family, .type = t->type };

		rp_next(p);
		return tlv_data(p, &d, words);
	}
	if (word_eq(&w, "missing")) {
		rp_next(p);
		t->neg = 1;
	}
	for (unsigned int i = 0; i < m->ntlv; i++)
		if (m->tlv[i].family == t->family && m->tlv[i].type == t->type)
			return rp_fail(p, p->col,
				       "duplicate match: this '%s' is already tested at column %zu",
				       words, p->tlv_col[i]);
	if (m->ntlv >= DYNPF_MATCH_TLVS)
		return rp_fail(
			p, p->col,
			"too many TLV tests: '%s' would be the %uth, a rule holds at most %u",
			words, m->ntlv + 1, DYNPF_MATCH_TLVS);
	p->tlv_col[m->ntlv] = p->col;
	m->tlv[m->ntlv++] = *t;
	return 0;
}

/* NAME option TYPE [missing | data ...]: a declared protocol's TLVs (cur: NAME). */
int lang_decl_match(struct rp *p, int id)
{
	const struct dynpf_proto_desc *d = &p->protos->d[id];
	struct dynpf_tlv_test t = { .family = DYNPF_TLV_NFAM + id };
	__u32 max = dynpf_lf_max(d->tlv.type_size, 0);
	char what[64], words[DYNPF_PROTO_NAME_MAX + 8];
	int e;

	p->col = p->cur.col;
	snprintf(words, sizeof(words), "%.15s option", d->name);
	if ((e = rp_need(p, "'option'")))
		return e;
	if (!rp_is(p, "option"))
		return rp_expected(p, "'option'");
	snprintf(what, sizeof(what), "a %.15s TLV type (0-%u)", d->name, max);
	if ((e = rp_need(p, what)))
		return e;
	if (!word_num(&p->cur, max, &t.type))
		return rp_expected(p, what);
	return tlv_test(p, &t, words);
}

/* gtpu ext TYPE data OFF:LEN VALUE[/MASK]: a GTP-U extension header's bytes. */
static int gtpu_ext_match(struct rp *p, const struct match_kw *k)
{
	struct dynpf_data_test d = { .where = DYNPF_DT_GTPU_EXT };
	int e;

	if ((e = rp_need(p, k->what)))
		return e;
	if (!word_num(&p->cur, 0xff, &d.type) || !d.type)
		return rp_expected(p, k->what);
	if ((e = rp_need(p, "'data'")))
		return e;
	if (!rp_is(p, "data"))
		return rp_expected(p, "'data'");
	return tlv_data(p, &d, k->words);
}

/* @l3|@l4|@payload OFF LEN VALUE[/MASK]: raw bytes from a layer's start. */
static int raw_match(struct rp *p, const struct match_kw *k)
{
	struct dynpf_data_test d = { .where = k->arg };
	__u32 off, len;
	int e;

	if ((e = rp_need(p, "an offset (0-65535)")))
		return e;
	if (!word_num(&p->cur, 0xffff, &off))
		return rp_expected(p, "an offset (0-65535)");
	if ((e = rp_need(p, "a length (1-16)")))
		return e;
	if (!word_num(&p->cur, DYNPF_DATA_MAX, &len) || !len)
		return rp_expected(p, "a length (1-16)");
	if (off + len > 0xffff)
		return rp_expected_why(p, "a length (1-16)", "the bytes end past offset 65535");
	d.off = off;
	d.len = len;
	if ((e = rp_need(p, "a value")) || (e = data_value(p, &d)))
		return e;
	return data_add(p, &d, k->words);
}

/* A value test: RANGE. */
static int val_match(struct rp *p, const struct match_kw *k)
{
	struct dynpf_match *m = &p->r->m;
	struct dynpf_val_test t = { .field = k->arg };
	int e;

	if ((e = rp_need_range(p, k->what, dynpf_val_max(k->arg), &t.lo, &t.hi)))
		return e;
	if (m->nval >= DYNPF_MATCH_VALS)
		return rp_fail(
			p, p->col,
			"too many value tests: '%s' would be the %uth, a rule holds at most %u",
			k->words, m->nval + 1, DYNPF_MATCH_VALS);
	m->val[m->nval++] = t;
	return 0;
}

/* inner: the matches on headers that follow test the inner stack. */
static int inner_match(struct rp *p, const struct match_kw *k)
{
	if (p->stack_col)
		return rp_fail(
			p, p->col,
			"'%s' after '%s' at column %zu: a rule's header matches all refer to one stack, so they all come after 'inner'",
			k->words, p->stack_what, p->stack_col);
	p->r->m.stack = 1;
	return 0;
}

#define PORT_WHAT "a port or range (0-65535)"

/*
 * Every match keyword. The order of the words after a first one is the
 * order a message lists them in ("expected sport, dport, flags, option, mss
 * or wscale after 'tcp'"); the normalized text has its own (print.c).
 */
static const struct match_kw match_kws[] = {
	{ "iif", iif_match, SLOT_IIF, DYNPF_M_IFINDEX, .what = "an interface name or index" },
	{ "ether saddr", mac_match, SLOT_ETH_SRC, DYNPF_M_ETH_SRC, .stack = true,
	  .what = "a MAC address (02:00:00:00:00:01)" },
	{ "ether daddr", mac_match, SLOT_ETH_DST, DYNPF_M_ETH_DST, .stack = true,
	  .what = "a MAC address (02:00:00:00:00:01)" },
	{ "ether type", value_match, SLOT_ETHERTYPE, DYNPF_M_ETHERTYPE, .stack = true,
	  .what = "an ethertype (ip ip6 arp mpls or 0-0xffff)", .max = 0xffff,
	  .names = lang_ethertypes },
	{ "vlan id", value_match, SLOT_VLAN, DYNPF_M_VLAN, .stack = true,
	  .what = "a VLAN id (0-4095)", .max = 4095 },
	{ "ip saddr", prefix_match, SLOT_SRC, DYNPF_M_SRC, .family = 4, .stack = true,
	  .what = "an IPv4 address or prefix" },
	{ "ip daddr", prefix_match, SLOT_DST, DYNPF_M_DST, .family = 4, .stack = true,
	  .what = "an IPv4 address or prefix" },
	{ "ip option", tlv_match, .arg = DYNPF_TLV_IPV4_OPT,
	  .what = "an IPv4 option (eol nop rr ts ra or 0-255)" },
	{ "ip", NULL, SLOT_FAMILY, DYNPF_M_FAMILY, .family = 4, .stack = true },
	{ "ip6 saddr", prefix_match, SLOT_SRC, DYNPF_M_SRC, .family = 6, .stack = true,
	  .what = "an IPv6 address or prefix" },
	{ "ip6 daddr", prefix_match, SLOT_DST, DYNPF_M_DST, .family = 6, .stack = true,
	  .what = "an IPv6 address or prefix" },
	{ "ip6 exthdr", tlv_match, .arg = DYNPF_TT_EXT, .stack = true,
	  .what = "an extension header (hopopts routing fragment dstopts ah esp, or 0 43 44 60 51 50)" },
	{ "ip6 hbh option", tlv_match, .arg = DYNPF_TLV_IPV6_HBH,
	  .what = "a hop-by-hop option (pad1 padn ra jumbo or 0-255)" },
	{ "ip6 dst option", tlv_match, .arg = DYNPF_TLV_IPV6_DST,
	  .what = "a destination option (pad1 padn ra jumbo or 0-255)" },
	{ "ip6", NULL, SLOT_FAMILY, DYNPF_M_FAMILY, .family = 6, .stack = true },
	{ "proto", value_match, SLOT_PROTO, DYNPF_M_PROTO, .stack = true, .what = PROTO_WHAT,
	  .max = 0xff, .names = lang_ipprotos },
	{ "frag", value_match, SLOT_FRAG, DYNPF_M_FRAG, .stack = true,
	  .what = "none, any, first or later", .names = lang_frags },
	{ "ttl", range_match, SLOT_TTL, DYNPF_M_TTL, .stack = true,
	  .what = "a TTL or range (0-255)", .max = 0xff },
	{ "hoplimit", range_match, SLOT_TTL, DYNPF_M_TTL, .stack = true,
	  .what = "a TTL or range (0-255)", .max = 0xff },
	{ "dscp", value_match, SLOT_DSCP, DYNPF_M_DSCP, .stack = true, .what = "a DSCP (0-63)",
	  .max = 63 },
	{ "tcp sport", range_match, SLOT_SPORT, DYNPF_M_SPORT, .proto = 6, .stack = true,
	  .what = PORT_WHAT, .max = 0xffff },
	{ "tcp dport", range_match, SLOT_DPORT, DYNPF_M_DPORT, .proto = 6, .stack = true,
	  .what = PORT_WHAT, .max = 0xffff },
	{ "tcp flags", tcp_flags_match, SLOT_TCP_FLAGS, DYNPF_M_TCP_FLAGS, .proto = 6,
	  .stack = true, .what = FLAGS_WHAT },
	{ "tcp option", tlv_match, .arg = DYNPF_TLV_TCP_OPT,
	  .what = "a TCP option (eol nop mss wscale sack-perm sack ts mptcp or 0-255)" },
	{ "tcp mss", val_match, SLOT_VAL + DYNPF_V_MSS - 1, .arg = DYNPF_V_MSS, .stack = true,
	  .what = "an MSS or range (0-65535)" },
	{ "tcp wscale", val_match, SLOT_VAL + DYNPF_V_WSCALE - 1, .arg = DYNPF_V_WSCALE,
	  .stack = true, .what = "a window scale or range (0-255)" },
	{ "udp sport", range_match, SLOT_SPORT, DYNPF_M_SPORT, .proto = 17, .stack = true,
	  .what = PORT_WHAT, .max = 0xffff },
	{ "udp dport", range_match, SLOT_DPORT, DYNPF_M_DPORT, .proto = 17, .stack = true,
	  .what = PORT_WHAT, .max = 0xffff },
	{ "th sport", range_match, SLOT_SPORT, DYNPF_M_SPORT, .stack = true, .what = PORT_WHAT,
	  .max = 0xffff },
	{ "th dport", range_match, SLOT_DPORT, DYNPF_M_DPORT, .stack = true, .what = PORT_WHAT,
	  .max = 0xffff },
	{ "error", value_match, SLOT_ERROR, DYNPF_M_ERROR, .what = ERROR_WHAT,
	  .names = lang_err_names },
	{ "srh tlv", tlv_match, .arg = DYNPF_TLV_SRH_TLV,
	  .what = "an SRH TLV (pad1 padn hmac or 0-255)" },
	{ "srh segleft", val_match, SLOT_VAL + DYNPF_V_SEGLEFT - 1, .arg = DYNPF_V_SEGLEFT,
	  .stack = true, .what = "a segments-left value or range (0-255)" },
	{ "geneve option", tlv_match, .arg = DYNPF_TLV_GENEVE_OPT,
	  .what = "a Geneve option CLASS:TYPE (0-0xffff:0-0xff)" },
	{ "vni", val_match, SLOT_VAL + DYNPF_V_VNI - 1, .arg = DYNPF_V_VNI,
	  .what = "a VNI or range (0-16777215)" },
	{ "gtpu teid", val_match, SLOT_VAL + DYNPF_V_TEID - 1, .arg = DYNPF_V_TEID,
	  .what = "a TEID or range (0-4294967295)" },
	{ "mpls label", val_match, SLOT_VAL + DYNPF_V_MPLS_LABEL - 1, .arg = DYNPF_V_MPLS_LABEL,
	  .what = "an MPLS label or range (0-1048575)" },
	{ "gre key", val_match, SLOT_VAL + DYNPF_V_GRE_KEY - 1, .arg = DYNPF_V_GRE_KEY,
	  .what = "a GRE key or range (0-4294967295)" },
	{ "gtpu ext", gtpu_ext_match, .what = "a GTP-U extension header type (1-255)" },
	{ "@l3", raw_match, .arg = DYNPF_DT_L3, .stack = true },
	{ "@l4", raw_match, .arg = DYNPF_DT_L4, .stack = true },
	{ "@payload", raw_match, .arg = DYNPF_DT_PAYLOAD, .stack = true },
	{ "inner", inner_match, SLOT_INNER },
};

#define NKW ARRAY_SIZE(match_kws)

/*
 * Finding a keyword from its words: at[j] is the word match_kws[j] needs
 * next ("" when it needs no more), NULL when it is not the one; the ones
 * that may still be lie in [lo, hi).
 */
struct kw_find {
	const char *at[NKW];
	size_t lo, hi;
};

/* s starts with the word w: the words after it ("" none); else NULL. */
static inline const char *kw_after(const char *s, const struct word *w)
{
	size_t j;

	if (!s || !w->p || s[0] != w->p[0])
		return NULL;
	/* A word holds no blank: a blank in s ends its word there. */
	for (j = 0; j < w->len; j++)
		if (s[j] != w->p[j] || !s[j])
			return NULL;
	if (s[j] == ' ')
		return s + j + 1;
	return s[j] ? NULL : s + j;
}

/* The keywords whose first word is w, past it: any? */
static bool kw_first(struct kw_find *f, const struct word *w)
{
	const struct word v = *w;
	size_t n = 0;

	for (size_t j = 0; j < NKW; j++) {
		const char *s = kw_after(match_kws[j].words, &v);

		if (!s)
			continue;
		if (!n++)
			f->lo = f->hi = j;
		while (f->hi < j)
			f->at[f->hi++] = NULL;
		f->at[f->hi++] = s;
	}
	return n;
}

/* Move the keywords whose next word is w past it, the others out: any left? */
static bool narrow(struct kw_find *f, const struct word *w)
{
	const struct word v = *w; /* not reread after each store to at[] */
	size_t lo = f->hi, hi = f->lo;

	for (size_t j = f->lo; j < f->hi; j++) {
		const char *s = kw_after(f->at[j], &v);

		f->at[j] = s;
		if (s) {
			lo = lo < j ? lo : j;
			hi = j + 1;
		}
	}
	f->lo = lo;
	f->hi = hi;
	return lo < hi;
}

/* Is w the next word of a keyword? */
static bool goes_on(const struct kw_find *f, const struct word *w)
{
	for (size_t j = f->lo; j < f->hi; j++)
		if (kw_after(f->at[j], w))
			return true;
	return false;
}

/* The words the keywords need next, each once, in the table's order: "sport or dport". */
static const char *choices(const struct kw_find *f, char *buf, size_t size)
{
	const char *w[NKW];
	size_t wn[NKW], n = 0, len = 0;

	for (size_t j = f->lo; j < f->hi; j++) {
		const char *s = f->at[j];
		size_t k, wl = s ? strcspn(s, " ") : 0;

		for (k = 0; wl && k < n && !(wn[k] == wl && !memcmp(w[k], s, wl)); k++)
			;
		if (wl && k == n) {
			w[n] = s;
			wn[n++] = wl;
		}
	}
	buf[0] = 0;
	for (size_t k = 0; k < n && len < size; k++)
		len += snprintf(buf + len, size - len, "%s%.*s",
				!k           ? ""
				: k == n - 1 ? " or "
					     : ", ",
				(int)wn[k], w[k]);
	return buf;
}

const char *lang_match_word_missing(int (*in)(const char *name))
{
	static char buf[DYNPF_PROTO_NAME_MAX];

	for (size_t j = 0; j < NKW; j++) {
		size_t n = strcspn(match_kws[j].words, " ");

		if (n >= sizeof(buf))
			return match_kws[j].words;
		memset(buf, 0, sizeof(buf));
		memcpy(buf, match_kws[j].words, n);
		if (buf[0] != '@' && !in(buf))
			return match_kws[j].words;
	}
	return NULL;
}

int rp_match(struct rp *p)
{
	const struct match_kw *k = NULL;
	struct kw_find f;
	char buf[128];
	int e;

	p->col = p->cur.col;
	if (p->protos && (e = lang_proto_find(p->protos, &p->cur)) >= 0)
		return lang_decl_match(p, e);
	if (!kw_first(&f, &p->cur)) {
		if (rp_is(p, "id") || rp_is(p, "prio"))
			return rp_expected_why(p, "a match or an action",
					       "'id', then 'prio', come first");
		return rp_expected(p, "a match or an action");
	}
	/*
	 * The keyword's next words: after a whole keyword (`ip`), a word that
	 * goes on with a longer one (`saddr`) is taken if it is there; inside
	 * a keyword (`tcp`), one of the words that go on must follow.
	 */
	while (!k) {
		const struct match_kw *whole = NULL;
		bool more = false;
		struct word w;

		for (size_t j = f.lo; j < f.hi; j++) {
			if (f.at[j] && *f.at[j])
				more = true;
			else if (f.at[j])
				whole = &match_kws[j];
		}
		if (!more) {
			k = whole;
		} else if (whole) {
			w = rp_peek(p);
			if (narrow(&f, &w))
				rp_next(p);
			else
				k = whole;
		} else {
			rp_next(p);
			if (!goes_on(&f, &p->cur))
				return rp_expected(p, choices(&f, buf, sizeof(buf)));
			narrow(&f, &p->cur);
		}
	}
	if ((e = claim(p, k)) || (k->parse && (e = k->parse(p, k))))
		return e;
	p->r->m.fields |= k->field;
	if (k->stack)
		stack_match(p, k->words, p->col);
	/* `th` ports and `proto`: whichever comes second sees the conflict. */
	if (k->field & (DYNPF_M_PROTO | DYNPF_M_SPORT | DYNPF_M_DPORT))
		return th_proto_check(p);
	return 0;
}
