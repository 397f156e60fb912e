/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_CAPTURE_H
#define DYNPF_CAPTURE_H

#include <stdbool.h>
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
	/*
	 * Where the reading stopped before the end of the file, if it did:
	 * record n + 1 is cut short (the file ends inside it) or cannot be
	 * read. frames holds the n whole records before it; this says which
	 * record, at which byte of the file, and why. Empty: the file ended
	 * after a whole record.
	 */
	char bad_end[512];
};

/*
 * Read a pcap or pcapng file (Ethernet link type), every whole record of
 * it. -errno, said with p_err, when nothing of it can be used (a missing
 * file, not a capture, another link type, a file cut short inside its file
 * header or pcapng section header). 0 otherwise, even when a record is cut
 * short or cannot be read: the records before it are in cap, and the
 * caller reports cap->bad_end after using them (dynpf_capture_report_end).
 */
int dynpf_capture_load(const char *path, struct dynpf_capture *cap);

/*
 * After the records were used: say (p_err) where the capture stopped short
 * of its end, if it did. true if it did (the caller exits 2).
 */
bool dynpf_capture_report_end(const struct dynpf_capture *cap);

void dynpf_capture_free(struct dynpf_capture *cap);

#endif
