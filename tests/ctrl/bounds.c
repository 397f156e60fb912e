// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A rule on the inner stack never matches an inner packet that lies outside
 * the datagram carrying it (issue 17): the UDP length and GTP-U's Length end
 * what the tunnel may carry, through the real control channel and the real
 * XDP and TC programs. Each case has its control: the same packet with the
 * lengths right is dropped by the same rule.
 */
#include <string.h>

#include <bpf/libbpf.h>

#include "dynpf.skel.h"

#include "ctrl.h"

/* eth / IPv4 / UDP to dport with length ulen (0: the whole rest), then hdr. */
static void tunnel4(struct pkt *p, uint16_t dport, uint16_t ulen, const uint8_t *hdr, uint32_t hlen,
		    const struct pkt *inner, uint32_t inner_off)
{
	struct pkt outer;
	uint32_t n;

	mk4(&outer, 17, 1, 1, 5000, dport, 0);
	memcpy(p, &outer, sizeof(outer));
	memcpy(p->b + 42, hdr, hlen);
	memcpy(p->b + 42 + hlen, inner->b + inner_off, inner->n - inner_off);
	n = 42 + hlen + inner->n - inner_off;
	p->n = n;
	p->b[16] = (n - 14) >> 8, p->b[17] = (n - 14) & 0xff;
	ulen = ulen ? ulen : n - 34;
	p->b[38] = ulen >> 8, p->b[39] = ulen & 0xff;
}

/* Dropped by rule 30 on XDP and TC, or neither (and a parse error). */
static void expect(const char *name, const struct pkt *p, int dropped)
{
	struct dynpf_verdict v;
	struct dynpf_pkt parsed;

	if (run(p, &v, &parsed)) {
		CHECK(name, 0, "the test run failed");
		return;
	}
	CHECK_EQ(name, v.action, dropped ? DYNPF_ACT_DROP : DYNPF_ACT_PASS);
	CHECK_EQ(name, v.rule, dropped ? 30 : 0);
	if (!dropped)
		CHECK_EQ(name, parsed.err, DYNPF_E_TRUNCATED);
	CHECK_EQ(name, test_run(dynpf_progs_prog(&pr, DYNPF_HOOK_TC_INGRESS), p, NULL),
		 dropped ? 2 /* TC_ACT_SHOT */ : -1 /* TC_ACT_UNSPEC */);
	ring_buffer__consume(pr.rb); /* its trace record, not the next run's */
}

void test_inner_bounds(void)
{
	static const uint8_t vxlan[8] = { 0x08, 0, 0, 0, 0, 0, 0x2a, 0 };
	uint8_t gtpu[8] = { 0x30, 255, 0, 0, 0, 0, 0, 77 };
	struct dynpf_rule r = rule(30, 1, DYNPF_ACT_DROP);
	struct pkt in, p;

	if (reopen_hooks(64, CTRL_HOOKS_XDP_TC)) {
		CHECK("inner bounds: reopen", 0, "cannot load the programs");
		return;
	}
	r.m.stack = 1;
	m_proto(&r, 6);
	m_dport(&r, 80, 80);
	CHECK_EQ("inner bounds: commit", txn(&r, 1).a.err, 0);
	mk4(&in, 6, 2, 2, 1000, 80, 0x02);
	/* VXLAN: the control; the datagram ending inside the inner Ethernet
	 * header (12 bytes after the UDP header); UDP length 8. */
	tunnel4(&p, 4789, 0, vxlan, 8, &in, 0);
	expect("inner bounds: vxlan, whole", &p, 1);
	tunnel4(&p, 4789, 20, vxlan, 8, &in, 0);
	expect("inner bounds: vxlan, udp length 20", &p, 0);
	tunnel4(&p, 4789, 8, vxlan, 8, &in, 0);
	expect("inner bounds: vxlan, udp length 8", &p, 0);
	/* GTP-U G-PDU: the inner IPv4/TCP within its Length; then Length 4. */
	gtpu[3] = in.n - 14;
	tunnel4(&p, 2152, 0, gtpu, 8, &in, 14);
	expect("inner bounds: gtpu, whole", &p, 1);
	gtpu[3] = 4;
	tunnel4(&p, 2152, 0, gtpu, 8, &in, 14);
	expect("inner bounds: gtpu, length 4", &p, 0);
	/* The UDP length cutting the inner TCP header short, within GTP-U's. */
	gtpu[3] = in.n - 14;
	tunnel4(&p, 2152, 8 + 8 + 20 + 10, gtpu, 8, &in, 14);
	expect("inner bounds: gtpu, udp length inside tcp", &p, 0);
}
