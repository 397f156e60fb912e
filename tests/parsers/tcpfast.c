// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The TCP options' fast path (parsers/tcp.h, dynpf_tcp_opts_fast()) and
 * their own walk (parsers/tlvstep.h, dynpf_tcp_opt_loop()) against the walk
 * of the other families they stand in for: every packet parsed by both builds of the
 * graph (tcpfast_ref.c has the walk alone) must give the same parse result,
 * byte for byte, with the TLV lists and without (DYNPF_SKIP_TLV_LIST, as
 * the BPF programs parse when no rule reads a list). The packets: every
 * frame of every capture, and frames built around the two layouts the fast
 * path takes, with random values, each of their fixed bytes changed,
 * random areas of the same lengths, cut short, beyond the first window,
 * and in a tunnel's inner stack. And the Geneve options' own walk
 * (dynpf_geneve_opt_loop()), on areas of every length, of options and of
 * random bytes, before and past the first window, and cut short.
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

/* The parse with the fast path (this unit is built with it). */
#define TCPFAST_PARSE tcpfast_parse_fast
#include "tcpfast_parse.h"

#include "parsers.h"

struct tally {
	unsigned long frames, fast20, fast12, differ;
	char first[160]; /* the first frame that differed, and where */
};

/* Is list l the TLVs of one of the two layouts, as the walk lists them? */
static int layout_of(const struct dynpf_tlv_list *l)
{
	static const __u8 syn_t[] = { 2, 4, 8, 1, 3 }, syn_l[] = { 4, 2, 10, 1, 3 };
	static const __u8 ts_t[] = { 1, 1, 8 }, ts_l[] = { 1, 1, 10 };
	int i;

	if (l->n == 5) {
		for (i = 0; i < 5; i++)
			if (l->ent[i].type != syn_t[i] || l->ent[i].len != syn_l[i])
				return 0;
		return 20;
	}
	if (l->n == 3) {
		for (i = 0; i < 3; i++)
			if (l->ent[i].type != ts_t[i] || l->ent[i].len != ts_l[i])
				return 0;
		return 12;
	}
	return 0;
}

/* Parse one frame both ways, with and without lists; what differs is tallied. */
static void compare(struct tally *t, const __u8 *data, __u32 len, const char *what, unsigned long n)
{
	static struct dynpf_pkt a, b;
	static const __u8 skips[] = { 0, DYNPF_SKIP_TLV_LIST };
	unsigned int i;
	size_t k;

	/* Exactly len bytes on the heap: a read past them is ASan's (SAN=1). */
	__u8 *copy = malloc(len ? len : 1);

	memcpy(copy, data, len);
	t->frames++;
	for (i = 0; i < sizeof(skips); i++) {
		tcpfast_parse_fast(copy, len, &a, skips[i]);
		tcpfast_parse_walk(copy, len, &b, skips[i]);
		if (!skips[i]) {
			int lay = layout_of(&b.tlv[DYNPF_TLV_TCP_OPT]);

			t->fast20 += lay == 20;
			t->fast12 += lay == 12;
		}
		if (!memcmp(&a, &b, sizeof(a)))
			continue;
		for (k = 0; k < sizeof(a) && ((__u8 *)&a)[k] == ((__u8 *)&b)[k]; k++)
			;
		if (!t->differ++)
			snprintf(t->first, sizeof(t->first),
				 "%s #%lu (%u bytes, skip %#x): byte %zu of struct dynpf_pkt", what,
				 n, len, skips[i], k);
	}
	free(copy);
}

static void check(const char *name, const struct tally *t)
{
	CHECK(name, !t->differ, "%lu of %lu frames parse differently, the first: %s", t->differ,
	      t->frames, t->first);
}

