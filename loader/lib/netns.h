/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_LIB_NETNS_H
#define DYNPF_LIB_NETNS_H

/*
 * Run in namespace ns (an fd; -1: stay): *saved gets an fd of the current
 * one, for dynpf_netns_leave(). 0 or -errno.
 */
int dynpf_netns_enter(int ns, int *saved);
int dynpf_netns_leave(int *saved);

#endif
