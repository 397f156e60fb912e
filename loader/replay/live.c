// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * replay --iface / --testbed: dynpf attached to a real interface (XDP native,
 * XDP generic or TC ingress), every frame of the capture sent to it from its
 * peer with an AF_PACKET socket, one at a time, and the parse result each
 * produces taken from the trace ring. report.c walks the capture and checks
 * the records exactly as it checks test runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "attach/attach.h"
#include "dynpf/pkt.h" /* before the skeleton: it uses struct dynpf_parse_cfg */
#include "dynpf.skel.h"
#include "pcap/capture.h"
#include "replay/expect.h"
#include "replay/live.h"
#include "lib/log.h"
#include "native.h"
#include "replay/pktfmt.h"
#include "lib/progs.h"
#include "testbed/testbed.h"
#include "lib/util.h"

#define VLAN_HLEN 4
#define VLAN_ETH_HLEN 18

static struct live {
	bool started;
	enum dynpf_live_mode mode;
	struct dynpf_testbed tb;
	bool have_tb;
	int rx_ns, tx_ns; /* -1: the current namespace */
	int rx_ifindex, tx_ifindex;
	char rx_name[IF_NAMESIZE], tx_name[IF_NAMESIZE];
	unsigned int mtu, tx_mtu; /* of the rx and the tx interface */
	unsigned int timeout_ms;
	int xdp_prog;          /* DYNPF_HOOK_XDP, _XDP_FRAGS, or 0: as the MTU requires */
	struct dynpf_progs pr; /* the attached instance: its own ring and counters */
	int hook;              /* DYNPF_HOOK_* the attached program counts under */
	const char *prog_name;
	struct dynpf_rx rx;       /* dynpf on the rx end (attach.h) */
	struct dynpf_quiet quiet; /* drops the tx end's own traffic (attach.h) */
	int sock;                 /* AF_PACKET, in the tx namespace */
	struct dynpf_parse_cfg cfg;
	/* the frame being waited for */
	bool armed, got;
	uint32_t want_len;
	bool untag_ok; /* TC: it may come without its outer VLAN tag */
	struct dynpf_pkt *rec;
	/* every record received, for the counters check */
	unsigned long records, strays, untagged, bytes;
	unsigned long err[DYNPF_E_MAX];
} live = { .rx_ns = -1, .tx_ns = -1, .sock = -1, .rx = DYNPF_RX_INIT, .quiet = DYNPF_QUIET_INIT };

const char *dynpf_live_hook_name(enum dynpf_live_mode mode)
{
	switch (mode) {
	case DYNPF_LIVE_XDP:
		return "xdp-live";
	case DYNPF_LIVE_XDP_GENERIC:
		return "xdp-generic";
	case DYNPF_LIVE_TC:
		return "tc-live";
	}
	return "?";
}

/* ------------------------------------------------------------ signals */

static void live_teardown(void);

/* A signal came: tear down, then die of it as if it had not been caught. */
static void die_if_signalled(void)
{
	int sig = dynpf_tb_signalled();

	if (!sig)
		return;
	p_err("%s: tearing down%s", strsignal(sig), live.have_tb ? " the test bed" : "");
	live_teardown();
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);
}

/* ------------------------------------------------------------ attaching */

static int choose_hook(void)
{
	/* xdp.frags as soon as a frame can be longer than one page's buff. */
	if (live.mode == DYNPF_LIVE_TC)
		return DYNPF_HOOK_TC_INGRESS;
	if (live.xdp_prog)
		return live.xdp_prog;
	return live.mtu + ETH_HLEN > DYNPF_XDP_TEST_LINEAR_MAX ? DYNPF_HOOK_XDP_FRAGS
							       : DYNPF_HOOK_XDP;
}

/*
 * XDP: the program as an XDP link, detached when its last fd closes, so no
 * program stays on the interface if dynpf dies, even of SIGKILL. TC: a tcx
 * link, or clsact (attach.h).
 */