/* Every frame of every capture: the layouts as real stacks send them, and the rest. */
static void captures(void)
{
	char errbuf[PCAP_ERRBUF_SIZE], name[96];
	struct tally all = {};
	glob_t caps;
	size_t i;

	if (glob("pcap-tests/*.pcap", 0, NULL, &caps) || !caps.gl_pathc) {
		unit_fail("tcpfast captures", "no capture in pcap-tests/ (run from the top)");
		return;
	}
	for (i = 0; i < caps.gl_pathc; i++) {
		struct pcap_pkthdr *h;
		const __u8 *data;
		unsigned long n = 0;
		pcap_t *pc = pcap_open_offline(caps.gl_pathv[i], errbuf);

		if (!pc) {
			unit_fail("tcpfast captures", "%s: %s", caps.gl_pathv[i], errbuf);
			continue;
		}
		while (pcap_next_ex(pc, &h, &data) == 1)
			compare(&all, data, h->caplen, caps.gl_pathv[i], ++n);
		pcap_close(pc);
	}
	snprintf(name, sizeof(name), "tcpfast captures (%lu frames, layouts %lu + %lu)", all.frames,
		 all.fast20, all.fast12);
	check(name, &all);
	globfree(&caps);
}

/* The two layouts (parsers/tcp.h) and the bytes of each that are not values. */
static const __u8 syn20[20] = { 2, 4, 0x05, 0xb4, 4, 2, 8, 10, 1, 2, 3, 4, 5, 6, 7, 8, 1, 3, 3, 7 };
static const __u8 fixed20[] = { 0, 1, 4, 5, 6, 7, 16, 17, 18 };
static const __u8 ts12[12] = { 1, 1, 8, 10, 1, 2, 3, 4, 5, 6, 7, 8 };
static const __u8 fixed12[] = { 0, 1, 2, 3 };

/* Where a frame carries the option area: how it is wrapped. */
enum wrap {
	W_IPV4,
	W_IPV6,
	W_IPV6_FAR,
	W_VXLAN,
	W_NWRAPS
};

/*
 * Ethernet and IPv6 with a destination options header of 240 bytes (a PadN
 * covering it) before next header nh and its payload bytes: what follows
 * lies past the first window.
 */
static void ipv6_far(struct frame *f, unsigned int nh, unsigned int payload)
{
	const unsigned int n = 8 * 30;

	eth(f, 0x86dd);
	ipv6(f, 60, n + payload);
	put8(f, nh);
	put8(f, n / 8 - 1);
	for (unsigned int i = 2; i < n; i++)
		put8(f, i == 2 ? 1 : 0);
	f->b[f->n - n + 3] = n - 4;
}

/* A frame whose TCP header carries the n-byte option area o, wrapped as w. */
static void build(struct frame *f, enum wrap w, const __u8 *o, unsigned int n, unsigned int flags)
{
	unsigned int l4 = 20 + n;

	switch (w) {
	case W_IPV4:
		eth(f, 0x0800);
		ipv4(f, 5, 0, 0, 6, l4);
		break;
	case W_IPV6:
		eth(f, 0x86dd);
		ipv6(f, 6, l4);
		break;
	case W_IPV6_FAR:
		ipv6_far(f, 6, l4);
		break;
	case W_VXLAN:
		eth(f, 0x0800);
		ipv4(f, 5, 0, 0, 17, 8 + 8 + 14 + 20 + l4);
		put16(f, 5000);
		put16(f, 4789);
		put16(f, 8 + 8 + 14 + 20 + l4);
		put16(f, 0);
		put32(f, 0x08000000);
		put32(f, 0x00002a00);
		put(f, "\2\0\0\0\0\4\2\0\0\0\0\3\x08\x00", 14);
		ipv4(f, 5, 0, 0, 6, l4);
		break;
	default:
		break;
	}
	tcp(f, 5 + n / 4, flags, o, n);
}

static unsigned int rnd(void)
{
	static unsigned int x = 0x2545f491;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x;
}

/*
 * n bytes of options as stacks and attackers send them: NOPs, end markers
 * followed by padding, the kinds the parse decodes (MSS, window scale, SACK
 * permitted, SACK blocks, timestamps) at their lengths or not, other kinds
 * below and above 64, and now and then a length of 0 or 1 or one running
 * past the area. For the walk of any area (parsers/tlvstep.h,
 * dynpf_tcp_opt_loop()) against the walk of the other families.
 */
