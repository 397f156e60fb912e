// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf events: the packets sample rules send, read from the running
 * daemon's pinned event ring, parsed; -w also writes them to a pcap, or to
 * a pcapng with a comment per packet.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>
#define PCAP_DONT_INCLUDE_PCAP_BPF_H /* its struct bpf_insn is the kernel's too */
#include <pcap/pcap.h>

#include "cli/cmds.h"
#include "decltab.h"
#include "dynpf/ctrl.h"
#include "lib/log.h"
#include "pcap/pcapng.h"
#include "replay/pktfmt.h"

struct events_ctx {
	pcap_dumper_t *dump;
	struct dynpf_pcapng ng; /* -w FILE.pcapng: with a comment per packet */
	long left;              /* events still wanted, < 0: no limit */
	long seen;
	bool failed;
};

/*
 * The declared protocols in force (the pinned dynpf_protos and
 * dynpf_state), to name their layers and TLVs; none if they cannot be read
 * (they are named proto<ID> then). Those of when events starts.
 */
static void events_protos(const char *pin_dir)
{
	static struct dynpf_proto_tab tab[2];
	struct dynpf_state st;
	char path[PATH_MAX];
	__u32 zero = 0, one = 1;
	int sfd, pfd;

	snprintf(path, sizeof(path), "%s/dynpf_state", pin_dir);
	sfd = bpf_obj_get(path);
	snprintf(path, sizeof(path), "%s/dynpf_protos", pin_dir);
	pfd = bpf_obj_get(path);
	if (sfd >= 0 && pfd >= 0 && !bpf_map_lookup_elem(sfd, &zero, &st) &&
	    !bpf_map_lookup_elem(pfd, &zero, &tab[0]) && !bpf_map_lookup_elem(pfd, &one, &tab[1]))
		dynpf_pktfmt_protos(&tab[dynpf_proto_tab_cur(&tab[0], &tab[1], st.gen)]);
	if (sfd >= 0)
		close(sfd);
	if (pfd >= 0)
		close(pfd);
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct events_ctx *e = ctx;
	const struct dynpf_sample *h = data;
	const struct dynpf_pkt *p = (const void *)(h + 1);
	const uint8_t *bytes = (const uint8_t *)(p + 1);
	json_object *rec;

	if (size < sizeof(*h) + sizeof(*p) || size < sizeof(*h) + sizeof(*p) + h->cap_len ||
	    !e->left)
		return 0;
	rec = dynpf_pkt_to_json(p);
	json_object_object_add(rec, "rule", json_object_new_int64(h->rule));
	json_object_object_add(rec, "ts_ns", json_object_new_int64(h->ts_ns));
	json_object_object_add(rec, "cap_len", json_object_new_int64(h->cap_len));
	if (dynpf_json) {
		printf("%s\n", json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN));
	} else {
		printf("rule %-6u %5u bytes  ", h->rule, h->pkt_len);
		dynpf_pkt_print_text(stdout, rec);
		printf("\n");
	}
	fflush(stdout);
	json_object_put(rec);
	if (e->dump) {
		struct pcap_pkthdr ph = { .caplen = h->cap_len, .len = h->pkt_len };
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ph.ts.tv_sec = ts.tv_sec;
		ph.ts.tv_usec = ts.tv_nsec / 1000;
		pcap_dump((u_char *)e->dump, &ph, bytes);
		pcap_dump_flush(e->dump);
	}
	if (e->ng.f) {
		struct timespec ts;
		char note[160];
		int err;

		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(note, sizeof(note), "dynpf: rule %u, %s on ifindex %u, parse %s", h->rule,
			 dynpf_hook_name(h->hook), h->ifindex, dynpf_err_name(p->err));
		err = dynpf_pcapng_write(&e->ng, (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec,
					 bytes, h->cap_len, h->pkt_len, note);
		if (err) {
			p_err("writing the pcapng file: %s", strerror(-err));
			e->left = 0;
			e->failed = true;
		}
	}
	e->seen++;
	if (e->left > 0)
		e->left--;
	return 0;
}

