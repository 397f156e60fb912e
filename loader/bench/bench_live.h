/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * dynpf bench --live (bench_live.c): packets on the wire. A veth pair
 * between two network namespaces the bench makes (testbed.h), a traffic
 * generator on its sending end (BPF_PROG_TEST_RUN with
 * BPF_F_TEST_XDP_LIVE_FRAMES), and on its receiving end, in turn, an empty
 * XDP_DROP program and dynpf's XDP and TC programs with 1 and 10,000
 * generated rules: received packets per second, per action, from the
 * receivers' counters; and 100,000 rule updates pushed through the control
 * channel while the 10,000-rule XDP run goes on.
 */
#ifndef DYNPF_BENCH_LIVE_H
#define DYNPF_BENCH_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#define BENCH_LIVE_CAPTURE_DEFAULT "pcap-tests/tcp_options.pcap"
#define BENCH_LIVE_DURATION_DEFAULT 5
#define BENCH_LIVE_DURATION_MAX 3600

struct bench_live_cfg {
	const char *capture; /* NULL: BENCH_LIVE_CAPTURE_DEFAULT */
	uint32_t duration;   /* seconds of traffic per configuration */
	bool xdp_bench;      /* also run xdp-tools' xdp-bench drop, where it works */
	bool print_live;     /* a line per second on stdout, like xdp-bench */
};

struct bench_live;

/*
 * Make the test bed, run every configuration, tear it all down (also on
 * failure; SIGINT, SIGTERM, SIGHUP and SIGPIPE tear down, then the process
 * dies of the signal). 0 and *out (free it), or -errno (said).
 */
int bench_live_run(const struct bench_live_cfg *cfg, struct bench_live **out);

void bench_live_print_text(const struct bench_live *r);
json_object *bench_live_json(const struct bench_live *r);
void bench_live_free(struct bench_live *r);

#endif