static int attach_rx(void)
{
	enum dynpf_xdp_mode xmode =
		live.mode == DYNPF_LIVE_XDP ? DYNPF_XDP_NATIVE : DYNPF_XDP_GENERIC;
	bool tc = live.mode == DYNPF_LIVE_TC;
	struct bpf_program *prog;
	int err;

	prog = dynpf_progs_prog(&live.pr, live.hook);
	live.prog_name = bpf_program__section_name(prog);
	live.rx.ns = live.rx_ns;
	live.rx.ifindex = live.rx_ifindex;
	err = dynpf_rx_attach(&live.rx, bpf_program__fd(prog), tc, xmode);
	if (err && tc)
		p_err("cannot attach %s to the TC ingress of %s: %s", live.prog_name, live.rx_name,
		      strerror(-err));
	else if (err)
		p_err("cannot attach %s to %s in %s mode: %s%s", live.prog_name, live.rx_name,
		      dynpf_xdp_mode_name(xmode), strerror(-err), dynpf_xdp_attach_hint(err));
	return err;
}

static int open_socket(void)
{
	int one = 1, sndbuf = 1 << 20, saved, err;

	err = dynpf_netns_enter(live.tx_ns, &saved);
	if (err)
		return err;
	live.sock = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0); /* sends, never receives */
	err = live.sock < 0 ? -errno : 0;
	if (!err && setsockopt(live.sock, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)))
		err = -errno;
	if (!err)
		setsockopt(live.sock, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	dynpf_netns_leave(&saved);
	if (err)
		p_err("cannot open an AF_PACKET socket on %s: %s", live.tx_name, strerror(-err));
	return err;
}

/* ------------------------------------------------------------ records */

static void on_record(void *ctx, const void *data, size_t size)
{
	const struct dynpf_pkt *p = data;

	(void)ctx;
	if (size < sizeof(*p))
		return;
	live.records++;
	live.bytes += p->pkt_len;
	live.err[p->err < DYNPF_E_MAX ? p->err : 0]++;
	if (live.armed && !live.got && p->ifindex == (uint32_t)live.rx_ifindex &&
	    (p->pkt_len == live.want_len ||
	     (live.untag_ok && p->pkt_len + VLAN_HLEN == live.want_len))) {
		memcpy(live.rec, p, sizeof(*p));
		live.got = true;
		return;
	}
	live.strays++;
	if (dynpf_verbosity >= LOG_INFO) {
		json_object *j = dynpf_pkt_to_json(p);

		fprintf(stderr, "a trace record of a frame dynpf did not send, on ifindex %u: ",
			p->ifindex);
		dynpf_pkt_print_text(stderr, j);
		fprintf(stderr, "\n");
		json_object_put(j);
	}
}

static bool vlan_tagged(const struct dynpf_frame *f)
{
	uint16_t tpid = f->len >= ETH_HLEN ? (uint16_t)(f->data[12] << 8 | f->data[13]) : 0;

	return tpid == ETH_P_8021Q || tpid == ETH_P_8021AD;
}

struct first_diff {
	char *buf;
	size_t len;
	int n;
};

static void note_diff(void *ctx, const char *path, json_object *want, json_object *got)
{
	struct first_diff *d = ctx;
	char w[128];

	if (d->n++)
		return;
	snprintf(w, sizeof(w), "%s",
		 want ? json_object_to_json_string_ext(want, JSON_C_TO_STRING_PLAIN) : "(absent)");
	snprintf(d->buf, d->len, "%s: native %s, got %s", path, w,
		 got ? json_object_to_json_string_ext(got, JSON_C_TO_STRING_PLAIN) : "(absent)");
}

/*
 * TC ingress got a VLAN-tagged frame without its outer tag: the kernel
 * moves it into skb->vlan_tci before tc (skb_vlan_untag() in
 * __netif_receive_skb_core), and dynpf's tc program gives it back to the
 * parse from there (the tag first, flagged as offloaded). The record cannot
 * equal the capture's parse (the offsets are those of the bytes the program
 * saw); it must equal the native parse of those bytes with that tag.
 */
