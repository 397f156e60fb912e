/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * TC through a clsact qdisc and a cls_bpf filter (libbpf's bpf_tc_* API):
 * the fallback for kernels without tcx links (before 6.6). dynpf's filter
 * has its own handle and priority on each hook, so it is found again by a
 * restarted daemon (and replaced in place) or by `dynpf detach --all`.
 */
#ifndef DYNPF_LOADER_TCATTACH_H
#define DYNPF_LOADER_TCATTACH_H

#include <stdbool.h>
#include <stdint.h>

#define DYNPF_CLSACT_HANDLE 0xd1f
#define DYNPF_CLSACT_PRIO 0xd1f

/*
 * Attach (or atomically replace) dynpf's filter with prog_fd on the ingress
 * or egress hook of ifindex, creating the clsact qdisc if there is none.
 * *replaced: a dynpf filter was there; *created: this call made the qdisc.
 * 0 or -errno.
 */
int dynpf_clsact_attach(int ifindex, bool ingress, int prog_fd, bool *replaced, bool *created);

/* The program id of dynpf's filter there: 0 if there is none, or -errno. */
int dynpf_clsact_query(int ifindex, bool ingress, uint32_t *prog_id);

/* Remove dynpf's filter there. 0, -ENOENT if there was none, or -errno. */
int dynpf_clsact_detach(int ifindex, bool ingress);

/* Filters of any owner on the clsact qdisc of ifindex (both hooks), or -errno. */
int dynpf_clsact_nfilters(int ifindex);

/* Delete the clsact qdisc of ifindex if no filter is left on it: 1 deleted,
 * 0 kept (filters left, or no qdisc), -errno. */
int dynpf_clsact_remove_if_empty(int ifindex);

/*
 * dynpf is done with its filter on one hook of ifindex, and made the clsact
 * qdisc: the qdisc goes with dynpf's last filter, unless others' filters are
 * on it. 0: kept, as dynpf's filter on the other hook needs it (or that
 * cannot be told); 1: dynpf is done with it (removed, or left to the others'
 * filters); -errno: removing it failed.
 */
int dynpf_clsact_release(int ifindex, bool ingress);

#endif