static bool is_pcapng(const char *path)
{
	size_t n = strlen(path);

	return n >= 7 && !strcasecmp(path + n - 7, ".pcapng");
}

int cmd_events(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "write", required_argument, NULL, 'w' },
		{ "count", required_argument, NULL, 'c' },
		{ "pin-dir", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	const char *pin_dir = "/sys/fs/bpf/dynpf", *out = NULL;
	struct events_ctx e = { .left = -1 };
	struct ring_buffer *rb = NULL;
	pcap_t *dead = NULL;
	char path[PATH_MAX];
	int c, fd, ret = DYNPF_EXIT_USAGE;

	while ((c = getopt_long(argc, argv, "w:c:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			out = optarg;
			break;
		case 'c':
			e.left = dynpf_arg_count("events", optarg);
			if (e.left < 0)
				return DYNPF_EXIT_USAGE;
			break;
		case 'p':
			pin_dir = optarg;
			break;
		case 'j':
			dynpf_json = true;
			break;
		case 'h':
			printf("Usage: dynpf events [-w FILE.pcap|FILE.pcapng] [-c COUNT] [--pin-dir "
			       "DIR]\n\n"
			       "Streams the packets sample rules send (docs/rules.md), with their parse "
			       "result\nand the rule's id, from the running daemon's event ring (pinned "
			       "under DIR,\ndefault /sys/fs/bpf/dynpf). -w also writes them to a file "
			       "(the first bytes\nthe rule samples, the original length kept): pcap, "
			       "or pcapng when FILE ends in\n.pcapng, with a comment per packet "
			       "naming the rule, the hook, the interface\nand the parse result "
			       "(tshark -e frame.comment). Ctrl-C stops.\n");
			return DYNPF_EXIT_OK;
		default:
			return dynpf_try_help("events");
		}
	}
	events_protos(pin_dir);
	snprintf(path, sizeof(path), "%s/dynpf_events", pin_dir);
	fd = bpf_obj_get(path);
	if (fd < 0) {
		p_err("cannot open the event ring %s: %s (is `dynpf daemon` running?)", path,
		      strerror(errno));
		return DYNPF_EXIT_USAGE;
	}
	if (out && is_pcapng(out)) {
		int err = dynpf_pcapng_open(&e.ng, out, 1 /* Ethernet */, DYNPF_SAMPLE_MAX,
					    "dynpf events", "dynpf");

		if (err) {
			p_err("%s: %s", out, strerror(-err));
			goto out;
		}
	} else if (out) {
		dead = pcap_open_dead(1 /* DLT_EN10MB */, 65535);
		e.dump = dead ? pcap_dump_open(dead, out) : NULL;
		if (!e.dump) {
			p_err("%s: %s", out, dead ? pcap_geterr(dead) : "cannot open");
			goto out;
		}
	}
	rb = ring_buffer__new(fd, on_event, &e, NULL);
	if (!rb) {
		p_err("cannot read the event ring: %s", strerror(errno));
		goto out;
	}
	dynpf_stop_on(SIGINT);
	dynpf_stop_on(SIGTERM);
	while (!dynpf_stop && e.left) {
		int n = ring_buffer__poll(rb, 200);

		if (n < 0 && n != -EINTR) {
			p_err("reading the event ring: %s", strerror(-n));
			goto out;
		}
	}
	ret = e.failed ? DYNPF_EXIT_USAGE : DYNPF_EXIT_OK;
out:
	ring_buffer__free(rb);
	if (e.ng.f && dynpf_pcapng_close(&e.ng)) {
		p_err("%s: %s", out, strerror(errno));
		ret = DYNPF_EXIT_USAGE;
	}
	if (e.dump)
		pcap_dump_close(e.dump);
	if (dead)
		pcap_close(dead);
	close(fd);
	return ret;
}