static enum dynpf_run_result check_untagged(const struct dynpf_frame *f,
					    const struct dynpf_pkt *got, char *reason,
					    size_t reason_len)
{
	struct dynpf_pkt *np = calloc(1, sizeof(*np));
	uint8_t *u = malloc(f->len);
	char diff[200] = "";
	struct first_diff d = { diff, sizeof(diff), 0 };
	uint16_t tpid = f->data[12] << 8 | f->data[13], tci = f->data[14] << 8 | f->data[15];
	json_object *a, *b;

	if (!np || !u) {
		free(np);
		free(u);
		snprintf(reason, reason_len, "out of memory");
		return DYNPF_RUN_ERROR;
	}
	memcpy(u, f->data, 12);
	memcpy(u + 12, f->data + 12 + VLAN_HLEN, f->len - 12 - VLAN_HLEN);
	dynpf_parse_native_offload(u, f->len - VLAN_HLEN, tpid, tci, np, &live.cfg);
	a = dynpf_pkt_to_json(np);
	b = dynpf_pkt_to_json(got);
	dynpf_json_diff(a, b, 1, note_diff, &d);
	json_object_put(a);
	json_object_put(b);
	free(np);
	free(u);
	if (d.n) {
		snprintf(
			reason, reason_len,
			"TC ingress got the frame's outer VLAN tag in skb->vlan_tci, and its parse "
			"differs from the native parse of the %u bytes left with that tag: %s",
			f->len - VLAN_HLEN, diff);
		return DYNPF_RUN_ERROR;
	}
	live.untagged++;
	snprintf(reason, reason_len,
		 "the outer VLAN tag %u came in skb->vlan_tci, not in the bytes "
		 "(skb_vlan_untag): equal to the native parse of the %u bytes left with "
		 "that tag",
		 tci & 0xfff, f->len - VLAN_HLEN);
	return DYNPF_RUN_OWN_CHECK;
}

static enum dynpf_run_result live_run(void *ctx, const struct dynpf_frame *f, struct dynpf_pkt *out,
				      char *reason, size_t reason_len)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_ifindex = live.tx_ifindex };
	unsigned int wait_ms = live.timeout_ms;
	uint64_t deadline;
	int tries = 0;
	ssize_t n;

	(void)ctx;
	die_if_signalled();
	ring_buffer__consume(live.pr.rb); /* anything before this frame is a stray */
	live.rec = out;
	live.want_len = f->len;
	live.untag_ok = live.mode == DYNPF_LIVE_TC && vlan_tagged(f);
	live.got = false;
	live.armed = true;
	while ((n = sendto(live.sock, f->data, f->len, 0, (struct sockaddr *)&sll, sizeof(sll))) <
	       0) {
		int err = errno;

		live.armed = false;
		if (err == EINTR) {
			die_if_signalled();
		} else if ((err == ENOBUFS || err == EAGAIN) && tries++ < 100) {
			usleep(1000);
		} else if (err == EINVAL && f->len < ETH_HLEN) {
			snprintf(reason, reason_len,
				 "AF_PACKET sends no frame shorter than an Ethernet header (14 "
				 "bytes)");
			return DYNPF_RUN_SKIPPED;
		} else if (err == EMSGSIZE) {
			snprintf(reason, reason_len,
				 "longer than the MTU of %s allows (%u bytes, and 4 more with a "
				 "VLAN tag)",
				 live.tx_name, live.tx_mtu + ETH_HLEN);
			return DYNPF_RUN_SKIPPED;
		} else {
			snprintf(reason, reason_len, "sending on %s: %s", live.tx_name,
				 strerror(err));
			return DYNPF_RUN_ERROR;
		}
		live.armed = true;
	}
	if ((size_t)n != f->len) {
		live.armed = false;
		snprintf(reason, reason_len, "sent %zd of %u bytes on %s", n, f->len, live.tx_name);
		return DYNPF_RUN_ERROR;
	}
	/*
	 * A frame the kernel is known to drop gets a short wait: should a
	 * record come later after all, the next frame finds it as a stray,
	 * which fails a test bed run, so a wrong guess cannot pass unseen.
	 */
	if (live.untag_ok && f->len < VLAN_ETH_HLEN + 2 && wait_ms > 20)
		wait_ms = 20;
	deadline = (uint64_t)dynpf_now_ms() + wait_ms;
	while (!live.got) {
		uint64_t t = (uint64_t)dynpf_now_ms();
		int r;

		if (t >= deadline)
			break;
		r = ring_buffer__poll(live.pr.rb, (int)(deadline - t));
		if (r == -EINTR)
			die_if_signalled();
		else if (r < 0) {
			live.armed = false;
			snprintf(reason, reason_len, "reading the trace ring: %s", strerror(-r));
			return DYNPF_RUN_ERROR;
		}
	}
	live.armed = false;
	if (live.got && out->pkt_len != f->len)
		return check_untagged(f, out, reason, reason_len);
	if (live.got)
		return DYNPF_RUN_OK;
	if (live.untag_ok && f->len < VLAN_ETH_HLEN + 2)
		snprintf(reason, reason_len,
			 "no trace record within %u ms: the kernel drops a VLAN-tagged frame "
			 "shorter than 20 bytes before TC ingress (skb_vlan_untag)",
			 wait_ms);
	else
		snprintf(reason, reason_len,
			 "no trace record within %u ms: the kernel dropped the frame before the "
			 "%s hook",
			 live.timeout_ms, dynpf_live_hook_name(live.mode));
	return DYNPF_RUN_SKIPPED;
}

