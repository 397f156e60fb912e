// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* build/test_ctrl: the packets, rules and transactions its tests share (ctrl.h). */
#include <stdio.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dynpf.skel.h"
#include "match.h"

#include "ctrl.h"

/* ---- packets ------------------------------------------------------------- */

/* eth / IPv4 / TCP or UDP, ports, TCP flags; src 198.18.0.S, dst 198.19.0.D */
void mk4(struct pkt *p, uint8_t proto, uint8_t s, uint8_t d, uint16_t sport, uint16_t dport,
	 uint8_t flags)
{
	uint8_t *b = p->b;
	uint32_t l4 = proto == 6 ? 20 : 8;

	memset(p, 0, sizeof(*p));
	memcpy(b, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01\x08\x00", 14);
	b[14] = 0x45;
	b[16] = 0, b[17] = 20 + l4;
	b[22] = 64;
	b[23] = proto;
	b[26] = 198, b[27] = 18, b[28] = 0, b[29] = s;
	b[30] = 198, b[31] = 19, b[32] = 0, b[33] = d;
	b[34] = sport >> 8, b[35] = sport & 0xff;
	b[36] = dport >> 8, b[37] = dport & 0xff;
	if (proto == 6) {
		b[46] = 0x50;
		b[47] = flags;
	} else {
		b[38] = 0, b[39] = 8;
	}
	p->n = 34 + l4;
}

/* Run through the XDP program: the verdict, and the parse result. */
int run(const struct pkt *p, struct dynpf_verdict *v, struct dynpf_pkt *parsed)
{
	static struct dynpf_pkt tmp;
	char why[128];

	if (dynpf_progs_run(&pr, DYNPF_HOOK_XDP, p->b, p->n, parsed ? parsed : &tmp, why,
			    sizeof(why)) != DYNPF_RUN_OK) {
		fprintf(stderr, "test run: %s\n", why);
		return -1;
	}
	*v = *pr.last_v;
	return 0;
}

/* A test run of prog on p: its return code, or TEST_RUN_FAILED; for TC, the skb after it. */
int test_run(struct bpf_program *prog, const struct pkt *p, struct __sk_buff *skb)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = p->b, .data_size_in = p->n);

	if (skb) {
		memset(skb, 0, sizeof(*skb));
		o.ctx_in = skb;
		o.ctx_size_in = sizeof(*skb);
		o.ctx_out = skb;
		o.ctx_size_out = sizeof(*skb);
	}
	return bpf_prog_test_run_opts(bpf_program__fd(prog), &o) ? TEST_RUN_FAILED : (int)o.retval;
}

/* eth / IPv6 / TCP, UDP or ICMPv6 echo; src 2001:db8::S, dst 2001:db8::1:D */
void mk6(struct pkt *p, uint8_t proto, uint8_t s, uint8_t d, uint16_t sport, uint16_t dport)
{
	uint8_t *b = p->b;
	uint32_t l4 = proto == 6 ? 20 : 8;

	memset(p, 0, sizeof(*p));
	memcpy(b, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01\x86\xdd", 14);
	b[14] = 0x60;
	b[18] = 0, b[19] = l4;
	b[20] = proto;
	b[21] = 64;
	b[22] = 0x20, b[23] = 0x01, b[24] = 0x0d, b[25] = 0xb8, b[37] = s;
	b[38] = 0x20, b[39] = 0x01, b[40] = 0x0d, b[41] = 0xb8, b[51] = 1, b[53] = d;
	if (proto == 58) {
		b[54] = 128; /* echo request: not neighbour discovery */
	} else {
		b[54] = sport >> 8, b[55] = sport & 0xff;
		b[56] = dport >> 8, b[57] = dport & 0xff;
		if (proto == 6)
			b[66] = 0x50, b[67] = 0x02;
		else
			b[58] = 0, b[59] = 8;
	}
	p->n = 54 + l4;
}

/* IPv4 in IPv4: mk4's packet behind an outer IPv4 header from 198.18.1.S. */
void mk_ipip(struct pkt *p, uint8_t s, const struct pkt *inner)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->b, inner->b, 14);
	p->b[14] = 0x45;
	p->b[16] = (inner->n + 6) >> 8, p->b[17] = (inner->n + 6) & 0xff;
	p->b[22] = 64;
	p->b[23] = 4;
	p->b[26] = 198, p->b[27] = 18, p->b[28] = 1, p->b[29] = s;
	p->b[30] = 198, p->b[31] = 19, p->b[32] = 1, p->b[33] = 1;
	memcpy(p->b + 34, inner->b + 14, inner->n - 14);
	p->n = inner->n + 20;
}

