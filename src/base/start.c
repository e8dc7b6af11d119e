/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * start.c - what a program inherits, made safe before it opens anything
 * (start.h): standard input, output and error open (a program started
 * with one of them closed would get that number for the first file it
 * opens, and then print into it), SIGXFSZ ignored.
 */
#include "start.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int start_process(void)
{
	signal(SIGXFSZ, SIG_IGN);
	for (int fd = 0; fd <= 2; fd++) {
		int n;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* the lowest free number: @fd itself, since the ones
		 * below it are open by now */
		n = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
		if (n != fd) {
			if (n >= 0)
				close(n);
			fprintf(stderr,
				"dbench-ng: cannot open /dev/null for "
				"the closed descriptor %d: %m\n",
				fd);
			return -1;
		}
	}
	return 0;
}