/*
 * The attached program's counters must tell what the ring told: every
 * record (the walk's and any stray's), their bytes and error codes, none
 * lost, every frame with its dynptr.
 */
static unsigned long live_check_counters(void *ctx, unsigned long parsed, const unsigned long *err)
{
	const char *name = dynpf_live_hook_name(live.mode);
	unsigned long bad = 0;
	struct dynpf_stats st;
	int e;

	(void)ctx;
	(void)err;
	ring_buffer__consume(live.pr.rb);
	if (dynpf_progs_read_stats(&live.pr, live.hook, &st)) {
		p_err("cannot read the %s counters", name);
		return 1;
	}
	for (e = 0; e < DYNPF_E_MAX; e++)
		if (st.err[e] != live.err[e])
			break;
	if (st.packets != live.records || st.bytes != live.bytes || e < DYNPF_E_MAX ||
	    st.trace_lost || st.no_dynptr || live.records != parsed + live.strays) {
		p_err("%s counters disagree with the trace ring: %llu packets (records: %lu, "
		      "of the capture: %lu), %llu bytes (records: %lu), %llu trace records lost, "
		      "%llu without a dynptr",
		      name, (unsigned long long)st.packets, live.records, parsed,
		      (unsigned long long)st.bytes, live.bytes, (unsigned long long)st.trace_lost,
		      (unsigned long long)st.no_dynptr);
		bad++;
	}
	if (live.strays) {
		/* Nothing else may reach a test bed's rx end; a NIC may see other traffic. */
		if (live.have_tb) {
			p_err("%s: %lu trace records of frames dynpf did not send", name,
			      live.strays);
			bad++;
		} else {
			pr_warn("%s: %lu trace records of frames dynpf did not send (ignored)\n",
				name, live.strays);
		}
	}
	return bad;
}

/* ------------------------------------------------------------ set up, tear down */

static int find_ifaces(const struct dynpf_live_opts *o)
{
	snprintf(live.rx_name, sizeof(live.rx_name), "%s", o->iface);
	live.rx_ifindex = if_nametoindex(o->iface);
	if (!live.rx_ifindex) {
		p_err("--iface %s: no such interface", o->iface);
		return -ENODEV;
	}
	if (o->peer) {
		snprintf(live.tx_name, sizeof(live.tx_name), "%s", o->peer);
		live.tx_ifindex = if_nametoindex(o->peer);
		if (!live.tx_ifindex) {
			p_err("--peer %s: no such interface", o->peer);
			return -ENODEV;
		}
	} else {
		/* A veth's IFLA_LINK is its peer's index, if both are here. */
		int peer = dynpf_if_link(live.rx_ifindex);

		if (peer <= 0 || peer == live.rx_ifindex || !if_indextoname(peer, live.tx_name) ||
		    dynpf_if_link(peer) != live.rx_ifindex) {
			p_err("--iface %s: no veth peer in this namespace: name the interface to "
			      "send from with --peer",
			      o->iface);
			return -ENODEV;
		}
		live.tx_ifindex = peer;
	}
	if (live.tx_ifindex == live.rx_ifindex) {
		p_err("--peer must be another interface than --iface");
		return -EINVAL;
	}
	return 0;
}

