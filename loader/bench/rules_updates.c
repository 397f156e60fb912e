// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench, the rule benchmarks: updates per second. Transactions of 1,
 * 64 and 4096 rule adds through the ring, each flushed (drained, linked at
 * the next generation, published, acked), for at least BENCH_UPD_MS
 * wall-clock per run: updates per second. Beside them the raw map-write
 * floor: the same number of values of a rule entry's size (struct
 * dynpf_rule_ent) written into a BPF_MAP_TYPE_ARRAY created here, with
 * bpf_map_update_elem() one by one and with one bpf_map_update_batch()
 * (BPF_MAP_UPDATE_BATCH).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "bench/rules.h"
#include "lib/log.h"

#define BENCH_UPD_MAX_IDS 32768 /* rules one update-rate run may add */

const uint32_t rb_upd_batches[RB_NBATCHES] = { 1, 64, 4096 };

/* Ring transactions of b adds, for at least BENCH_UPD_MS: updates/s. */
static int upd_ring(struct rb_ctx *x, uint32_t b, double *rate, double *txn_us)
{
	uint32_t next = 1, txns = 0;
	double t0, t1;
	int err;

	t0 = dynpf_now() * 1e3;
	do {
		err = rb_txn(x, b, rb_id_from, next, false, NULL, "an update transaction");
		if (err)
			return err;
		next += b;
		txns++;
		t1 = dynpf_now() * 1e3;
	} while (t1 - t0 < BENCH_UPD_MS && next + b <= BENCH_UPD_MAX_IDS);
	*rate = (next - 1) / ((t1 - t0) / 1e3);
	*txn_us = (t1 - t0) * 1e3 / txns;
	/* Back to no rules, untimed. */
	return rb_txn(x, next - 1, rb_id_from, 1, true, NULL, "deleting the update rules");
}

/* The floor: b values with bpf_map_update_elem(), or one batch, repeated. */
static int upd_floor(int fd, const uint32_t *keys, const uint8_t *vals, uint32_t b, bool batch,
		     double *rate)
{
	LIBBPF_OPTS(bpf_map_batch_opts, bo, .elem_flags = BPF_ANY);
	uint32_t done = 0;
	double t0, t1;

	t0 = dynpf_now() * 1e3;
	do {
		if (batch) {
			uint32_t count = b;

			if (bpf_map_update_batch(fd, keys + done % BENCH_UPD_MAX_IDS, vals, &count,
						 &bo) ||
			    count != b) {
				int err = errno ? -errno : -EIO;

				p_err("bench: bpf_map_update_batch of %u values: %s", b,
				      strerror(-err));
				return err;
			}
		} else {
			for (uint32_t i = 0; i < b; i++) {
				const uint32_t *k = &keys[(done + i) % BENCH_UPD_MAX_IDS];
				const uint8_t *v = vals + (size_t)i * RB_FLOOR_VALUE;

				if (bpf_map_update_elem(fd, k, v, BPF_ANY)) {
					int err = -errno;

					p_err("bench: bpf_map_update_elem: %s", strerror(-err));
					return err;
				}
			}
		}
		done += b;
		t1 = dynpf_now() * 1e3;
	} while (t1 - t0 < BENCH_UPD_MS);
	*rate = done / ((t1 - t0) / 1e3);
	return 0;
}

int rb_updates(struct rb_ctx *x)
{
	uint32_t maxb = rb_upd_batches[RB_NBATCHES - 1], *keys;
	uint8_t *vals;
	int fd, err = 0;

	keys = calloc(BENCH_UPD_MAX_IDS + maxb, sizeof(*keys));
	vals = calloc(maxb, RB_FLOOR_VALUE);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "bench_floor", sizeof(uint32_t), RB_FLOOR_VALUE,
			    BENCH_UPD_MAX_IDS + maxb, NULL);
	if (!keys || !vals || fd < 0) {
		err = fd < 0 ? -errno : -ENOMEM;
		p_err("bench: cannot create the floor's array map: %s", strerror(-err));
		goto out;
	}
	for (uint32_t i = 0; i < BENCH_UPD_MAX_IDS + maxb; i++)
		keys[i] = i;
	for (uint32_t i = 0; i < maxb; i++)
		bench_rules_gen(i + 1, (struct dynpf_rule *)(vals + (size_t)i * RB_FLOOR_VALUE));

	for (size_t k = 0; k < RB_NBATCHES; k++) {
		struct rb_upd *u = &x->res->upd[k];

		u->batch = rb_upd_batches[k];
		pr_info("bench: updates in batches of %u: %u runs\n", u->batch, x->cfg->runs);
		for (uint32_t r = 0; r < x->cfg->runs; r++) {
			err = upd_ring(x, u->batch, &u->ring[r], &u->txn_us[r]);
			err = err ?: upd_floor(fd, keys, vals, u->batch, false, &u->elem[r]);
			err = err ?: upd_floor(fd, keys, vals, u->batch, true, &u->mbatch[r]);
			if (err)
				goto out;
		}
		u->med_ring = dynpf_median(u->ring, x->cfg->runs);
		u->med_txn_us = dynpf_median(u->txn_us, x->cfg->runs);
		u->med_elem = dynpf_median(u->elem, x->cfg->runs);
		u->med_batch = dynpf_median(u->mbatch, x->cfg->runs);
	}
out:
	if (fd >= 0)
		close(fd);
	free(keys);
	free(vals);
	return err;
}
