// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Captures are read whole with libpcap: pcap and pcapng alike. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <pcap/pcap.h>

#include "pcap/capture.h"
#include "lib/log.h"

int dynpf_capture_load(const char *path, struct dynpf_capture *cap)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct pcap_pkthdr *hdr;
	const u_char *bytes;
	struct stat st;
	size_t cap_alloc = 0;
	pcap_t *pc;
	int r, err = 0;

	memset(cap, 0, sizeof(*cap));
	if (stat(path, &st)) {
		err = -errno;
		p_err("%s: %s", path, strerror(errno));
		return err;
	}
	pc = pcap_open_offline(path, errbuf);
	if (!pc) {
		p_err("%s: not a pcap or pcapng capture (%s)", path, errbuf);
		return -EINVAL;
	}
	if (pcap_datalink(pc) != DLT_EN10MB) {
		p_err("%s: link type %s is not supported: dynpf parses Ethernet (EN10MB) captures",
		      path, pcap_datalink_val_to_name(pcap_datalink(pc)) ?: "unknown");
		err = -EINVAL;
		goto close;
	}
	while ((r = pcap_next_ex(pc, &hdr, &bytes)) == 1) {
		struct dynpf_frame *f;

		if (cap->n == cap_alloc) {
			size_t want = cap_alloc ? cap_alloc * 2 : 256;
			void *nf = realloc(cap->frames, want * sizeof(*cap->frames));

			if (!nf) {
				err = -ENOMEM;
				goto fail;
			}
			cap->frames = nf;
			cap_alloc = want;
		}
		f = &cap->frames[cap->n];
		f->len = hdr->caplen;
		f->wirelen = hdr->len;
		f->data = malloc(hdr->caplen ? hdr->caplen : 1);
		if (!f->data) {
			err = -ENOMEM;
			goto fail;
		}
		memcpy(f->data, bytes, hdr->caplen);
		cap->n++;
	}
	if (r == PCAP_ERROR) {
		p_err("%s: packet %zu: %s", path, cap->n + 1, pcap_geterr(pc));
		err = -EINVAL;
		goto fail;
	}
	goto close;
fail:
	if (err == -ENOMEM)
		p_err("%s: out of memory reading packet %zu", path, cap->n + 1);
	dynpf_capture_free(cap);
close:
	pcap_close(pc);
	return err;
}

void dynpf_capture_free(struct dynpf_capture *cap)
{
	for (size_t i = 0; i < cap->n; i++)
		free(cap->frames[i].data);
	free(cap->frames);
	memset(cap, 0, sizeof(*cap));
}
