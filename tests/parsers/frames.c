// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Frames built by hand for the parsers' unit tests, and the checks on a parse. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "parsers.h"

void put(struct frame *f, const void *p, unsigned int n)
{
	if (n)
		memcpy(f->b + f->n, p, n);
	f->n += n;
}

void put8(struct frame *f, unsigned int v)
{
	f->b[f->n++] = v;
}

void put16(struct frame *f, unsigned int v)
{
	put8(f, v >> 8);
	put8(f, v);
}

void put32(struct frame *f, unsigned int v)
{
	put16(f, v >> 16);
	put16(f, v);
}

void eth(struct frame *f, unsigned int type)
{
	static const unsigned char mac[12] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 };

	f->n = 0;
	put(f, mac, 12);
	put16(f, type);
}

/* IPv4 header; tot_len 0 means "compute from payload_len". */
void ipv4(struct frame *f, unsigned int ihl, unsigned int tot_len, unsigned int frag,
	  unsigned int proto, unsigned int payload_len)
{
	unsigned int i;

	put8(f, 0x40 | ihl);
	put8(f, 0);
	put16(f, tot_len ? tot_len : ihl * 4 + payload_len);
	put16(f, 0x1234);
	put16(f, frag);
	put8(f, 64);
	put8(f, proto);
	put16(f, 0);
	put32(f, 0xc6120001); /* 198.18.0.1 */
	put32(f, 0xc6120002);
	for (i = 20; i < ihl * 4; i++)
		put8(f, 1); /* NOP options */
}

void ipv6(struct frame *f, unsigned int nh, unsigned int plen)
{
	static const unsigned char a[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

	put32(f, 0x60000000 | (0x2e << 20) | 0x12345);
	put16(f, plen);
	put8(f, nh);
	put8(f, 63);
	put(f, a, 16);
	put(f, a, 16);
}

void tcp(struct frame *f, unsigned int doff, unsigned int flags, const unsigned char *opt,
	 unsigned int optlen)
{
	put16(f, 40000);
	put16(f, 80);
	put32(f, 1000);
	put32(f, 2000);
	put8(f, doff << 4);
	put8(f, flags);
	put16(f, 65535);
	put16(f, 0);
	put16(f, 0);
	put(f, opt, optlen);
}

void udp(struct frame *f, unsigned int ulen)
{
	put16(f, 5353);
	put16(f, 53);
	put16(f, ulen);
	put16(f, 0);
}

struct dynpf_pkt P;

void parse(const struct frame *f)
{
	unsigned char *copy = malloc(f->n ? f->n : 1);

	memcpy(copy, f->b, f->n);
	dynpf_parse_native(copy, f->n, &P, NULL);
	free(copy);
}

/* The walk ended with err at proto; nlayers layers before it. */
void expect_err(const char *name, int err, int proto, int nlayers)
{
	CHECK_EQ(name, P.err, err);
	CHECK_EQ(name, P.err_proto, proto);
	CHECK_EQ(name, P.nlayers, nlayers);
}

void expect_layers(const char *name, int n, ...)
{
	va_list ap;

	CHECK_EQ(name, P.nlayers, n);
	va_start(ap, n);
	for (int i = 0; i < n && i < P.nlayers; i++) {
		int want = va_arg(ap, int);

		CHECK_EQ(name, P.layers[i].proto, want);
	}
	va_end(ap);
}

const unsigned char syn_opts[20] = { 2, 4, 0x05, 0xb4, 4, 2, 8, 10, 0, 0,
				     0, 1, 0,    0,    0, 0, 1, 3,  3, 7 };

void ext(struct frame *f, unsigned int nh, const unsigned char *body, unsigned int len)
{
	put8(f, nh);
	put8(f, len / 8 - 1);
	put(f, body, len - 2);
}

void inner_eth_ipv4_tcp(struct frame *f)
{
	static const unsigned char mac[12] = { 2, 0, 0, 0, 0, 4, 2, 0, 0, 0, 0, 3 };
	static const unsigned char mss[4] = { 2, 4, 0x05, 0x78 };

	put(f, mac, 12);
	put16(f, 0x0800);
	ipv4(f, 5, 0, 0, 6, 24);
	tcp(f, 6, 0x02, mss, 4);
}
