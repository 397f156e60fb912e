/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_PCAPNG_H
#define DYNPF_PCAPNG_H

#include <stdint.h>
#include <stdio.h>

/* A pcapng file being written: one section, one interface (id 0). */
struct dynpf_pcapng {
	FILE *f;
};

/*
 * Create path with a section header (app as its shb_userappl) and one
 * interface of linktype (1: Ethernet) named ifname, timestamps in ns.
 * 0 or -errno.
 */
int dynpf_pcapng_open(struct dynpf_pcapng *w, const char *path, uint32_t linktype, uint32_t snaplen,
		      const char *app, const char *ifname);

/* One packet: caplen bytes of a len-byte packet, with a comment (or NULL). */
int dynpf_pcapng_write(struct dynpf_pcapng *w, uint64_t ts_ns, const void *data, uint32_t caplen,
		       uint32_t len, const char *comment);

int dynpf_pcapng_close(struct dynpf_pcapng *w);

#endif
