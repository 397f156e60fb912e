// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Running in another network namespace for a while (netns.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"
#include "lib/netns.h"

int dynpf_netns_enter(int ns, int *saved)
{
	*saved = -1;
	if (ns < 0)
		return 0;
	*saved = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*saved < 0)
		return -errno;
	if (setns(ns, CLONE_NEWNET)) {
		int err = -errno;

		close(*saved);
		*saved = -1;
		return err;
	}
	return 0;
}

int dynpf_netns_leave(int *saved)
{
	int err = 0;

	if (*saved < 0)
		return 0;
	if (setns(*saved, CLONE_NEWNET))
		err = -errno;
	close(*saved);
	*saved = -1;
	if (err)
		p_err("cannot return to the original network namespace: %s", strerror(-err));
	return err;
}
