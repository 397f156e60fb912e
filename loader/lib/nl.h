/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A rtnetlink socket, for the test bed's requests and the daemon's link events. */
#ifndef DYNPF_LOADER_NL_H
#define DYNPF_LOADER_NL_H

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>

/* Bound to the multicast groups (RTMGRP_*, 0: none); flags: SOCK_NONBLOCK or
 * 0. The socket, or -errno. */
static inline int dynpf_nl_open(unsigned int groups, int flags)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = groups };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | flags, NETLINK_ROUTE);

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

#endif
