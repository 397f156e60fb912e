// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Captures are read whole with libpcap: pcap and pcapng alike. Where
 * libpcap stops before the end of the file, the file is read again around
 * that place to say where it stopped: a record cut short (the file ends
 * inside it), or one that cannot be read; the records before it are kept.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "pcap/capture.h"
#include "lib/log.h"

#define PCAP_FILE_HDR 24       /* pcap: the file header, then records */
#define PCAP_REC_HDR 16        /* a record's header: ts_sec, ts_usec, caplen, len */
#define PCAP_CAPLEN_MAX 262144 /* libpcap's MAXIMUM_SNAPLEN */
#define NG_SHB 0x0A0D0D0Au
#define NG_BOM 0x1A2B3C4Du /* the section header's byte-order magic */
#define NG_PB 0x00000002u  /* the obsolete packet block */
#define NG_SPB 0x00000003u
#define NG_EPB 0x00000006u

/* The capture file, read at any offset without moving libpcap's position. */
struct src {
	int fd;
	uint64_t size;
};

static size_t src_read(const struct src *s, uint64_t off, void *buf, size_t n)
{
	ssize_t r = off < s->size ? pread(s->fd, buf, n, off) : 0;

	return r > 0 ? (size_t)r : 0;
}

static uint32_t get32(const uint8_t *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

enum cap_fmt {
	FMT_OTHER,
	FMT_PREFIX, /* 1 to 3 bytes, the start of a capture's magic */
	FMT_PCAP,
	FMT_PCAP_SWAPPED, /* written in the other byte order */
	FMT_PCAPNG,
};

/* What the first got (up to 4) bytes of a file say it is. */
static enum cap_fmt file_format(const uint8_t *m, size_t got)
{
	static const uint32_t magics[] = { 0xa1b2c3d4u, 0xa1b23c4du, 0xd4c3b2a1u, 0x4d3cb2a1u,
					   NG_SHB };
	uint32_t v;

	if (got < 4) {
		for (size_t i = 0; got && i < sizeof(magics) / sizeof(magics[0]); i++)
			if (!memcmp(m, &magics[i], got))
				return FMT_PREFIX;
		return FMT_OTHER;
	}
	v = get32(m, false);
	if (v == NG_SHB)
		return FMT_PCAPNG;
	if (v == magics[0] || v == magics[1])
		return FMT_PCAP;
	if (v == magics[2] || v == magics[3])
		return FMT_PCAP_SWAPPED;
	return FMT_OTHER;
}

/* "a pcapng BLOCK", named after its type (-1: the file ends inside the type). */
static const char *ng_block_name(int64_t type, char *buf, size_t len)
{
	static const char *const names[] = {
		[1] = "interface description block",
		[4] = "name resolution block",
		[5] = "interface statistics block",
		[10] = "decryption secrets block",
	};

	if (type < 0)
		return "a pcapng block";
	if (type == NG_SHB)
		return "a pcapng section header block";
	if (type < (int64_t)(sizeof(names) / sizeof(names[0])) && names[type])
		snprintf(buf, len, "a pcapng %s", names[type]);
	else
		snprintf(buf, len, "a pcapng block of type 0x%08llx", (unsigned long long)type);
	return buf;
}

/* A pcapng block that stops the reading: where, its type (-1: unknown), whether cut. */
struct ng_stop {
	uint64_t at;
	int64_t type;
	bool cut;
};

/*
 * pcapng: the first block at or after byte from that the file does not
 * hold whole, or that has no block's length, walked from the start of the
 * file (each section in the byte order its header says). false: none.
 */
static bool ng_find_stop(const struct src *s, uint64_t from, struct ng_stop *st)
{
	uint64_t off = 0;
	bool swap = false;

	while (off < s->size) {
		uint8_t h[12];
		size_t got = src_read(s, off, h, sizeof(h));
		uint32_t type = got >= 4 ? get32(h, swap) : 0, len = 0, bom;
		bool cut = got < 8, bad = false;

		if (got >= 4 && type == NG_SHB) {
			cut = got < 12;
			bom = got >= 12 ? get32(h + 8, false) : NG_BOM;
			swap = bom != NG_BOM;
			bad = swap && __builtin_bswap32(bom) != NG_BOM;
		}
		if (!cut && !bad) {
			len = get32(h + 4, swap);
			bad = len < 12 || len % 4;
			cut = !bad && len > s->size - off;
		}
		if (cut || bad) {
			if (off < from)
				return false; /* before where libpcap stopped: not understood */
			st->at = off;
			st->type = got >= 4 ? (int64_t)type : -1;
			st->cut = cut;
			return true;
		}
		off += len;
	}
	return false;
}

/*
 * libpcap stopped before the end of the file: record cap->n + 1, at byte
 * at (the first block libpcap read for it, in pcapng), is cut short or
 * cannot be read (why: libpcap's words). Say which in cap->bad_end.
 */
static void note_bad_end(struct dynpf_capture *cap, const char *path, pcap_t *pc, uint64_t at,
			 const char *why)
{
	struct src s = { .fd = fileno(pcap_file(pc)) };
	struct ng_stop ng = { .at = at, .type = -1 };
	char after[64] = "before the first record", name[64];
	size_t rec = cap->n + 1;
	enum cap_fmt fmt;
	struct stat st;
	uint8_t m[4];

	if (s.fd < 0 || fstat(s.fd, &st) || !S_ISREG(st.st_mode))
		goto unread;
	s.size = st.st_size;
	fmt = file_format(m, src_read(&s, 0, m, sizeof(m)));
	if (fmt == FMT_PCAP || fmt == FMT_PCAP_SWAPPED) {
		uint8_t h[PCAP_REC_HDR];
		uint32_t caplen = 0;

		if (src_read(&s, at, h, sizeof(h)) == sizeof(h))
			caplen = get32(h + 8, fmt == FMT_PCAP_SWAPPED);
		/* A length libpcap refuses (above its 256 KiB) is not a cut. */
		ng.cut = at + sizeof(h) > s.size ||
			 (caplen <= PCAP_CAPLEN_MAX && caplen > s.size - at - sizeof(h));
	} else if (fmt == FMT_PCAPNG) {
		ng_find_stop(&s, at, &ng);
	}
	if (!ng.cut)
		goto unread;
	if (ng.type < 0 || ng.type == NG_EPB || ng.type == NG_SPB || ng.type == NG_PB) {
		snprintf(cap->bad_end, sizeof(cap->bad_end),
			 "%s: record %zu is cut short: it starts at byte %llu, the file ends at "
			 "byte %llu",
			 path, rec, (unsigned long long)ng.at, (unsigned long long)s.size);
		return;
	}
	if (cap->n)
		snprintf(after, sizeof(after), "after record %zu", cap->n);
	snprintf(cap->bad_end, sizeof(cap->bad_end),
		 "%s: %s %s is cut short: it starts at byte %llu, the file ends at byte %llu", path,
		 ng_block_name(ng.type, name, sizeof(name)), after, (unsigned long long)ng.at,
		 (unsigned long long)s.size);
	return;
unread:
	snprintf(cap->bad_end, sizeof(cap->bad_end),
		 "%s: record %zu, at byte %llu, cannot be read: %s", path, rec,
		 (unsigned long long)ng.at, why);
}

/*
 * libpcap could not open path as a capture (errbuf: its words). A file cut
 * short before its first record says so; anything else is not a capture.
 */
static void say_not_opened(const char *path, const char *errbuf)
{
	struct src s = { .fd = open(path, O_RDONLY | O_CLOEXEC) };
	struct ng_stop ng;
	enum cap_fmt fmt = FMT_OTHER;
	uint32_t shb_len = 0;
	char name[64];
	struct stat st;
	uint8_t h[12];
	size_t got = 0;
	bool reg = false;

	if (s.fd >= 0 && !fstat(s.fd, &st) && S_ISREG(st.st_mode)) {
		reg = true;
		s.size = st.st_size;
		got = src_read(&s, 0, h, sizeof(h));
		fmt = file_format(h, got);
	}
	if (fmt == FMT_PCAPNG && got == sizeof(h)) {
		uint32_t bom = get32(h + 8, false);

		if (bom == NG_BOM || __builtin_bswap32(bom) == NG_BOM)
			shb_len = get32(h + 4, bom != NG_BOM);
		else
			fmt = FMT_OTHER; /* not a section header: libpcap says why */
	}
	if (fmt == FMT_PREFIX)
		p_err("%s: cut short inside its file header: the file has %llu bytes", path,
		      (unsigned long long)s.size);
	else if ((fmt == FMT_PCAP || fmt == FMT_PCAP_SWAPPED) && s.size < PCAP_FILE_HDR)
		p_err("%s: cut short inside its pcap file header: the file has %llu bytes, the "
		      "header %d",
		      path, (unsigned long long)s.size, PCAP_FILE_HDR);
	else if (fmt == FMT_PCAPNG && got < sizeof(h))
		p_err("%s: cut short inside its pcapng section header: the file has %llu bytes",
		      path, (unsigned long long)s.size);
	else if (fmt == FMT_PCAPNG && shb_len > s.size)
		p_err("%s: cut short inside its pcapng section header: the file has %llu bytes, the "
		      "header %u",
		      path, (unsigned long long)s.size, shb_len);
	else if (fmt == FMT_PCAPNG && ng_find_stop(&s, 0, &ng) && ng.cut)
		p_err("%s: cut short before its first record: %s starts at byte %llu, the file ends "
		      "at byte %llu",
		      path, ng_block_name(ng.type, name, sizeof(name)), (unsigned long long)ng.at,
		      (unsigned long long)s.size);
	else if (reg && s.size == 0)
		p_err("%s: an empty file, not a pcap or pcapng capture", path);
	else
		p_err("%s: not a pcap or pcapng capture (%s)", path, errbuf);
	if (s.fd >= 0)
		close(s.fd);
}

int dynpf_capture_load(const char *path, struct dynpf_capture *cap)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct pcap_pkthdr *hdr;
	const u_char *bytes;
	struct stat st;
	size_t cap_alloc = 0;
	off_t at;
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
		say_not_opened(path, errbuf);
		return -EINVAL;
	}
	if (pcap_datalink(pc) != DLT_EN10MB) {
		p_err("%s: link type %s is not supported: dynpf parses Ethernet (EN10MB) captures",
		      path, pcap_datalink_val_to_name(pcap_datalink(pc)) ?: "unknown");
		err = -EINVAL;
		goto close;
	}
	/* at: where the next record starts (the next block, in pcapng). */
	while ((at = ftello(pcap_file(pc))), (r = pcap_next_ex(pc, &hdr, &bytes)) == 1) {
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
	if (r == PCAP_ERROR)
		note_bad_end(cap, path, pc, at < 0 ? 0 : (uint64_t)at, pcap_geterr(pc));
	goto close;
fail:
	if (err == -ENOMEM)
		p_err("%s: out of memory reading packet %zu", path, cap->n + 1);
	dynpf_capture_free(cap);
close:
	pcap_close(pc);
	return err;
}

bool dynpf_capture_report_end(const struct dynpf_capture *cap)
{
	if (!cap->bad_end[0])
		return false;
	fflush(stdout); /* after the output, on a pipe too */
	p_err("%s", cap->bad_end);
	return true;
}

void dynpf_capture_free(struct dynpf_capture *cap)
{
	for (size_t i = 0; i < cap->n; i++)
		free(cap->frames[i].data);
	free(cap->frames);
	memset(cap, 0, sizeof(*cap));
}