static void opt_area(__u8 *o, unsigned int n)
{
	static const __u8 kinds[] = { 0, 1, 1, 2, 3, 4, 5, 8, 30, 63, 64, 130, 253 };
	static const __u8 lens[] = { 2, 2, 4, 3, 2, 10, 10, 4, 3, 2, 6, 8, 4 };
	unsigned int pos = 0, k, len;

	while (pos < n) {
		k = rnd() % sizeof(kinds);
		o[pos] = kinds[k];
		if (kinds[k] <= 1) {
			pos++;
			continue;
		}
		len = lens[k];
		if (kinds[k] == 5)
			len = 2 + 8 * (rnd() % 5);
		switch (rnd() % 16) {
		case 0:
			len = rnd() % 2;
			break;
		case 1:
			len = n - pos + 1 + rnd() % 4;
			break;
		case 2:
			len = rnd() & 0xff;
			break;
		}
		if (pos + 1 < n)
			o[pos + 1] = len;
		for (k = pos + 2; k < n && k < pos + len; k++)
			o[k] = rnd();
		pos += len > 1 ? len : 2;
	}
}

/* Frames built around the layouts, every wrap, lists and none. */
static void built(void)
{
	struct tally layouts = {}, changed = {}, random_areas = {}, cut = {}, areas = {};
	__u8 o[40];
	struct frame f;
	unsigned int w, i, k, j;

	for (w = 0; w < W_NWRAPS; w++) {
		for (i = 0; i < 200; i++) {
			/* The layouts with random values: the fast path's own frames. */
			memcpy(o, syn20, 20);
			for (k = 0; k < 20; k++)
				if (!memchr(fixed20, k, sizeof(fixed20)))
					o[k] = rnd();
			build(&f, w, o, 20, i & 1 ? 0x12 : 0x02);
			compare(&layouts, f.b, f.n, "layout 20", i);
			memcpy(o, ts12, 12);
			for (k = 4; k < 12; k++)
				o[k] = rnd();
			build(&f, w, o, 12, 0x10);
			compare(&layouts, f.b, f.n, "layout 12", i);

			/* One fixed byte changed: walked, and the same result. */
			memcpy(o, syn20, 20);
			j = fixed20[i % sizeof(fixed20)];
			o[j] = i < 100 ? o[j] ^ (1u << (i % 8)) : rnd();
			build(&f, w, o, 20, 0x02);
			compare(&changed, f.b, f.n, "layout 20 changed", i);
			memcpy(o, ts12, 12);
			j = fixed12[i % sizeof(fixed12)];
			o[j] = i < 100 ? o[j] ^ (1u << (i % 8)) : rnd();
			build(&f, w, o, 12, 0x10);
			compare(&changed, f.b, f.n, "layout 12 changed", i);

			/* Random areas of the two lengths, and of a few others. */
			for (k = 0; k < 20; k++)
				o[k] = i & 2 ? rnd() % 6 : rnd();
			build(&f, w, o, 20, 0x02);
			compare(&random_areas, f.b, f.n, "random 20", i);
			build(&f, w, o, 12, 0x02);
			compare(&random_areas, f.b, f.n, "random 12", i);
			build(&f, w, o, 4 * (1 + i % 5), 0x02);
			compare(&random_areas, f.b, f.n, "random 4-20", i);

			/* Areas of options, of every length a TCP header holds. */
			for (k = 4; k <= 40; k += 4) {
				opt_area(o, k);
				build(&f, w, o, k, i & 1 ? 0x10 : 0x02);
				compare(&areas, f.b, f.n, "options", i);
			}
		}
		/* Every cut of a layout's frame: the area, or its header, short. */
		build(&f, w, syn20, 20, 0x02);
		for (k = 0; k <= f.n; k++)
			compare(&cut, f.b, k, "layout 20 cut", k);
		build(&f, w, ts12, 12, 0x10);
		for (k = 0; k <= f.n; k++)
			compare(&cut, f.b, k, "layout 12 cut", k);
	}
	check("tcpfast layouts, random values", &layouts);
	CHECK("tcpfast layouts taken",
	      layouts.fast20 == W_NWRAPS * 200 && layouts.fast12 == W_NWRAPS * 200,
	      "the walk listed %lu and %lu of the layouts, not %u each", layouts.fast20,
	      layouts.fast12, W_NWRAPS * 200);
	check("tcpfast layouts, a fixed byte changed", &changed);
	check("tcpfast random areas", &random_areas);
	check("tcpfast option areas of 4 to 40 bytes", &areas);
	check("tcpfast layouts cut short", &cut);
}

