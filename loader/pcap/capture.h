/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_CAPTURE_H
#define DYNPF_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

struct dynpf_frame {
	uint8_t *data;
	uint32_t len;     /* bytes captured */
	uint32_t wirelen; /* bytes on the wire */
};

struct dynpf_capture {
	struct dynpf_frame *frames;
	size_t n;
};

/* Read a whole pcap or pcapng file (Ethernet link type). 0 or -errno. */
int dynpf_capture_load(const char *path, struct dynpf_capture *cap);
void dynpf_capture_free(struct dynpf_capture *cap);

#endif
