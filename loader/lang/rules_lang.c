// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The rule language (docs/rules.md): a rule's words to struct dynpf_rule, a
 * rule file to a rule set, and a rule back to its normalized text.
 *
 * The parser reads one line at a time, one word at a time, and stops at the
 * first error with "FILE:LINE:COLUMN: expected X after 'Y', got 'Z'" (or a
 * conflict or a duplicate, naming both places). Words are bytes: a NUL or a
 * byte that is not ASCII is only ever part of a word that is not a keyword,
 * and is shown escaped (\xNN) in the message.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "lang/rules_lang.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A rule file larger than this is refused (131071 rules of 500 bytes fit). */
#define DYNPF_RULES_FILE_MAX (64u << 20)

/* The default rate of `sample` (docs/rules.md). */
#define DYNPF_SAMPLE_RATE_DEFAULT 100

struct name_val {
	const char *name;
	__u32 val;
};

static const struct name_val ethertypes[] = {
	{ "ip", 0x0800 }, { "ip6", 0x86dd }, { "arp", 0x0806 }, { "mpls", 0x8847 }, {},
};

static const struct name_val ipprotos[] = {
	{ "tcp", 6 },  { "udp", 17 }, { "icmp", 1 },   { "icmpv6", 58 }, { "gre", 47 },
	{ "esp", 50 }, { "ah", 51 },  { "sctp", 132 }, { "ipip", 4 },    { "ipv6", 41 },
	{},
};

static const struct name_val frags[] = {
	{ "none", DYNPF_MF_NOT },
	{ "any", DYNPF_MF_ANY },
	{ "first", DYNPF_MF_FIRST },
	{ "later", DYNPF_MF_NONFIRST },
	{},
};

/* In the order of the flags byte, lowest bit first: the printed order. */
static const struct name_val tcp_flags[] = {
	{ "fin", 0x01 }, { "syn", 0x02 }, { "rst", 0x04 }, { "psh", 0x08 },
	{ "ack", 0x10 }, { "urg", 0x20 }, { "ece", 0x40 }, { "cwr", 0x80 },
	{},
};

static const struct name_val tcp_opts[] = {
	{ "eol", 0 },	    { "nop", 1 }, { "mss", 2 }, { "wscale", 3 }, { "sack-perm", 4 },
	{ "sack", 5 },	    { "ts", 8 },  { "mptcp", 30 },
	{},
};

/* IPv4 option types: the whole type byte (copied, class, number). */
static const struct name_val ip_opts[] = {
	{ "eol", 0 }, { "nop", 1 }, { "rr", 7 }, { "ts", 68 }, { "ra", 148 }, {},
};

/* IPv6 extension headers by their protocol numbers (ctrl/match.h). */
static const struct name_val exthdrs[] = {
	{ "hopopts", 0 }, { "routing", 43 }, { "fragment", 44 },
	{ "dstopts", 60 }, { "ah", 51 },     { "esp", 50 },
	{},
};

static const struct name_val ip6_opts[] = {
	{ "pad1", 0 }, { "padn", 1 }, { "ra", 5 }, { "jumbo", 0xc2 }, {},
};

static const struct name_val srh_tlvs[] = {
	{ "pad1", 0 }, { "padn", 4 }, { "hmac", 5 }, {},
};

static const struct name_val err_names[] = {
#define DYNPF_X(name, val, json, desc) { json, val },
	DYNPF_ERRORS(DYNPF_X)
#undef DYNPF_X
	{},
};

static const struct name_val actions[] = {
#define DYNPF_X(name, val, text, term) { text, val },
	DYNPF_ACTIONS(DYNPF_X)
#undef DYNPF_X
	{},
};

static const struct name_val settings[] = {
#define DYNPF_X(name, val, text) { text, val },
	DYNPF_SETTINGS(DYNPF_X)
#undef DYNPF_X
	{},
};

static const struct name_val vals[] = {
#define DYNPF_X(name, val, text) { text, val },
	DYNPF_VALS(DYNPF_X)
#undef DYNPF_X
	{},
};

static const char *name_of(const struct name_val *t, __u32 val)
{
	for (; t->name; t++)
		if (t->val == val)
			return t->name;
	return NULL;
}

/*
 * TLV presence tests, in the order of the docs' table: the order they are
 * kept in (and printed), dynpf_tlv_test_rank()'s (ctrl/match.h). types: the names; NULL for Geneve (CLASS:TYPE).
 * only_named: a number must be one of the names' (extension headers).
 * stack: the test reads the rule's stack of headers, not the whole packet.
 */
static const struct tlv_kind {
	const char *words;
	__u8 family;
	const struct name_val *types;
	bool only_named;
	bool stack;
	const char *what;
} tlv_kinds[] = {
	{ "tcp option", DYNPF_TLV_TCP_OPT, tcp_opts, false, false,
	  "a TCP option (eol nop mss wscale sack-perm sack ts mptcp or 0-255)" },
	{ "ip option", DYNPF_TLV_IPV4_OPT, ip_opts, false, false,
	  "an IPv4 option (eol nop rr ts ra or 0-255)" },
	{ "ip6 exthdr", DYNPF_TT_EXT, exthdrs, true, true,
	  "an extension header (hopopts routing fragment dstopts ah esp, or 0 43 44 60 51 50)" },
	{ "ip6 hbh option", DYNPF_TLV_IPV6_HBH, ip6_opts, false, false,
	  "a hop-by-hop option (pad1 padn ra jumbo or 0-255)" },
	{ "ip6 dst option", DYNPF_TLV_IPV6_DST, ip6_opts, false, false,
	  "a destination option (pad1 padn ra jumbo or 0-255)" },
	{ "srh tlv", DYNPF_TLV_SRH_TLV, srh_tlvs, false, false,
	  "an SRH TLV (pad1 padn hmac or 0-255)" },
	{ "geneve option", DYNPF_TLV_GENEVE_OPT, NULL, false, false,
	  "a Geneve option CLASS:TYPE (0-0xffff:0-0xff)" },
};

static const struct tlv_kind *tlv_kind_of(__u32 family)
{
	for (size_t i = 0; i < ARRAY_SIZE(tlv_kinds); i++)
		if (tlv_kinds[i].family == family)
			return &tlv_kinds[i];
	return NULL;
}

/* Value tests, indexed by DYNPF_V_* - 1: the docs' table order too. */
static const struct val_kind {
	__u8 field;
	const char *words;
	bool stack;
	const char *what;
} val_kinds[] = {
	{ DYNPF_V_MSS, "tcp mss", true, "an MSS or range (0-65535)" },
	{ DYNPF_V_WSCALE, "tcp wscale", true, "a window scale or range (0-255)" },
	{ DYNPF_V_VNI, "vni", false, "a VNI or range (0-16777215)" },
	{ DYNPF_V_SEGLEFT, "srh segleft", true, "a segments-left value or range (0-255)" },
	{ DYNPF_V_TEID, "gtpu teid", false, "a TEID or range (0-4294967295)" },
	{ DYNPF_V_MPLS_LABEL, "mpls label", false, "an MPLS label or range (0-1048575)" },
	{ DYNPF_V_GRE_KEY, "gre key", false, "a GRE key or range (0-4294967295)" },
};
_Static_assert(ARRAY_SIZE(val_kinds) == DYNPF_V_MAX - 1, "a val_kind per DYNPF_V_*");