/*
 * A frame with a Geneve header (UDP port 6081) whose n-byte option area is
 * o, then an inner Ethernet/IPv4/TCP frame; over IPv4, or over IPv6 behind
 * a destination options header that puts the area past the first window.
 */
static void build_geneve(struct frame *f, int far, const __u8 *o, unsigned int n)
{
	unsigned int ulen = 8 + 8 + n + 14 + 20 + 24;

	if (far) {
		ipv6_far(f, 17, ulen);
	} else {
		eth(f, 0x0800);
		ipv4(f, 5, 0, 0, 17, ulen);
	}
	put16(f, 5000);
	put16(f, 6081);
	put16(f, ulen);
	put16(f, 0);
	put8(f, n / 4); /* version 0, the options' length in words */
	put8(f, 0);
	put16(f, 0x6558);     /* Ethernet */
	put32(f, 0x00002a00); /* VNI 42 */
	put(f, o, n);
	inner_eth_ipv4_tcp(f);
}

/*
 * n bytes of Geneve options as senders and attackers make them: classes
 * and types common and not, data of 0 to 12 bytes mostly, now and then the
 * reserved bits set, a length running past the area or up to its 31 words,
 * or the last option cut short by the area's end.
 */
static void geneve_area(__u8 *o, unsigned int n)
{
	static const unsigned int classes[] = { 0x0102, 0xff01, 0x0000, 0xffff, 0x0101 };
	unsigned int pos = 0, k, w;

	while (pos < n) {
		unsigned int c = rnd() % 4 ? classes[rnd() % 5] : rnd() & 0xffff;

		w = rnd() % 4;
		switch (rnd() % 16) {
		case 0:
			w = rnd() & 0x1f;
			break;
		case 1:
			w = (n - pos) / 4 + rnd() % 3;
			break;
		}
		const __u8 hdr[4] = { c >> 8, c & 0xff, rnd() & 0xff, w & 0x1f };

		for (k = 0; k < 4 && pos + k < n; k++)
			o[pos + k] = hdr[k];
		if (pos + 3 < n && !(rnd() % 8))
			o[pos + 3] |= rnd() & 0xe0;
		for (k = pos + 4; k < n && k < pos + 4 + 4 * w; k++)
			o[k] = rnd();
		pos += 4 + 4 * w;
	}
}

/* The Geneve options' own walk against the other families' loop. */
static void geneve(void)
{
	struct tally areas = {}, random_bytes = {}, cut = {};
	__u8 o[252];
	struct frame f;
	unsigned int far, n, i, k;

	for (far = 0; far < 2; far++) {
		for (n = 0; n <= sizeof(o); n += 4) {
			for (i = 0; i < 20; i++) {
				geneve_area(o, n);
				build_geneve(&f, far, o, n);
				compare(&areas, f.b, f.n, "geneve options", n);
				for (k = 0; k < n; k++)
					o[k] = i & 1 ? rnd() % 8 : rnd();
				build_geneve(&f, far, o, n);
				compare(&random_bytes, f.b, f.n, "geneve random bytes", n);
			}
		}
		/* Every cut of a frame with eight options of 8 bytes. */
		for (k = 0; k < 64; k += 8) {
			o[k] = 0xff;
			o[k + 1] = 0x01;
			o[k + 2] = k;
			o[k + 3] = 1;
			memset(o + k + 4, k, 4);
		}
		build_geneve(&f, far, o, 64);
		for (k = 0; k <= f.n; k++)
			compare(&cut, f.b, k, "geneve cut", k);
	}
	check("tcpfast geneve option areas of 0 to 252 bytes", &areas);
	check("tcpfast geneve areas of random bytes", &random_bytes);
	check("tcpfast geneve frames cut short", &cut);
}

void test_tcp_opts_fast(void)
{
	captures();
	built();
	geneve();
}
