// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench: what every benchmark does alike. One BPF_PROG_TEST_RUN, the
 * interleaved runs of several programs with their medians (the method of
 * every ns figure: the kernel reports in `duration` the mean ns per
 * repetition, program plus test-run loop; programs run in turn, so that
 * drift hits them alike; the median of the runs is the figure), and the
 * JSON arrays of every run.
 */
#include <errno.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench/bench.h"
#include "lib/log.h"

int bench_test_run(int fd, const void *pkt, uint32_t len, uint32_t repeat, uint32_t *ret,
		   uint32_t *ns)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = len, .repeat = repeat);

	if (bpf_prog_test_run_opts(fd, &o))
		return -errno;
	*ret = o.retval;
	if (ns)
		*ns = o.duration;
	return 0;
}

int bench_run_want(int fd, const void *pkt, uint32_t len, uint32_t repeat, uint32_t want,
		   uint32_t *ns)
{
	uint32_t ret = 0;
	int err = bench_test_run(fd, pkt, len, repeat, &ret, ns);

	if (err)
		return err;
	if (ret != want) {
		p_err("bench: a program returned %d, expected %d", (int)ret, (int)want);
		return -EPROTO;
	}
	return 0;
}

int bench_interleave(const struct bench_job *jobs, size_t n, uint32_t runs, uint32_t repeat,
		     size_t *failed)
{
	int err;

	for (uint32_t r = 0; r < runs; r++) {
		for (size_t k = 0; k < n; k++) {
			/* Every other round the other way: no job always first. */
			size_t j = r & 1 ? n - 1 - k : k;

			if (jobs[j].fd < 0)
				continue;
			err = bench_run_want(jobs[j].fd, jobs[j].pkt, jobs[j].len, repeat,
					     jobs[j].want, &jobs[j].ns[r]);
			if (err) {
				*failed = j;
				return err;
			}
		}
	}
	for (size_t j = 0; j < n; j++)
		if (jobs[j].fd >= 0)
			*jobs[j].median = dynpf_median_u32(jobs[j].ns, runs);
	return 0;
}

json_object *bench_json_u32s(const uint32_t *v, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int64(v[i]));
	return a;
}

json_object *bench_json_doubles(const double *v, size_t n, const char *fmt)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, dynpf_json_num(v[i], fmt));
	return a;
}

void bench_say_unloaded(const char *who, const char *what, int err)
{
	p_err("%s: cannot load %s (%s): run with -vv to see the verifier log", who, what,
	      strerror(-err));
}