int dynpf_live_start(const struct dynpf_live_opts *o, struct dynpf_walk_live *walk)
{
	int err, mtu, saved;

	live.mode = o->mode;
	live.timeout_ms = o->timeout_ms;
	live.xdp_prog = o->xdp_prog;
	dynpf_tb_signals_catch(); /* SIGPIPE too: `dynpf replay ... | head` */
	live.started = true;
	err = dynpf_probe_kernel();
	if (err)
		goto fail;
	if (o->testbed) {
		dynpf_testbed_remove_stale();
		err = dynpf_testbed_create(&live.tb, o->mtu);
		if (err)
			goto fail;
		live.have_tb = true;
		dynpf_tb_signals_guard(&live.tb);
		live.rx_ns = live.tb.rx_ns;
		live.tx_ns = live.tb.tx_ns;
		live.rx_ifindex = live.tb.rx_ifindex;
		live.tx_ifindex = live.tb.tx_ifindex;
		snprintf(live.rx_name, sizeof(live.rx_name), "%s", DYNPF_TB_RX_IF);
		snprintf(live.tx_name, sizeof(live.tx_name), "%s", DYNPF_TB_TX_IF);
	} else {
		err = find_ifaces(o);
		if (err)
			goto fail;
	}
	die_if_signalled();
	err = dynpf_netns_enter(live.rx_ns, &saved);
	if (err)
		goto fail;
	mtu = dynpf_if_mtu(live.rx_ifindex);
	dynpf_netns_leave(&saved);
	if (mtu <= 0) {
		err = mtu ?: -EINVAL;
		p_err("cannot read the MTU of %s: %s", live.rx_name, strerror(-err));
		goto fail;
	}
	live.mtu = mtu;
	err = dynpf_netns_enter(live.tx_ns, &saved);
	if (err)
		goto fail;
	mtu = dynpf_if_mtu(live.tx_ifindex);
	dynpf_netns_leave(&saved);
	live.tx_mtu = mtu > 0 ? (unsigned int)mtu : live.mtu;
	live.cfg = o->cfg;
	/*
	 * The sending interface's own traffic would reach the rx hook between
	 * the capture's frames: the quiet program on its egress drops it,
	 * attached before any link is up, so no frame of its own gets through.
	 */
	err = dynpf_quiet_on(&live.quiet, live.tx_ns, live.tx_ifindex, live.tx_name);
	err = err ?: live.have_tb ? dynpf_testbed_up(&live.tb) : 0;
	/* Only the program to attach: the verifier is most of the start-up time. */
	live.hook = choose_hook();
	err = err
		      ?: dynpf_progs_open_hooks(&live.pr, DYNPF_TRACE_LIVE, &o->cfg, 0,
						1u << live.hook);
	if (err)
		goto fail;
	live.pr.on_rec = on_record;
	die_if_signalled();
	err = attach_rx();
	err = err ?: open_socket();
	if (err)
		goto fail;
	die_if_signalled();
	pr_info("%s: %s attached to %s (mtu %u), frames sent from %s\n",
		dynpf_live_hook_name(live.mode), live.prog_name, live.rx_name, live.mtu,
		live.tx_name);
	memset(walk, 0, sizeof(*walk));
	walk->name = dynpf_live_hook_name(live.mode);
	walk->ref = live.hook == DYNPF_HOOK_TC_INGRESS  ? DYNPF_HOOKS_TC
		    : live.hook == DYNPF_HOOK_XDP_FRAGS ? DYNPF_HOOKS_XDP_FRAGS
							: DYNPF_HOOKS_XDP;
	walk->run = live_run;
	walk->check_counters = live_check_counters;
	return 0;
fail:
	live_teardown();
	die_if_signalled();
	return err;
}

void dynpf_live_stop(void)
{
	live_teardown();
	die_if_signalled();
}

static void live_teardown(void)
{
	if (!live.started)
		return;
	if (live.sock >= 0)
		close(live.sock);
	live.sock = -1;
	dynpf_rx_detach(&live.rx);
	dynpf_quiet_off(&live.quiet, live.tx_ns);
	dynpf_progs_close(&live.pr);
	if (live.have_tb)
		dynpf_testbed_destroy(&live.tb);
	live.have_tb = false;
	live.rx_ns = live.tx_ns = -1;
	dynpf_tb_signals_restore();
	live.started = false;
}
