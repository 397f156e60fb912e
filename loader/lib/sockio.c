// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Socket reads and writes with a deadline (sockio.h). */
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <string.h>
#include <time.h>

#include "lib/sockio.h"

/* 0 once fd is ready for events, -ETIMEDOUT or -errno. */
static int wait_by(int fd, short events, int64_t deadline)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = events };
		int64_t left = deadline - dynpf_now_ms();
		int n;

		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&p, 1, left > 60000 ? 60000 : (int)left);
		if (n < 0 && errno != EINTR)
			return -errno;
		/* Ready, or hung up / in error: the read or write says which. */
		if (n > 0)
			return 0;
	}
}

ssize_t dynpf_read_by(int fd, void *buf, size_t len, int64_t deadline)
{
	for (;;) {
		int err = wait_by(fd, POLLIN, deadline);
		ssize_t n;

		if (err)
			return err;
		n = recv(fd, buf, len, MSG_DONTWAIT);
		if (n >= 0)
			return n;
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
	}
}

int dynpf_write_by(int fd, const void *buf, size_t len, int64_t deadline)
{
	const char *p = buf;

	while (len) {
		int err = wait_by(fd, POLLOUT, deadline);
		ssize_t n;

		if (err)
			return err;
		n = send(fd, p, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= n;
	}
	return 0;
}

int dynpf_write_line_by(int fd, const char *line, int64_t deadline)
{
	int err = dynpf_write_by(fd, line, strlen(line), deadline);

	return err ? err : dynpf_write_by(fd, "\n", 1, deadline);
}