/* ---- rules --------------------------------------------------------------- */

struct dynpf_rule rule(uint32_t id, uint32_t prio, uint8_t action)
{
	struct dynpf_rule r;

	memset(&r, 0, sizeof(r));
	r.id = id;
	r.prio = prio;
	r.action = action;
	return r;
}

void m_dport(struct dynpf_rule *r, uint16_t lo, uint16_t hi)
{
	r->m.fields |= DYNPF_M_DPORT;
	r->m.dport_lo = lo;
	r->m.dport_hi = hi;
}

void m_data(struct dynpf_rule *r, uint8_t where, uint32_t type, uint16_t off, uint8_t len)
{
	struct dynpf_data_test *t = &r->m.data[r->m.ndata++ % DYNPF_MATCH_DATA];

	r->m.fields |= DYNPF_M_DATA;
	t->where = where;
	t->type = type;
	t->off = off;
	t->len = len;
	memset(t->mask, 0xff, len < DYNPF_DATA_MAX ? len : DYNPF_DATA_MAX);
}

void m_proto(struct dynpf_rule *r, uint8_t proto)
{
	r->m.fields |= DYNPF_M_PROTO;
	r->m.proto = proto;
}

/* The source prefix of plen bits of the n-byte address a, of family 4 or 6. */
static void m_src(struct dynpf_rule *r, uint8_t family, const uint8_t *a, int n, uint8_t plen)
{
	uint8_t mask[16];

	dynpf_prefix_mask(mask, plen);
	r->m.fields |= DYNPF_M_FAMILY | DYNPF_M_SRC;
	r->m.family = family;
	r->m.src_plen = plen;
	for (int i = 0; i < n; i++)
		r->m.src[i] = a[i] & mask[i];
}

void m_src4(struct dynpf_rule *r, uint8_t last, uint8_t plen)
{
	const uint8_t a[4] = { 198, 18, 0, last };

	m_src(r, 4, a, sizeof(a), plen);
}

void m_src6(struct dynpf_rule *r, uint8_t last, uint8_t plen)
{
	const uint8_t a[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = last };

	m_src(r, 6, a, sizeof(a), plen);
}

/* Send, flush, and return the ack of the message (a copy). */
struct dynpf_ack_commit ack_of(uint64_t seq)
{
	const struct dynpf_ack_commit *a = dynpf_ctrl_ack(&c, seq);
	struct dynpf_ack_commit z = { .a.err = 9999 };

	return a ? *a : z;
}

/* A whole transaction of adds; the commit's ack. */
struct dynpf_ack_commit txn(const struct dynpf_rule *rules, int n)
{
	uint64_t s;

	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	for (int i = 0; i < n; i++)
		dynpf_ctrl_add(&c, &rules[i], NULL);
	dynpf_ctrl_commit(&c, &s);
	dynpf_ctrl_flush(&c);
	return ack_of(s);
}

uint64_t rule_packets(uint32_t id)
{
	int ncpu = libbpf_num_possible_cpus();
	struct dynpf_rule_stats v[ncpu];
	uint64_t sum = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(pr.skel->maps.dynpf_rule_stats), &id, v))
		return (uint64_t)-1;
	for (int i = 0; i < ncpu; i++)
		sum += v[i].packets;
	return sum;
}