/*
 * The matches a rule has at most once, in the docs' table order; the value
 * tests follow (SLOT_VAL + DYNPF_V_* - 1). The parser keeps where each was
 * given, for the messages about duplicates and conflicts.
 */
enum slot {
	SLOT_IIF,
	SLOT_ETH_SRC,
	SLOT_ETH_DST,
	SLOT_ETHERTYPE,
	SLOT_VLAN,
	SLOT_FAMILY,
	SLOT_SRC,
	SLOT_DST,
	SLOT_PROTO,
	SLOT_FRAG,
	SLOT_TTL,
	SLOT_DSCP,
	SLOT_SPORT,
	SLOT_DPORT,
	SLOT_TCP_FLAGS,
	SLOT_ERROR,
	SLOT_INNER,
	SLOT_VAL,
	SLOT_N = SLOT_VAL + DYNPF_V_MAX - 1,
};

struct word {
	const char *p; /* NULL: the end of the line */
	size_t len;
	size_t col;    /* 1-based; at the end of the line, right after the last word */
};

struct rp {
	const char *src;
	unsigned long line;
	const char *s; /* the line, without its newline */
	size_t len, pos;
	struct word prev, cur;
	struct dynpf_rule_err *err;
	struct dynpf_rule *r;
	size_t slot_col[SLOT_N];
	const char *slot_what[SLOT_N];
	size_t fam_col, proto_col, stack_col, id_col;
	const char *fam_what, *proto_what, *stack_what;
	size_t tlv_col[DYNPF_MATCH_TLVS];
	bool has_id, has_prio;
};

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The next word of the line into p->cur, the current one into p->prev. */
static void next(struct rp *p)
{
	size_t start;

	if (p->cur.p)
		p->prev = p->cur;
	while (p->pos < p->len && blank(p->s[p->pos]))
		p->pos++;
	p->cur.col = p->pos + 1;
	if (p->pos >= p->len || p->s[p->pos] == '#') {
		/* Right after the last word: blanks and comments do not count. */
		p->cur.col = p->prev.p ? p->prev.col + p->prev.len : 1;
		p->cur.p = NULL;
		p->cur.len = 0;
		return;
	}
	start = p->pos;
	while (p->pos < p->len && !blank(p->s[p->pos]) && p->s[p->pos] != '#')
		p->pos++;
	p->cur.p = p->s + start;
	p->cur.len = p->pos - start;
}

/* The word after the current one, without moving. */
static struct word peek(const struct rp *p)
{
	struct rp q = *p;

	next(&q);
	return q.cur;
}

static bool weq(const struct word *w, const char *s)
{
	size_t n = strlen(s);

	return w->p && w->len == n && !memcmp(w->p, s, n);
}

static bool is(const struct rp *p, const char *s)
{
	return weq(&p->cur, s);
}

/* 'word' for a message: at most 32 bytes, anything not printable as \xNN. */
static const char *shown(const struct word *w, char *buf, size_t size)
{
	size_t n = 0, i;

	if (!w->p) {
		snprintf(buf, size, "end of line");
		return buf;
	}
	buf[n++] = '\'';
	for (i = 0; i < w->len && i < 32 && n + 8 < size; i++) {
		unsigned char c = w->p[i];

		if (c >= 0x20 && c < 0x7f)
			buf[n++] = c;
		else
			n += snprintf(buf + n, size - n, "\\x%02x", c);
	}
	if (i < w->len)
		n += snprintf(buf + n, size - n, "...");
	snprintf(buf + n, size - n, "'");
	return buf;
}

