// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The match keywords of the rule language (docs/rules.md, "Matches"): each
 * from its first word to its last, into the rule's struct dynpf_match, with
 * the duplicates and the family and protocol conflicts between them.
 */
#include <stdio.h>
#include <string.h>

#include "lang/lang.h"
#include "match.h"

static int slot_take(struct rp *p, enum slot s, const char *what, size_t col)
{
	if (p->slot_col[s]) {
		if (!strcmp(what, p->slot_what[s]))
			return rp_fail(p, col, "duplicate match: '%s' is already at column %zu", what,
				     p->slot_col[s]);
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
		return rp_fail(p, col,
			     "family conflict: '%s' matches IPv%u, '%s' at column %zu matches IPv%u",
			     what, fam, p->fam_what, p->fam_col, m->family);
	if ((m->fields & DYNPF_M_ETHERTYPE) && ethertype_family(m->ethertype) &&
	    ethertype_family(m->ethertype) != fam)
		return rp_fail(p, col,
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
	size_t col = p->slot_col[SLOT_PROTO] > p->slot_col[s] ? p->slot_col[SLOT_PROTO]
							       : p->slot_col[s];
	char a[16];

	if (!(m->fields & DYNPF_M_PROTO) || !(m->fields & (DYNPF_M_SPORT | DYNPF_M_DPORT)) ||
	    m->proto == 6 || m->proto == 17)
		return 0;
	proto_text(m->proto, a, sizeof(a));
	return rp_fail(p, col,
		     "protocol conflict: '%s' at column %zu needs tcp or udp, '%s' at column %zu matches %s",
		     p->slot_what[s], p->slot_col[s], p->proto_what, p->proto_col, a);
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
	    (e = proto_set(p, 6, "tcp flags", col)) || (e = rp_need(p, FLAGS_WHAT)))
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
	if ((e = rp_need_range(p, "a port or range (0-65535)", 0xffff, &lo, &hi)))
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

	if (rp_is(p, "sport"))
		which = 0;
	else if (rp_is(p, "dport"))
		which = 1;
	else
		return rp_expected(p, kind == 0 ? "sport, dport, flags, option, mss or wscale"
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

	if ((e = rp_need(p, k->what)))
		return e;
	if (!k->types) {
		const char *colon = memchr(p->cur.p, ':', p->cur.len);
		__u32 cls, type;

		if (!colon || !lang_num(p->cur.p, colon - p->cur.p, 0xffff, &cls) ||
		    !lang_num(colon + 1, p->cur.len - (colon + 1 - p->cur.p), 0xff, &type))
			return rp_expected(p, k->what);
		t.type = cls << 8 | type;
	} else if ((nv = nv_lookup(k->types, &p->cur))) {
		t.type = nv->val;
	} else if (!word_num(&p->cur, 0xff, &t.type) || (k->only_named && !nv_name(k->types, t.type))) {
		return rp_expected(p, k->what);
	}
	w = rp_peek(p);
	if (word_eq(&w, "missing")) {
		rp_next(p);
		t.neg = 1;
	}
	for (unsigned int i = 0; i < m->ntlv; i++)
		if (m->tlv[i].family == t.family && m->tlv[i].type == t.type)
			return rp_fail(p, col,
				     "duplicate match: this '%s' is already tested at column %zu",
				     k->words, p->tlv_col[i]);
	if (m->ntlv >= DYNPF_MATCH_TLVS)
		return rp_fail(p, col,
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
	if ((e = rp_need_range(p, k->what, dynpf_val_max(k->field), &t.lo, &t.hi)))
		return e;
	if (m->nval >= DYNPF_MATCH_VALS)
		return rp_fail(p, col,
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
	struct word w = rp_peek(p);
	int e;

	if (word_eq(&w, "saddr") || word_eq(&w, "daddr")) {
		bool src = word_eq(&w, "saddr");
		const char *what = src ? (fam == 4 ? "ip saddr" : "ip6 saddr")
				       : (fam == 4 ? "ip daddr" : "ip6 daddr");

		rp_next(p);
		if ((e = slot_take(p, src ? SLOT_SRC : SLOT_DST, what, col)) ||
		    (e = family_set(p, fam, what, col)))
			return e;
		if ((e = rp_need_prefix(p, fam, fam == 4 ? "an IPv4 address or prefix"
						      : "an IPv6 address or prefix",
				     src ? m->src : m->dst, src ? &m->src_plen : &m->dst_plen)))
			return e;
		m->fields |= src ? DYNPF_M_SRC : DYNPF_M_DST;
		stack_match(p, what, col);
		return 0;
	}
	if (fam == 4 && word_eq(&w, "option")) {
		rp_next(p);
		return tlv_match(p, &lang_tlv_kinds[1], col);
	}
	if (fam == 6 && word_eq(&w, "exthdr")) {
		rp_next(p);
		return tlv_match(p, &lang_tlv_kinds[2], col);
	}
	if (fam == 6 && (word_eq(&w, "hbh") || word_eq(&w, "dst"))) {
		const struct tlv_kind *k = &lang_tlv_kinds[word_eq(&w, "hbh") ? 3 : 4];

		rp_next(p);
		if ((e = rp_need(p, "option")))
			return e;
		if (!rp_is(p, "option"))
			return rp_expected(p, "option");
		return tlv_match(p, k, col);
	}
	/* The family alone: `ip6 ip` is a conflict, `ip ip` a duplicate. */
	if ((e = family_set(p, fam, fw, col)) || (e = slot_take(p, SLOT_FAMILY, fw, col)))
		return e;
	stack_match(p, fw, col);
	return 0;
}

int rp_match(struct rp *p)
{
	struct dynpf_match *m = &p->r->m;
	size_t col = p->cur.col;
	const struct name_val *nv;
	__u32 lo, hi, v;
	int e;

	if (rp_is(p, "iif")) {
		if ((e = slot_take(p, SLOT_IIF, "iif", col)) ||
		    (e = rp_need_ifindex(p, "an interface name or index", &m->ifindex)))
			return e;
		m->fields |= DYNPF_M_IFINDEX;
		return 0;
	}
	if (rp_is(p, "ether")) {
		if ((e = rp_need(p, "saddr, daddr or type")))
			return e;
		if (rp_is(p, "saddr") || rp_is(p, "daddr")) {
			bool src = rp_is(p, "saddr");
			const char *what = src ? "ether saddr" : "ether daddr";

			if ((e = slot_take(p, src ? SLOT_ETH_SRC : SLOT_ETH_DST, what, col)) ||
			    (e = rp_need(p, "a MAC address (02:00:00:00:00:01)")))
				return e;
			if (!word_mac(&p->cur, src ? m->eth_src : m->eth_dst))
				return rp_expected(p, "a MAC address (02:00:00:00:00:01)");
			m->fields |= src ? DYNPF_M_ETH_SRC : DYNPF_M_ETH_DST;
			stack_match(p, what, col);
			return 0;
		}
		if (!rp_is(p, "type"))
			return rp_expected(p, "saddr, daddr or type");
		if ((e = slot_take(p, SLOT_ETHERTYPE, "ether type", col)) ||
		    (e = rp_need(p, "an ethertype (ip ip6 arp mpls or 0-0xffff)")))
			return e;
		if ((nv = nv_lookup(lang_ethertypes, &p->cur)))
			v = nv->val;
		else if (!word_num(&p->cur, 0xffff, &v))
			return rp_expected(p, "an ethertype (ip ip6 arp mpls or 0-0xffff)");
		if (m->family && ethertype_family(v) && ethertype_family(v) != m->family)
			return rp_fail(p, col,
				     "family conflict: 'ether type' matches IPv%u, '%s' at column %zu matches IPv%u",
				     ethertype_family(v), p->fam_what, p->fam_col, m->family);
		m->ethertype = v;
		m->fields |= DYNPF_M_ETHERTYPE;
		stack_match(p, "ether type", col);
		return 0;
	}
	if (rp_is(p, "vlan")) {
		if ((e = rp_need(p, "id")))
			return e;
		if (!rp_is(p, "id"))
			return rp_expected(p, "id");
		if ((e = slot_take(p, SLOT_VLAN, "vlan id", col)) ||
		    (e = rp_need(p, "a VLAN id (0-4095)")))
			return e;
		if (!word_num(&p->cur, 4095, &v))
			return rp_expected(p, "a VLAN id (0-4095)");
		m->vlan = v;
		m->fields |= DYNPF_M_VLAN;
		stack_match(p, "vlan id", col);
		return 0;
	}
	if (rp_is(p, "ip"))
		return ip_match(p, 4, col);
	if (rp_is(p, "ip6"))
		return ip_match(p, 6, col);
	if (rp_is(p, "proto")) {
		if ((e = slot_take(p, SLOT_PROTO, "proto", col)) ||
		    (e = rp_need(p, PROTO_WHAT)))
			return e;
		if ((nv = nv_lookup(lang_ipprotos, &p->cur)))
			v = nv->val;
		else if (!word_num(&p->cur, 0xff, &v))
			return rp_expected(p, PROTO_WHAT);
		if ((e = proto_set(p, v, "proto", col)) || (e = th_proto_check(p)))
			return e;
		stack_match(p, "proto", col);
		return 0;
	}
	if (rp_is(p, "frag")) {
		if ((e = slot_take(p, SLOT_FRAG, "frag", col)) ||
		    (e = rp_need(p, "none, any, first or later")))
			return e;
		if (!(nv = nv_lookup(lang_frags, &p->cur)))
			return rp_expected(p, "none, any, first or later");
		m->frag = nv->val;
		m->fields |= DYNPF_M_FRAG;
		stack_match(p, "frag", col);
		return 0;
	}
	if (rp_is(p, "ttl") || rp_is(p, "hoplimit")) {
		const char *what = rp_is(p, "ttl") ? "ttl" : "hoplimit";

		if ((e = slot_take(p, SLOT_TTL, what, col)) ||
		    (e = rp_need_range(p, "a TTL or range (0-255)", 0xff, &lo, &hi)))
			return e;
		m->ttl_lo = lo;
		m->ttl_hi = hi;
		m->fields |= DYNPF_M_TTL;
		stack_match(p, what, col);
		return 0;
	}
	if (rp_is(p, "dscp")) {
		if ((e = slot_take(p, SLOT_DSCP, "dscp", col)) || (e = rp_need(p, "a DSCP (0-63)")))
			return e;
		if (!word_num(&p->cur, 63, &v))
			return rp_expected(p, "a DSCP (0-63)");
		m->dscp = v;
		m->fields |= DYNPF_M_DSCP;
		stack_match(p, "dscp", col);
		return 0;
	}
	if (rp_is(p, "tcp")) {
		if ((e = rp_need(p, "sport, dport, flags, option, mss or wscale")))
			return e;
		if (rp_is(p, "flags"))
			return tcp_flags_match(p, col);
		if (rp_is(p, "option"))
			return tlv_match(p, &lang_tlv_kinds[0], col);
		if (rp_is(p, "mss"))
			return val_match(p, &lang_val_kinds[DYNPF_V_MSS - 1], col);
		if (rp_is(p, "wscale"))
			return val_match(p, &lang_val_kinds[DYNPF_V_WSCALE - 1], col);
		return ports(p, 0, col);
	}
	if (rp_is(p, "udp") || rp_is(p, "th")) {
		int kind = rp_is(p, "udp") ? 1 : 2;

		if ((e = rp_need(p, "sport or dport")))
			return e;
		return ports(p, kind, col);
	}
	if (rp_is(p, "error")) {
		if ((e = slot_take(p, SLOT_ERROR, "error", col)) ||
		    (e = rp_need(p, ERROR_WHAT)))
			return e;
		if (!(nv = nv_lookup(lang_err_names, &p->cur)))
			return rp_expected(p, ERROR_WHAT);
		m->error = nv->val;
		m->fields |= DYNPF_M_ERROR;
		return 0;
	}
	if (rp_is(p, "srh")) {
		if ((e = rp_need(p, "tlv or segleft")))
			return e;
		if (rp_is(p, "tlv"))
			return tlv_match(p, &lang_tlv_kinds[5], col);
		if (rp_is(p, "segleft"))
			return val_match(p, &lang_val_kinds[DYNPF_V_SEGLEFT - 1], col);
		return rp_expected(p, "tlv or segleft");
	}
	if (rp_is(p, "geneve")) {
		if ((e = rp_need(p, "option")))
			return e;
		if (!rp_is(p, "option"))
			return rp_expected(p, "option");
		return tlv_match(p, &lang_tlv_kinds[6], col);
	}
	if (rp_is(p, "vni"))
		return val_match(p, &lang_val_kinds[DYNPF_V_VNI - 1], col);
	if (rp_is(p, "gtpu") || rp_is(p, "mpls") || rp_is(p, "gre")) {
		const char *sub = rp_is(p, "gtpu") ? "teid" : rp_is(p, "mpls") ? "label" : "key";
		int field = rp_is(p, "gtpu") ? DYNPF_V_TEID : rp_is(p, "mpls") ? DYNPF_V_MPLS_LABEL
									: DYNPF_V_GRE_KEY;

		if ((e = rp_need(p, sub)))
			return e;
		if (!rp_is(p, sub))
			return rp_expected(p, sub);
		return val_match(p, &lang_val_kinds[field - 1], col);
	}
	if (rp_is(p, "inner")) {
		if ((e = slot_take(p, SLOT_INNER, "inner", col)))
			return e;
		if (p->stack_col)
			return rp_fail(p, col,
				     "'inner' after '%s' at column %zu: a rule's header matches all refer to one stack, so they all come after 'inner'",
				     p->stack_what, p->stack_col);
		m->stack = 1;
		return 0;
	}
	if (rp_is(p, "id") || rp_is(p, "prio"))
		return rp_expected_why(p, "a match or an action", "'id', then 'prio', come first");
	return rp_expected(p, "a match or an action");
}
