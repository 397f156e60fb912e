// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A pcapng writer for what libpcap 1.10 cannot write: a comment per packet
 * (dynpf events keeps the rule id there). One section, one interface,
 * nanosecond timestamps; blocks as in the pcapng specification
 * (draft-ietf-opsawg-pcapng): section header, interface description,
 * enhanced packet blocks, in the host's byte order (the magic says which).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcap/pcapng.h"

#define BT_SHB 0x0A0D0D0Au
#define BT_IDB 0x00000001u
#define BT_EPB 0x00000006u
#define OPT_END 0
#define OPT_COMMENT 1
#define OPT_SHB_USERAPPL 4
#define OPT_IF_NAME 2
#define OPT_IF_TSRESOL 9

struct blk {
	uint8_t *b;
	size_t n, cap;
};

static int put(struct blk *k, const void *p, size_t n)
{
	if (!n)
		return 0; /* an empty option value may be NULL: no memcpy of it */
	if (k->n + n > k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 256;
		uint8_t *nb;

		while (cap < k->n + n)
			cap *= 2;
		nb = realloc(k->b, cap);
		if (!nb)
			return -ENOMEM;
		k->b = nb;
		k->cap = cap;
	}
	memcpy(k->b + k->n, p, n);
	k->n += n;
	return 0;
}

static int put32(struct blk *k, uint32_t v)
{
	return put(k, &v, 4);
}

static int pad4(struct blk *k)
{
	static const uint8_t z[4];

	return put(k, z, (4 - k->n % 4) % 4);
}

/* An option: code, length, value, padding to 32 bits. */
static int put_opt(struct blk *k, uint16_t code, const void *v, uint16_t len)
{
	uint16_t h[2] = { code, len };

	return put(k, h, 4) ?: put(k, v, len) ?: pad4(k);
}

/* Start a block: type and a length filled in by end_block(). */
static int begin_block(struct blk *k, uint32_t type)
{
	k->n = 0;
	return put32(k, type) ?: put32(k, 0);
}

static int end_block(struct dynpf_pcapng *w, struct blk *k)
{
	uint32_t total = k->n + 4;
	int err = put32(k, total);

	if (err)
		return err;
	memcpy(k->b + 4, &total, 4);
	if (fwrite(k->b, 1, k->n, w->f) != k->n || fflush(w->f))
		return -errno ?: -EIO;
	return 0;
}

int dynpf_pcapng_open(struct dynpf_pcapng *w, const char *path, uint32_t linktype, uint32_t snaplen,
		      const char *app, const char *ifname)
{
	struct blk k = {};
	uint16_t ver[2] = { 1, 0 };
	uint16_t lt[2] = { (uint16_t)linktype, 0 };
	int64_t seclen = -1;
	uint8_t tsresol = 9; /* 10^-9 s */
	int err;

	memset(w, 0, sizeof(*w));
	w->f = fopen(path, "wb");
	if (!w->f)
		return -errno;
	err = begin_block(&k, BT_SHB) ?: put32(&k, 0x1A2B3C4D) ?: put(&k, ver, 4) ?:
	      put(&k, &seclen, 8) ?: put_opt(&k, OPT_SHB_USERAPPL, app, strlen(app)) ?:
	      put_opt(&k, OPT_END, NULL, 0) ?: end_block(w, &k);
	err = err ?: begin_block(&k, BT_IDB) ?: put(&k, lt, 4) ?: put32(&k, snaplen) ?:
	      put_opt(&k, OPT_IF_NAME, ifname, strlen(ifname)) ?:
	      put_opt(&k, OPT_IF_TSRESOL, &tsresol, 1) ?: put_opt(&k, OPT_END, NULL, 0) ?:
	      end_block(w, &k);
	free(k.b);
	if (err) {
		fclose(w->f);
		w->f = NULL;
	}
	return err;
}

int dynpf_pcapng_write(struct dynpf_pcapng *w, uint64_t ts_ns, const void *data, uint32_t caplen,
		       uint32_t len, const char *comment)
{
	struct blk k = {};
	int err;

	if (comment && strlen(comment) > 0xfff0)
		return -EINVAL;
	err = begin_block(&k, BT_EPB) ?: put32(&k, 0) ?: put32(&k, ts_ns >> 32) ?:
	      put32(&k, (uint32_t)ts_ns) ?: put32(&k, caplen) ?: put32(&k, len) ?:
	      put(&k, data, caplen) ?: pad4(&k);
	if (!err && comment && *comment)
		err = put_opt(&k, OPT_COMMENT, comment, strlen(comment))
			      ?: put_opt(&k, OPT_END, NULL, 0);
	err = err ?: end_block(w, &k);
	free(k.b);
	return err;
}

int dynpf_pcapng_close(struct dynpf_pcapng *w)
{
	int err = 0;

	if (w->f && fclose(w->f))
		err = -errno;
	w->f = NULL;
	return err;
}