static int failf(struct rp *p, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int failf(struct rp *p, size_t col, const char *fmt, ...)
{
	struct dynpf_rule_err *e = p->err;
	va_list ap;
	int n;

	e->line = p->line;
	e->col = col;
	n = snprintf(e->msg, sizeof(e->msg), "%s:%lu:%zu: ", p->src, p->line, col);
	if (n < 0 || (size_t)n >= sizeof(e->msg))
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(e->msg + n, sizeof(e->msg) - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* "expected WHAT after 'PREV', got 'CUR'" at the current word. */
static int expected(struct rp *p, const char *what)
{
	char a[160], b[160];

	if (!p->prev.p)
		return failf(p, p->cur.col, "expected %s, got %s", what,
			     shown(&p->cur, b, sizeof(b)));
	return failf(p, p->cur.col, "expected %s after %s, got %s", what,
		     shown(&p->prev, a, sizeof(a)), shown(&p->cur, b, sizeof(b)));
}

/* The same, with a reason after it. */
static int expected_why(struct rp *p, const char *what, const char *why)
{
	char a[160], b[160];

	if (!p->prev.p)
		return failf(p, p->cur.col, "expected %s, got %s (%s)", what,
			     shown(&p->cur, b, sizeof(b)), why);
	return failf(p, p->cur.col, "expected %s after %s, got %s (%s)", what,
		     shown(&p->prev, a, sizeof(a)), shown(&p->cur, b, sizeof(b)), why);
}

/* Move to the next word, which must be there. */
static int need(struct rp *p, const char *what)
{
	next(p);
	if (!p->cur.p)
		return expected(p, what);
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* NUM: decimal or 0x hex, every byte of s, at most max (<= UINT32_MAX). */
static bool num(const char *s, size_t n, __u32 max, __u32 *out)
{
	unsigned int base = 10;
	__u64 v = 0;
	size_t i = 0;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i >= n)
		return false;
	for (; i < n; i++) {
		int d = hexval(s[i]);

		if (d < 0 || (unsigned int)d >= base)
			return false;
		v = v * base + d;
		if (v > max)
			return false;
	}
	*out = (__u32)v;
	return true;
}

static bool wnum(const struct word *w, __u32 max, __u32 *out)
{
	return w->p && num(w->p, w->len, max, out);
}

/* RANGE: NUM or NUM-NUM. 0, -1 not a range within max, -2 low above high. */
static int range(const struct word *w, __u32 max, __u32 *lo, __u32 *hi)
{
	const char *dash = memchr(w->p, '-', w->len);

	if (!dash) {
		if (!num(w->p, w->len, max, lo))
			return -1;
		*hi = *lo;
		return 0;
	}
	if (!num(w->p, dash - w->p, max, lo) ||
	    !num(dash + 1, w->len - (dash + 1 - w->p), max, hi))
		return -1;
	return *lo <= *hi ? 0 : -2;
}

static int need_range(struct rp *p, const char *what, __u32 max, __u32 *lo, __u32 *hi)
{
	int e = need(p, what);

	if (e)
		return e;
	switch (range(&p->cur, max, lo, hi)) {
	case 0:
		return 0;
	case -2:
		return expected_why(p, what, "the low end is above the high end");
	}
	return expected(p, what);
}

/* The word as a C string, if it fits and holds no NUL. */
static bool cstr(const struct word *w, char *buf, size_t size)
{
	if (!w->p || w->len >= size || memchr(w->p, 0, w->len))
		return false;
	memcpy(buf, w->p, w->len);
	buf[w->len] = 0;
	return true;
}

static const struct name_val *lookup(const struct name_val *t, const struct word *w)
{
	for (; t->name; t++)
		if (weq(w, t->name))
			return t;
	return NULL;
}

/* IFNAME|NUM: a number is an index (1 or more), a name must exist now. */
static int need_ifindex(struct rp *p, const char *what, __u32 *out)
{
	char name[IF_NAMESIZE];
	int e = need(p, what);

	if (e)
		return e;
	if (wnum(&p->cur, 0xffffffff, out)) {
		if (!*out)
			return expected_why(p, what, "interface indexes start at 1");
		return 0;
	}
	if (!cstr(&p->cur, name, sizeof(name)) || !(*out = if_nametoindex(name)))
		return expected_why(p, what, "no such interface");
	return 0;
}

static int slot_take(struct rp *p, enum slot s, const char *what, size_t col)
{
	if (p->slot_col[s]) {
		if (!strcmp(what, p->slot_what[s]))
			return failf(p, col, "duplicate match: '%s' is already at column %zu", what,
				     p->slot_col[s]);
		return failf(p, col,
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
		return failf(p, col,
			     "family conflict: '%s' matches IPv%u, '%s' at column %zu matches IPv%u",
			     what, fam, p->fam_what, p->fam_col, m->family);
	if ((m->fields & DYNPF_M_ETHERTYPE) && ethertype_family(m->ethertype) &&
	    ethertype_family(m->ethertype) != fam)
		return failf(p, col,
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
	const char *n = name_of(ipprotos, proto);

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
		return failf(p, col,
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
	size_t col = p->slot_col[SLOT_PROTO] > p->slot_col[s] ? p->slot_col[SLOT_PROTO]
							       : p->slot_col[s];
	char a[16];

	if (!(m->fields & DYNPF_M_PROTO) || !(m->fields & (DYNPF_M_SPORT | DYNPF_M_DPORT)) ||
	    m->proto == 6 || m->proto == 17)
		return 0;
	proto_text(m->proto, a, sizeof(a));
	return failf(p, col,
		     "protocol conflict: '%s' at column %zu needs tcp or udp, '%s' at column %zu matches %s",
		     p->slot_what[s], p->slot_col[s], p->proto_what, p->proto_col, a);
}

static bool mac(const struct word *w, __u8 *out)
{
	size_t i = 0;

	for (int b = 0; b < 6; b++) {
		int d, v = 0, k;

		for (k = 0; k < 2 && i < w->len && (d = hexval(w->p[i])) >= 0; k++, i++)
			v = v * 16 + d;
		if (!k)
			return false;
		out[b] = v;
		if (b < 5) {
			if (i >= w->len || w->p[i] != ':')
				return false;
			i++;
		}
	}
	return i == w->len;
}

/* PREFIX: an address, and /LEN (decimal) or the whole address. */
static int need_prefix(struct rp *p, int fam, const char *what, __u8 *addr, __u8 *plen)
{
	unsigned int maxp = fam == 4 ? 32 : 128, n = 0;
	char buf[INET6_ADDRSTRLEN + 8], net[INET6_ADDRSTRLEN], why[96];
	__u8 a[16] = {};
	const char *slash;
	size_t i;
	int e = need(p, what);

	if (e)
		return e;
	if (!cstr(&p->cur, buf, sizeof(buf)))
		return expected(p, what);
	slash = strchr(buf, '/');
	if (slash) {
		if (!slash[1] || strlen(slash + 1) > 3)
			return expected(p, what);
		for (i = 1; slash[i]; i++) {
			if (slash[i] < '0' || slash[i] > '9')
				return expected(p, what);
			n = n * 10 + (slash[i] - '0');
		}
		if (n > maxp)
			return expected_why(p, what, fam == 4 ? "a prefix length is 0-32"
							      : "a prefix length is 0-128");
		buf[slash - buf] = 0;
	} else {
		n = maxp;
	}
	if (inet_pton(fam == 4 ? AF_INET : AF_INET6, buf, a) != 1)
		return expected(p, what);
	for (i = 0; i < maxp / 8; i++) {
		unsigned int keep = n >= 8 * (i + 1) ? 8 : n > 8 * i ? n - 8 * i : 0;
		__u8 mask = keep ? (__u8)(0xff << (8 - keep)) : 0;

		if (a[i] & ~mask) {
			__u8 b[16];

			memcpy(b, a, sizeof(b));
			for (size_t j = i; j < 16; j++) {
				keep = n >= 8 * (j + 1) ? 8 : n > 8 * j ? n - 8 * j : 0;
				b[j] &= keep ? (__u8)(0xff << (8 - keep)) : 0;
			}
			inet_ntop(fam == 4 ? AF_INET : AF_INET6, b, net, sizeof(net));
			snprintf(why, sizeof(why), "host bits set: the prefix is %s/%u", net, n);
			return expected_why(p, what, why);
		}
	}
	memcpy(addr, a, sizeof(a));
	*plen = n;
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
		const struct name_val *f = lookup(tcp_flags, &w);
		__u32 x;

		if (f)
			v |= f->val;
		else if (num(w.p, w.len, 0xff, &x))
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
#define ERROR_WHAT                                                             \
	"a parse error name (ok truncated bad_len depth bad_version tlv_len tlv_count bad_hdr)"
#define FLAGS_WHAT "TCP flags (fin,syn,rst,psh,ack,urg,ece,cwr or 0-255)"

/* `tcp flags` FLAGS [/ FLAGS]: the mask in the same word or the next ones. */
static int tcp_flags_match(struct rp *p, size_t col)
{
	struct dynpf_match *m = &p->r->m;
	__u8 v, mask;
	const char *slash;
	int e;

	if ((e = slot_take(p, SLOT_TCP_FLAGS, "tcp flags", col)) ||
	    (e = proto_set(p, 6, "tcp flags", col)) || (e = need(p, FLAGS_WHAT)))
		return e;
	slash = memchr(p->cur.p, '/', p->cur.len);
	if (slash) {
		size_t vlen = slash - p->cur.p;

		if (!flag_list(p->cur.p, vlen, &v) ||
		    !flag_list(slash + 1, p->cur.len - vlen - 1, &mask))
			return expected(p, FLAGS_WHAT "[/MASK]");
	} else {
		struct word w;

		if (!flag_list(p->cur.p, p->cur.len, &v))
			return expected(p, FLAGS_WHAT);
		mask = v;
		w = peek(p);
		if (w.p && w.p[0] == '/') {
			next(p);
			if (p->cur.len == 1) {
				if ((e = need(p, "a mask of " FLAGS_WHAT)))
					return e;
				if (!flag_list(p->cur.p, p->cur.len, &mask))
					return expected(p, "a mask of " FLAGS_WHAT);
			} else if (!flag_list(p->cur.p + 1, p->cur.len - 1, &mask)) {
				return expected(p, "a mask of " FLAGS_WHAT);
			}
		}
	}
	if (!mask)
		return expected_why(p, FLAGS_WHAT, "a mask of no flags tests nothing");
	if (v & ~mask)
		return expected_why(p, FLAGS_WHAT, "a flag outside the mask never matches");
	m->tcp_flags = v;
	m->tcp_flags_mask = mask;
	m->fields |= DYNPF_M_TCP_FLAGS;
	stack_match(p, "tcp flags", col);
	return 0;
}

static int port_match(struct rp *p, int which, const char *what, __u8 proto, size_t col)
{
	struct dynpf_match *m = &p->r->m;
	__u32 lo, hi;
	int e;

	if ((e = slot_take(p, which ? SLOT_DPORT : SLOT_SPORT, what, col)))
		return e;
	if (proto && (e = proto_set(p, proto, what, col)))
		return e;
	if ((e = need_range(p, "a port or range (0-65535)", 0xffff, &lo, &hi)))
		return e;
	if (which) {
		m->dport_lo = lo;
		m->dport_hi = hi;
		m->fields |= DYNPF_M_DPORT;
	} else {
		m->sport_lo = lo;
		m->sport_hi = hi;
		m->fields |= DYNPF_M_SPORT;
	}
	stack_match(p, what, col);
	return th_proto_check(p);
}

static const char *const port_whats[3][2] = {
	{ "tcp sport", "tcp dport" },
	{ "udp sport", "udp dport" },
	{ "th sport", "th dport" },
};

/* tcp|udp|th sport|dport: cur is the protocol word, kind its index above. */
static int ports(struct rp *p, int kind, size_t col)
{
	static const __u8 proto[] = { 6, 17, 0 };
	int which;

	if (is(p, "sport"))
		which = 0;
	else if (is(p, "dport"))
		which = 1;
	else
		return expected(p, kind == 0 ? "sport, dport, flags, option, mss or wscale"
					     : "sport or dport");
	return port_match(p, which, port_whats[kind][which], proto[kind], col);
}

static int tlv_match(struct rp *p, const struct tlv_kind *k, size_t col)
{
	struct dynpf_match *m = &p->r->m;
	struct dynpf_tlv_test t = { .family = k->family };
	const struct name_val *nv;
	struct word w;
	int e;

	if ((e = need(p, k->what)))
		return e;
	if (!k->types) {
		const char *colon = memchr(p->cur.p, ':', p->cur.len);
		__u32 cls, type;

		if (!colon || !num(p->cur.p, colon - p->cur.p, 0xffff, &cls) ||
		    !num(colon + 1, p->cur.len - (colon + 1 - p->cur.p), 0xff, &type))
			return expected(p, k->what);
		t.type = cls << 8 | type;
	} else if ((nv = lookup(k->types, &p->cur))) {
		t.type = nv->val;
	} else if (!wnum(&p->cur, 0xff, &t.type) || (k->only_named && !name_of(k->types, t.type))) {
		return expected(p, k->what);
	}
	w = peek(p);
	if (weq(&w, "missing")) {
		next(p);
		t.neg = 1;
	}
	for (unsigned int i = 0; i < m->ntlv; i++)
		if (m->tlv[i].family == t.family && m->tlv[i].type == t.type)
			return failf(p, col,
				     "duplicate match: this '%s' is already tested at column %zu",
				     k->words, p->tlv_col[i]);
	if (m->ntlv >= DYNPF_MATCH_TLVS)
		return failf(p, col,
			     "too many TLV tests: '%s' would be the %uth, a rule holds at most %u",
			     k->words, m->ntlv + 1, DYNPF_MATCH_TLVS);
	p->tlv_col[m->ntlv] = col;
	m->tlv[m->ntlv++] = t;
	if (k->stack)
		stack_match(p, k->words, col);
	return 0;
}

static int val_match(struct rp *p, const struct val_kind *k, size_t col)
{
	struct dynpf_match *m = &p->r->m;
	struct dynpf_val_test t = { .field = k->field };
	int e;

	if ((e = slot_take(p, SLOT_VAL + k->field - 1, k->words, col)))
		return e;
	if ((e = need_range(p, k->what, dynpf_val_max(k->field), &t.lo, &t.hi)))
		return e;
	if (m->nval >= DYNPF_MATCH_VALS)
		return failf(p, col,
			     "too many value tests: '%s' would be the %uth, a rule holds at most %u",
			     k->words, m->nval + 1, DYNPF_MATCH_VALS);
	m->val[m->nval++] = t;
	if (k->stack)
		stack_match(p, k->words, col);
	return 0;
}

/* `ip` or `ip6` and what follows; cur is `ip` or `ip6`. */
static int ip_match(struct rp *p, int fam, size_t col)
{
	struct dynpf_match *m = &p->r->m;
	const char *fw = fam == 4 ? "ip" : "ip6";
	struct word w = peek(p);
	int e;

	if (weq(&w, "saddr") || weq(&w, "daddr")) {
		bool src = weq(&w, "saddr");
		const char *what = src ? (fam == 4 ? "ip saddr" : "ip6 saddr")
				       : (fam == 4 ? "ip daddr" : "ip6 daddr");

		next(p);
		if ((e = slot_take(p, src ? SLOT_SRC : SLOT_DST, what, col)) ||
		    (e = family_set(p, fam, what, col)))
			return e;
		if ((e = need_prefix(p, fam, fam == 4 ? "an IPv4 address or prefix"
						      : "an IPv6 address or prefix",
				     src ? m->src : m->dst, src ? &m->src_plen : &m->dst_plen)))
			return e;
		m->fields |= src ? DYNPF_M_SRC : DYNPF_M_DST;
		stack_match(p, what, col);
		return 0;
	}
	if (fam == 4 && weq(&w, "option")) {
		next(p);
		return tlv_match(p, &tlv_kinds[1], col);
	}
	if (fam == 6 && weq(&w, "exthdr")) {
		next(p);
		return tlv_match(p, &tlv_kinds[2], col);
	}
	if (fam == 6 && (weq(&w, "hbh") || weq(&w, "dst"))) {
		const struct tlv_kind *k = &tlv_kinds[weq(&w, "hbh") ? 3 : 4];

		next(p);
		if ((e = need(p, "option")))
			return e;
		if (!is(p, "option"))
			return expected(p, "option");
		return tlv_match(p, k, col);
	}
	/* The family alone: `ip6 ip` is a conflict, `ip ip` a duplicate. */
	if ((e = family_set(p, fam, fw, col)) || (e = slot_take(p, SLOT_FAMILY, fw, col)))
		return e;
	stack_match(p, fw, col);
	return 0;
}

/* One match, from its first word (cur) to its last. */
static int match(struct rp *p)
{
	struct dynpf_match *m = &p->r->m;
	size_t col = p->cur.col;
	const struct name_val *nv;
	__u32 lo, hi, v;
	int e;

	if (is(p, "iif")) {
		if ((e = slot_take(p, SLOT_IIF, "iif", col)) ||
		    (e = need_ifindex(p, "an interface name or index", &m->ifindex)))
			return e;
		m->fields |= DYNPF_M_IFINDEX;
		return 0;
	}
	if (is(p, "ether")) {
		if ((e = need(p, "saddr, daddr or type")))
			return e;
		if (is(p, "saddr") || is(p, "daddr")) {
			bool src = is(p, "saddr");
			const char *what = src ? "ether saddr" : "ether daddr";

			if ((e = slot_take(p, src ? SLOT_ETH_SRC : SLOT_ETH_DST, what, col)) ||
			    (e = need(p, "a MAC address (02:00:00:00:00:01)")))
				return e;
			if (!mac(&p->cur, src ? m->eth_src : m->eth_dst))
				return expected(p, "a MAC address (02:00:00:00:00:01)");
			m->fields |= src ? DYNPF_M_ETH_SRC : DYNPF_M_ETH_DST;
			stack_match(p, what, col);
			return 0;
		}
		if (!is(p, "type"))
			return expected(p, "saddr, daddr or type");
		if ((e = slot_take(p, SLOT_ETHERTYPE, "ether type", col)) ||
		    (e = need(p, "an ethertype (ip ip6 arp mpls or 0-0xffff)")))
			return e;
		if ((nv = lookup(ethertypes, &p->cur)))
			v = nv->val;
		else if (!wnum(&p->cur, 0xffff, &v))
			return expected(p, "an ethertype (ip ip6 arp mpls or 0-0xffff)");
		if (m->family && ethertype_family(v) && ethertype_family(v) != m->family)
			return failf(p, col,
				     "family conflict: 'ether type' matches IPv%u, '%s' at column %zu matches IPv%u",
				     ethertype_family(v), p->fam_what, p->fam_col, m->family);
		m->ethertype = v;
		m->fields |= DYNPF_M_ETHERTYPE;
		stack_match(p, "ether type", col);
		return 0;
	}
	if (is(p, "vlan")) {
		if ((e = need(p, "id")))
			return e;
		if (!is(p, "id"))
			return expected(p, "id");
		if ((e = slot_take(p, SLOT_VLAN, "vlan id", col)) ||
		    (e = need(p, "a VLAN id (0-4095)")))
			return e;
		if (!wnum(&p->cur, 4095, &v))
			return expected(p, "a VLAN id (0-4095)");
		m->vlan = v;
		m->fields |= DYNPF_M_VLAN;
		stack_match(p, "vlan id", col);
		return 0;
	}
	if (is(p, "ip"))
		return ip_match(p, 4, col);
	if (is(p, "ip6"))
		return ip_match(p, 6, col);
	if (is(p, "proto")) {
		if ((e = slot_take(p, SLOT_PROTO, "proto", col)) ||
		    (e = need(p, PROTO_WHAT)))
			return e;
		if ((nv = lookup(ipprotos, &p->cur)))
			v = nv->val;
		else if (!wnum(&p->cur, 0xff, &v))
			return expected(p, PROTO_WHAT);
		if ((e = proto_set(p, v, "proto", col)) || (e = th_proto_check(p)))
			return e;
		stack_match(p, "proto", col);
		return 0;
	}
	if (is(p, "frag")) {
		if ((e = slot_take(p, SLOT_FRAG, "frag", col)) ||
		    (e = need(p, "none, any, first or later")))
			return e;
		if (!(nv = lookup(frags, &p->cur)))
			return expected(p, "none, any, first or later");
		m->frag = nv->val;
		m->fields |= DYNPF_M_FRAG;
		stack_match(p, "frag", col);
		return 0;
	}
	if (is(p, "ttl") || is(p, "hoplimit")) {
		const char *what = is(p, "ttl") ? "ttl" : "hoplimit";

		if ((e = slot_take(p, SLOT_TTL, what, col)) ||
		    (e = need_range(p, "a TTL or range (0-255)", 0xff, &lo, &hi)))
			return e;
		m->ttl_lo = lo;
		m->ttl_hi = hi;
		m->fields |= DYNPF_M_TTL;
		stack_match(p, what, col);
		return 0;
	}
	if (is(p, "dscp")) {
		if ((e = slot_take(p, SLOT_DSCP, "dscp", col)) || (e = need(p, "a DSCP (0-63)")))
			return e;
		if (!wnum(&p->cur, 63, &v))
			return expected(p, "a DSCP (0-63)");
		m->dscp = v;
		m->fields |= DYNPF_M_DSCP;
		stack_match(p, "dscp", col);
		return 0;
	}
	if (is(p, "tcp")) {
		if ((e = need(p, "sport, dport, flags, option, mss or wscale")))
			return e;
		if (is(p, "flags"))
			return tcp_flags_match(p, col);
		if (is(p, "option"))
			return tlv_match(p, &tlv_kinds[0], col);
		if (is(p, "mss"))
			return val_match(p, &val_kinds[DYNPF_V_MSS - 1], col);
		if (is(p, "wscale"))
			return val_match(p, &val_kinds[DYNPF_V_WSCALE - 1], col);
		return ports(p, 0, col);
	}
	if (is(p, "udp") || is(p, "th")) {
		int kind = is(p, "udp") ? 1 : 2;

		if ((e = need(p, "sport or dport")))
			return e;
		return ports(p, kind, col);
	}
	if (is(p, "error")) {
		if ((e = slot_take(p, SLOT_ERROR, "error", col)) ||
		    (e = need(p, ERROR_WHAT)))
			return e;
		if (!(nv = lookup(err_names, &p->cur)))
			return expected(p, ERROR_WHAT);
		m->error = nv->val;
		m->fields |= DYNPF_M_ERROR;
		return 0;
	}
	if (is(p, "srh")) {
		if ((e = need(p, "tlv or segleft")))
			return e;
		if (is(p, "tlv"))
			return tlv_match(p, &tlv_kinds[5], col);
		if (is(p, "segleft"))
			return val_match(p, &val_kinds[DYNPF_V_SEGLEFT - 1], col);
		return expected(p, "tlv or segleft");
	}
	if (is(p, "geneve")) {
		if ((e = need(p, "option")))
			return e;
		if (!is(p, "option"))
			return expected(p, "option");
		return tlv_match(p, &tlv_kinds[6], col);
	}
	if (is(p, "vni"))
		return val_match(p, &val_kinds[DYNPF_V_VNI - 1], col);
	if (is(p, "gtpu") || is(p, "mpls") || is(p, "gre")) {
		const char *sub = is(p, "gtpu") ? "teid" : is(p, "mpls") ? "label" : "key";
		int field = is(p, "gtpu") ? DYNPF_V_TEID : is(p, "mpls") ? DYNPF_V_MPLS_LABEL
									: DYNPF_V_GRE_KEY;

		if ((e = need(p, sub)))
			return e;
		if (!is(p, sub))
			return expected(p, sub);
		return val_match(p, &val_kinds[field - 1], col);
	}
	if (is(p, "inner")) {
		if ((e = slot_take(p, SLOT_INNER, "inner", col)))
			return e;
		if (p->stack_col)
			return failf(p, col,
				     "'inner' after '%s' at column %zu: a rule's header matches all refer to one stack, so they all come after 'inner'",
				     p->stack_what, p->stack_col);
		m->stack = 1;
		return 0;
	}
	if (is(p, "id") || is(p, "prio"))
		return expected_why(p, "a match or an action", "'id', then 'prio', come first");
	return expected(p, "a match or an action");
}

static bool is_action(const struct rp *p)
{
	return lookup(actions, &p->cur) || is(p, "accept");
}

/* NUM/s, at least 1. */
static bool per_second(const struct word *w, __u32 *out)
{
	return w->p && w->len > 2 && !memcmp(w->p + w->len - 2, "/s", 2) &&
	       num(w->p, w->len - 2, 0xffffffff, out) && *out >= 1;
}

/* The action, from its word (cur) to its last. */
static int action(struct rp *p)
{
	struct dynpf_rule *r = p->r;
	struct word w;
	__u32 v;
	int e;

	r->action = is(p, "accept") ? DYNPF_ACT_PASS : lookup(actions, &p->cur)->val;
	switch (r->action) {
	case DYNPF_ACT_REDIRECT:
		return need_ifindex(p, "an interface name or index", &r->arg);
	case DYNPF_ACT_MARK:
		if ((e = need(p, "a mark (0-4294967295)")))
			return e;
		if (!wnum(&p->cur, 0xffffffff, &r->arg))
			return expected(p, "a mark (0-4294967295)");
		return 0;
	case DYNPF_ACT_SAMPLE:
		if ((e = need(p, "a sample length (1-256 bytes)")))
			return e;
		if (!wnum(&p->cur, DYNPF_SAMPLE_MAX, &v) || !v)
			return expected(p, "a sample length (1-256 bytes)");
		r->sample_len = v;
		r->sample_rate = DYNPF_SAMPLE_RATE_DEFAULT;
		w = peek(p);
		if (weq(&w, "rate")) {
			next(p);
			if ((e = need(p, "a rate (NUM/s, 1 or more)")))
				return e;
			if (!per_second(&p->cur, &r->sample_rate))
				return expected(p, "a rate (NUM/s, 1 or more)");
		}
		return 0;
	case DYNPF_ACT_LIMIT:
		if ((e = need(p, "a rate (NUM/s, 1 or more)")))
			return e;
		if (!per_second(&p->cur, &r->arg))
			return expected(p, "a rate (NUM/s, 1 or more)");
		r->burst = r->arg;
		w = peek(p);
		if (weq(&w, "burst")) {
			next(p);
			if ((e = need(p, "a burst (packets, 1 or more)")))
				return e;
			if (!wnum(&p->cur, 0xffffffff, &r->burst) || !r->burst)
				return expected(p, "a burst (packets, 1 or more)");
		}
		return 0;
	}
	return 0;
}

/* The lowest id at or above from not in ids; 0 when there is none. */
static __u32 lowest_free(const struct dynpf_rule_ids *ids, __u32 from)
{
	__u32 id = from ? from : 1;

	while (id < DYNPF_MAX_RULES) {
		if (ids->w[id / 64] == ~0ull) {
			id = (id / 64 + 1) * 64;
			continue;
		}
		if (!dynpf_rule_ids_test(ids, id))
			return id;
		id++;
	}
	return 0;
}

/* Sort the TLV and value tests: one rule, one representation. */
static void canonical(struct dynpf_match *m)
{
	for (unsigned int i = 1; i < m->ntlv && i < DYNPF_MATCH_TLVS; i++) {
		for (unsigned int j = i; j > 0; j--) {
			struct dynpf_tlv_test *a = &m->tlv[j - 1], *b = &m->tlv[j], t;

			if (!dynpf_tlv_test_before(b, a))
				break;
			t = *a;
			*a = *b;
			*b = t;
		}
	}
	for (unsigned int i = 1; i < m->nval && i < DYNPF_MATCH_VALS; i++) {
		for (unsigned int j = i; j > 0 && m->val[j - 1].field > m->val[j].field; j--) {
			struct dynpf_val_test t = m->val[j - 1];

			m->val[j - 1] = m->val[j];
			m->val[j] = t;
		}
	}
}

/* A whole rule: the line's words from the first. */
static int rule(struct rp *p, const struct dynpf_rule_ids *taken, __u32 hint)
{
	struct dynpf_rule *r = p->r;
	struct dynpf_match *m = &r->m;
	__u32 v;
	int e;

	memset(r, 0, sizeof(*r));
	next(p);
	if (is(p, "id")) {
		if ((e = need(p, "a rule id (1-131071)")))
			return e;
		p->id_col = p->cur.col;
		if (!wnum(&p->cur, DYNPF_MAX_RULES - 1, &v) || !v)
			return expected(p, "a rule id (1-131071)");
		r->id = v;
		p->has_id = true;
		next(p);
	}
	if (is(p, "prio")) {
		if ((e = need(p, "a priority (0-4294967295)")))
			return e;
		if (!wnum(&p->cur, 0xffffffff, &r->prio))
			return expected(p, "a priority (0-4294967295)");
		p->has_prio = true;
		next(p);
	}
	for (;;) {
		if (!p->cur.p) {
			if (!p->prev.p)
				return expected(p, "a rule");
			return expected_why(p, "a match or an action",
					    "a rule ends with its action");
		}
		if (is_action(p)) {
			if ((e = action(p)))
				return e;
			next(p);
			if (p->cur.p)
				return expected_why(p, "the end of the rule",
						    "the action comes last");
			break;
		}
		if ((e = match(p)))
			return e;
		next(p);
	}
	/* A later fragment has no L4 header: no ports, no flags. */
	if (m->frag == DYNPF_MF_NONFIRST &&
	    (m->fields & (DYNPF_M_SPORT | DYNPF_M_DPORT | DYNPF_M_TCP_FLAGS))) {
		enum slot s = p->slot_col[SLOT_SPORT]	? SLOT_SPORT
			      : p->slot_col[SLOT_DPORT] ? SLOT_DPORT
							: SLOT_TCP_FLAGS;
		size_t col = p->slot_col[s] > p->slot_col[SLOT_FRAG] ? p->slot_col[s]
								      : p->slot_col[SLOT_FRAG];

		return failf(p, col,
			     "conflict: 'frag later' at column %zu has no L4 header, '%s' at column %zu needs one",
			     p->slot_col[SLOT_FRAG], p->slot_what[s], p->slot_col[s]);
	}
	canonical(m);
	if (!p->has_id) {
		r->id = taken ? lowest_free(taken, hint) : 1;
		if (!r->id)
			return failf(p, 1, "no free rule id: every id from 1 to %u is taken",
				     DYNPF_MAX_RULES - 1);
	}
	if (!p->has_prio)
		r->prio = r->id;
	return 0;
}

static void rp_init(struct rp *p, const char *src, unsigned long line, const char *s, size_t len,
		    struct dynpf_rule *r, struct dynpf_rule_err *err)
{
	memset(p, 0, sizeof(*p));
	p->src = src;
	p->line = line;
	p->s = s;
	p->len = len;
	p->r = r;
	p->err = err;
}

int dynpf_rule_parse_words(struct dynpf_rule *r, int nwords, char *const *words,
			   const struct dynpf_rule_ids *taken, struct dynpf_rule_err *err)
{
	size_t len = 0, n = 0;
	struct rp p;
	char *s;
	int e;

	for (int i = 0; i < nwords; i++)
		len += strlen(words[i]) + 1;
	s = malloc(len + 1);
	if (!s) {
		snprintf(err->msg, sizeof(err->msg), "%s: out of memory", DYNPF_RULE_CMDLINE);
		err->line = err->col = 0;
		return -ENOMEM;
	}
	for (int i = 0; i < nwords; i++) {
		size_t k = strlen(words[i]);

		if (i)
			s[n++] = ' ';
		memcpy(s + n, words[i], k);
		n += k;
	}
	s[n] = 0;
	rp_init(&p, DYNPF_RULE_CMDLINE, 1, s, n, r, err);
	e = rule(&p, taken, 1);
	free(s);
	return e;
}

void dynpf_ruleset_init(struct dynpf_ruleset *rs)
{
	memset(rs, 0, sizeof(*rs));
	rs->free_hint = 1;
}

void dynpf_ruleset_free(struct dynpf_ruleset *rs)
{
	free(rs->rules);
	free(rs->lines);
	dynpf_ruleset_init(rs);
}

/* set KEY VALUE */
static int setting(struct rp *p, struct dynpf_ruleset *rs)
{
	const struct name_val *key;
	__u64 v;
	int e;

	if ((e = need(p, "default-action or pass-arp-nd")))
		return e;
	key = lookup(settings, &p->cur);
	if (!key)
		return expected(p, "default-action or pass-arp-nd");
	if (key->val == DYNPF_SET_DEFAULT_ACTION) {
		if ((e = need(p, "pass or drop")))
			return e;
		if (is(p, "pass"))
			v = DYNPF_ACT_PASS;
		else if (is(p, "drop"))
			v = DYNPF_ACT_DROP;
		else
			return expected(p, "pass or drop");
	} else {
		if ((e = need(p, "on or off")))
			return e;
		if (is(p, "on"))
			v = 1;
		else if (is(p, "off"))
			v = 0;
		else
			return expected(p, "on or off");
	}
	next(p);
	if (p->cur.p)
		return expected(p, "the end of the line");
	if (rs->set_seen & (1u << key->val))
		return failf(p, 1, "duplicate setting: '%s' is already set on line %lu", key->name,
			     rs->set_line[key->val]);
	rs->set_seen |= 1u << key->val;
	rs->set[key->val] = v;
	rs->set_line[key->val] = p->line;
	return 0;
}

static int ruleset_add(struct dynpf_ruleset *rs, const struct dynpf_rule *r, unsigned long line)
{
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 64;
		struct dynpf_rule *nr = realloc(rs->rules, cap * sizeof(*nr));
		unsigned long *nl;

		if (!nr)
			return -ENOMEM;
		rs->rules = nr;
		nl = realloc(rs->lines, cap * sizeof(*nl));
		if (!nl)
			return -ENOMEM;
		rs->lines = nl;
		rs->cap = cap;
	}
	rs->rules[rs->n] = *r;
	rs->lines[rs->n++] = line;
	dynpf_rule_ids_set(&rs->ids, r->id);
	return 0;
}

static int parse_line(struct dynpf_ruleset *rs, const char *name, unsigned long lineno,
		      const char *s, size_t len, struct dynpf_rule_err *err)
{
	struct dynpf_rule r;
	struct rp p;
	struct word w;
	int e;

	rp_init(&p, name, lineno, s, len, &r, err);
	w = peek(&p);
	if (!w.p)
		return 0;
	if (weq(&w, "set")) {
		next(&p);
		return setting(&p, rs);
	}
	if ((e = rule(&p, &rs->ids, rs->free_hint)))
		return e;
	if (p.has_id && dynpf_rule_ids_test(&rs->ids, r.id)) {
		size_t i;

		for (i = 0; i < rs->n && rs->rules[i].id != r.id; i++)
			;
		return failf(&p, p.id_col,
			     "duplicate rule id %u: the rule on line %lu has it", r.id,
			     i < rs->n ? rs->lines[i] : 0);
	}
	if (!p.has_id)
		rs->free_hint = r.id;
	if ((e = ruleset_add(rs, &r, lineno))) {
		snprintf(err->msg, sizeof(err->msg), "%s: out of memory", name);
		err->line = err->col = 0;
	}
	return e;
}

int dynpf_ruleset_parse(struct dynpf_ruleset *rs, const char *name, const char *text,
			size_t len, struct dynpf_rule_err *err)
{
	unsigned long lineno = 0;
	size_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len, n = end - pos;
		int e;

		/* CRLF line ends. */
		if (n && text[pos + n - 1] == '\r')
			n--;
		if ((e = parse_line(rs, name, ++lineno, text + pos, n, err)))
			return e;
		pos = end + 1;
	}
	return 0;
}

int dynpf_ruleset_load(struct dynpf_ruleset *rs, const char *path, struct dynpf_rule_err *err)
{
	bool std = !strcmp(path, "-");
	FILE *f = std ? stdin : fopen(path, "r");
	const char *name = std ? "<stdin>" : path;
	size_t len = 0, cap = 0;
	char *buf = NULL;
	int e = 0;

	err->line = err->col = 0;
	if (!f) {
		e = -errno;
		snprintf(err->msg, sizeof(err->msg), "%s: %s", path, strerror(errno));
		return e;
	}
	for (;;) {
		size_t n;

		if (len == cap) {
			char *nb;

			if (cap >= DYNPF_RULES_FILE_MAX) {
				snprintf(err->msg, sizeof(err->msg), "%s: larger than %u MiB", name,
					 DYNPF_RULES_FILE_MAX >> 20);
				e = -EFBIG;
				break;
			}
			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				snprintf(err->msg, sizeof(err->msg), "%s: out of memory", name);
				e = -ENOMEM;
				break;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n)
			continue;
		if (ferror(f)) {
			e = -EIO;
			snprintf(err->msg, sizeof(err->msg), "%s: %s", name, strerror(errno));
		}
		break;
	}
	if (!std)
		fclose(f);
	if (!e)
		e = dynpf_ruleset_parse(rs, name, buf, len, err);
	free(buf);
	return e;
}

/* The printer. */

struct out {
	char *buf;
	size_t len, pos;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	bool room = o->pos < o->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->pos : NULL, room ? o->len - o->pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += n;
}

/* An interface: its name when it has one that reads back as a name. */
static void put_if(struct out *o, __u32 ifindex)
{
	char name[IF_NAMESIZE];
	__u32 v;

	if (ifindex && if_indextoname(ifindex, name) && !num(name, strlen(name), 0xffffffff, &v) &&
	    !strpbrk(name, " \t#"))
		put(o, " %s", name);
	else
		put(o, " %u", ifindex);
}

static void put_range(struct out *o, __u32 lo, __u32 hi)
{
	if (lo == hi)
		put(o, " %u", lo);
	else
		put(o, " %u-%u", lo, hi);
}

static void put_named(struct out *o, const struct name_val *t, __u32 v)
{
	const char *n = name_of(t, v);

	if (n)
		put(o, " %s", n);
	else
		put(o, " %u", v);
}

static void put_flags(struct out *o, __u8 v)
{
	bool first = true;

	if (!v) {
		put(o, "0");
		return;
	}
	for (const struct name_val *f = tcp_flags; f->name; f++) {
		if (!(v & f->val))
			continue;
		put(o, "%s%s", first ? "" : ",", f->name);
		first = false;
	}
}

static void put_prefix(struct out *o, const char *w, int fam, const __u8 *a, __u8 plen)
{
	char s[INET6_ADDRSTRLEN];

	if (!inet_ntop(fam == 4 ? AF_INET : AF_INET6, a, s, sizeof(s)))
		snprintf(s, sizeof(s), "?");
	put(o, " %s %s", w, s);
	if (plen != (fam == 4 ? 32 : 128))
		put(o, "/%u", plen);
}

int dynpf_rule_format(const struct dynpf_rule *r, char *buf, size_t len)
{
	const struct dynpf_match *m = &r->m;
	struct out o = { buf, len, 0 };
	__u32 f = m->fields;
	const char *l4 = "th";

	if (len)
		buf[0] = 0;
	put(&o, "id %u prio %u", r->id, r->prio);
	if (m->stack)
		put(&o, " inner");
	if (f & DYNPF_M_IFINDEX) {
		put(&o, " iif");
		put_if(&o, m->ifindex);
	}
	if (f & DYNPF_M_ETH_SRC)
		put(&o, " ether saddr %02x:%02x:%02x:%02x:%02x:%02x", m->eth_src[0], m->eth_src[1],
		    m->eth_src[2], m->eth_src[3], m->eth_src[4], m->eth_src[5]);
	if (f & DYNPF_M_ETH_DST)
		put(&o, " ether daddr %02x:%02x:%02x:%02x:%02x:%02x", m->eth_dst[0], m->eth_dst[1],
		    m->eth_dst[2], m->eth_dst[3], m->eth_dst[4], m->eth_dst[5]);
	if (f & DYNPF_M_ETHERTYPE) {
		const char *n = name_of(ethertypes, m->ethertype);

		if (n)
			put(&o, " ether type %s", n);
		else
			put(&o, " ether type 0x%04x", m->ethertype);
	}
	if (f & DYNPF_M_VLAN)
		put(&o, " vlan id %u", m->vlan);
	if ((f & DYNPF_M_FAMILY) && !(f & (DYNPF_M_SRC | DYNPF_M_DST)))
		put(&o, " %s", m->family == 6 ? "ip6" : "ip");
	if (f & DYNPF_M_SRC)
		put_prefix(&o, m->family == 6 ? "ip6 saddr" : "ip saddr", m->family, m->src,
			   m->src_plen);
	if (f & DYNPF_M_DST)
		put_prefix(&o, m->family == 6 ? "ip6 daddr" : "ip daddr", m->family, m->dst,
			   m->dst_plen);
	/* tcp and udp ports and flags name the protocol themselves. */
	if (f & DYNPF_M_PROTO) {
		if (m->proto == 6 && (f & (DYNPF_M_SPORT | DYNPF_M_DPORT | DYNPF_M_TCP_FLAGS)))
			l4 = "tcp";
		else if (m->proto == 17 && (f & (DYNPF_M_SPORT | DYNPF_M_DPORT)))
			l4 = "udp";
		else {
			put(&o, " proto");
			put_named(&o, ipprotos, m->proto);
		}
	}
	if (f & DYNPF_M_FRAG) {
		put(&o, " frag");
		put_named(&o, frags, m->frag);
	}
	if (f & DYNPF_M_TTL) {
		put(&o, " ttl");
		put_range(&o, m->ttl_lo, m->ttl_hi);
	}
	if (f & DYNPF_M_DSCP)
		put(&o, " dscp %u", m->dscp);
	if (f & DYNPF_M_SPORT) {
		put(&o, " %s sport", l4);
		put_range(&o, m->sport_lo, m->sport_hi);
	}
	if (f & DYNPF_M_DPORT) {
		put(&o, " %s dport", l4);
		put_range(&o, m->dport_lo, m->dport_hi);
	}
	if (f & DYNPF_M_TCP_FLAGS) {
		put(&o, " tcp flags ");
		put_flags(&o, m->tcp_flags);
		if (m->tcp_flags != m->tcp_flags_mask) {
			put(&o, "/");
			put_flags(&o, m->tcp_flags_mask);
		}
	}
	if (f & DYNPF_M_ERROR) {
		put(&o, " error");
		put_named(&o, err_names, m->error);
	}
	for (unsigned int i = 0; i < m->ntlv && i < DYNPF_MATCH_TLVS; i++) {
		const struct dynpf_tlv_test *t = &m->tlv[i];
		const struct tlv_kind *k = tlv_kind_of(t->family);

		if (!k) {
			put(&o, " tlv%u", t->family);
			put(&o, " %u", t->type);
		} else if (!k->types) {
			put(&o, " %s 0x%04x:0x%02x", k->words, t->type >> 8, t->type & 0xff);
		} else {
			put(&o, " %s", k->words);
			put_named(&o, k->types, t->type);
		}
		if (t->neg)
			put(&o, " missing");
	}
	for (unsigned int i = 0; i < m->nval && i < DYNPF_MATCH_VALS; i++) {
		const struct dynpf_val_test *t = &m->val[i];

		if (t->field >= 1 && t->field < DYNPF_V_MAX)
			put(&o, " %s", val_kinds[t->field - 1].words);
		else
			put(&o, " val%u", t->field);
		put_range(&o, t->lo, t->hi);
	}
	switch (r->action) {
	case DYNPF_ACT_REDIRECT:
		put(&o, " redirect");
		put_if(&o, r->arg);
		break;
	case DYNPF_ACT_MARK:
		put(&o, " mark %u", r->arg);
		break;
	case DYNPF_ACT_SAMPLE:
		put(&o, " sample %u rate %u/s", r->sample_len, r->sample_rate);
		break;
	case DYNPF_ACT_LIMIT:
		put(&o, " limit %u/s burst %u", r->arg, r->burst);
		break;
	default:
		if (dynpf_action_name(r->action))
			put(&o, " %s", dynpf_action_name(r->action));
		else
			put(&o, " action%u", r->action);
	}
	return (int)o.pos;
}

int dynpf_setting_format(unsigned int key, __u64 value, char *buf, size_t len)
{
	const char *k = dynpf_setting_name(key), *v = dynpf_setting_value_name(key, value);

	if (k && v)
		return snprintf(buf, len, "set %s %s", k, v);
	return snprintf(buf, len, "set %u %llu", key, (unsigned long long)value);
}

const char *dynpf_action_name(unsigned int action)
{
	return name_of(actions, action);
}

const char *dynpf_setting_name(unsigned int key)
{
	return name_of(settings, key);
}

const char *dynpf_setting_value_name(unsigned int key, __u64 value)
{
	if (key == DYNPF_SET_DEFAULT_ACTION && (value == DYNPF_ACT_PASS || value == DYNPF_ACT_DROP))
		return dynpf_action_name(value);
	if (key == DYNPF_SET_PASS_ARP_ND && value <= 1)
		return value ? "on" : "off";
	return NULL;
}

const char *dynpf_val_name(unsigned int field)
{
	return name_of(vals, field);
}

const char *dynpf_frag_name(unsigned int frag)
{
	return name_of(frags, frag);
}

const char *dynpf_match_error_name(unsigned int err)
{
	return name_of(err_names, err);
}

const char *dynpf_tlv_test_family_name(unsigned int family)
{
	static const char *const names[] = {
#define DYNPF_X(name, val, json) [val] = json,
		DYNPF_TLV_FAMILIES(DYNPF_X)
#undef DYNPF_X
	};

	if (family == DYNPF_TT_EXT)
		return "ip6_exthdr";
	return family < ARRAY_SIZE(names) ? names[family] : NULL;
}

const char *dynpf_match_field_name(__u32 bit)
{
	static const struct name_val fields[] = {
		{ "ifindex", DYNPF_M_IFINDEX },	    { "eth_src", DYNPF_M_ETH_SRC },
		{ "eth_dst", DYNPF_M_ETH_DST },	    { "ethertype", DYNPF_M_ETHERTYPE },
		{ "vlan", DYNPF_M_VLAN },	    { "src", DYNPF_M_SRC },
		{ "dst", DYNPF_M_DST },		    { "proto", DYNPF_M_PROTO },
		{ "frag", DYNPF_M_FRAG },	    { "ttl", DYNPF_M_TTL },
		{ "dscp", DYNPF_M_DSCP },	    { "sport", DYNPF_M_SPORT },
		{ "dport", DYNPF_M_DPORT },	    { "tcp_flags", DYNPF_M_TCP_FLAGS },
		{ "error", DYNPF_M_ERROR },	    { "family", DYNPF_M_FAMILY },
		{},
	};

	return name_of(fields, bit);
}
