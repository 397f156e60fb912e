/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Reads and writes on the control socket against a deadline, so that
 * neither side can be held forever by the other: the daemon by a client that
 * connects and goes quiet, the CLI by a daemon that is stopped or stuck.
 * Deadlines are CLOCK_MONOTONIC milliseconds (dynpf_now_ms() + timeout).
 */
#ifndef DYNPF_LOADER_SOCKIO_H
#define DYNPF_LOADER_SOCKIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/util.h" /* dynpf_now_ms() */

/*
 * One read of at most len bytes once fd is readable: the bytes read, 0 at
 * the end of the stream, -ETIMEDOUT past the deadline, or another -errno.
 */
ssize_t dynpf_read_by(int fd, void *buf, size_t len, int64_t deadline);

/* All of buf written by the deadline: 0, -ETIMEDOUT, or another -errno. */
int dynpf_write_by(int fd, const void *buf, size_t len, int64_t deadline);

/* line and a newline after it, the same way. */
int dynpf_write_line_by(int fd, const char *line, int64_t deadline);

#endif
