/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_sockopt.c - base/sockopt.c: tbench's socket option lists (-T of
 * the client, -t of tbench_srv) read as dbench 4.0 reads them (blanks,
 * tabs and commas between, names in any case, NAME=N), what is refused
 * and how, and the options as a socket then has them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "sockopt.h"

static void test_parse(void **state)
{
	struct sockopt_set s;
	char err[512];

	(void)state;
	assert_int_equal(sockopt_parse(SOCKOPT_DEFAULT, &s, err, sizeof(err)),
			 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.o[0].name, "TCP_NODELAY");
	assert_int_equal(s.o[0].level, IPPROTO_TCP);
	assert_int_equal(s.o[0].value, 1);
	assert_string_equal(s.o[1].name, "SO_REUSEADDR");

	/* any case, blanks, tabs and commas, NAME=N */
	assert_int_equal(sockopt_parse(" tcp_nodelay=0,\tSo_SndBuf=65536 ,,"
				       "IPTOS_LOWDELAY so_rcvtimeo=1500",
				       &s, err, sizeof(err)),
			 0);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.o[0].name, "TCP_NODELAY");
	assert_int_equal(s.o[0].value, 0);
	assert_string_equal(s.o[1].name, "SO_SNDBUF");
	assert_int_equal(s.o[1].value, 65536);
	assert_int_equal(s.o[2].opt, IP_TOS);
	assert_int_equal(s.o[2].value, IPTOS_LOWDELAY);
	assert_int_equal(s.o[3].kind, SOCKOPT_MS);
	assert_int_equal(s.o[3].value, 1500);

	/* nothing: no option */
	assert_int_equal(sockopt_parse(" , ", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 0);
}

static void test_refused(void **state)
{
	static const struct {
		const char *spec, *msg;
	} t[] = {
		{"TCP_NODELAY SO_FOO",
		 "unknown socket option 'SO_FOO' (known: SO_KEEPALIVE, "
		 "SO_REUSEADDR, SO_BROADCAST, TCP_NODELAY, IPTOS_LOWDELAY, "
		 "IPTOS_THROUGHPUT, SO_SNDBUF, SO_RCVBUF, SO_SNDLOWAT, "
		 "SO_RCVLOWAT, SO_SNDTIMEO, SO_RCVTIMEO)"},
		{"TCP_NODELAYX", "unknown socket option 'TCP_NODELAYX'"},
		{"=1", "unknown socket option ''"},
		{"SO_SNDBUF", "socket option SO_SNDBUF needs a value "
			      "(SO_SNDBUF=N)"},
		{"SO_RCVTIMEO", "socket option SO_RCVTIMEO needs a value "
				"(SO_RCVTIMEO=MILLISECONDS)"},
		{"IPTOS_LOWDELAY=1", "socket option IPTOS_LOWDELAY takes no "
				     "value ('IPTOS_LOWDELAY=1')"},
		{"SO_SNDBUF=", "socket option SO_SNDBUF: '' is not a whole "
			       "number in 0..2147483647"},
		{"SO_SNDBUF=-1", "socket option SO_SNDBUF: '-1' is not"},
		{"SO_SNDBUF=1k", "'1k' is not a whole number"},
		{"SO_SNDBUF=+5", "'+5' is not a whole number"},
		{"SO_SNDBUF=2147483648", "'2147483648' is not"},
		{"SO_SNDBUF=99999999999999999999999999999999999",
		 "'99999999999999999999999999999999999' is not"},
		{"TCP_NODELAY TCP_NODELAY TCP_NODELAY TCP_NODELAY TCP_NODELAY "
		 "TCP_NODELAY TCP_NODELAY TCP_NODELAY TCP_NODELAY TCP_NODELAY "
		 "TCP_NODELAY TCP_NODELAY TCP_NODELAY TCP_NODELAY TCP_NODELAY "
		 "TCP_NODELAY TCP_NODELAY",
		 "more than 16 socket options"},
	};
	struct sockopt_set s;
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		err[0] = 0;
		if (sockopt_parse(t[i].spec, &s, err, sizeof(err)) != -1 ||
		    !strstr(err, t[i].msg))
			fail_msg("'%s': '%s', expected '%s'", t[i].spec, err,
				 t[i].msg);
	}
}

static int get_int(int fd, int level, int opt)
{
	int v = -1;
	socklen_t len = sizeof(v);

	assert_int_equal(getsockopt(fd, level, opt, &v, &len), 0);
	return v;
}

static void test_apply(void **state)
{
	struct sockopt_set s;
	struct timeval tv;
	socklen_t len = sizeof(tv);
	char err[512];
	int fd;

	(void)state;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		skip();
	assert_int_equal(sockopt_parse("TCP_NODELAY SO_KEEPALIVE "
				       "SO_SNDBUF=65536 SO_RCVTIMEO=1500 "
				       "IPTOS_THROUGHPUT",
				       &s, err, sizeof(err)),
			 0);
	assert_int_equal(sockopt_apply(fd, AF_INET, &s, err, sizeof(err)), 0);
	assert_int_equal(get_int(fd, IPPROTO_TCP, TCP_NODELAY), 1);
	assert_int_equal(get_int(fd, SOL_SOCKET, SO_KEEPALIVE), 1);
	/* Linux doubles what it is given, for its own bookkeeping */
	assert_true(get_int(fd, SOL_SOCKET, SO_SNDBUF) >= 65536);
	assert_int_equal(get_int(fd, IPPROTO_IP, IP_TOS), IPTOS_THROUGHPUT);
	assert_int_equal(getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, &len), 0);
	assert_int_equal(tv.tv_sec, 1);
	assert_int_equal(tv.tv_usec, 500000);
	/* NAME=0 turns a switch off */
	assert_int_equal(sockopt_parse("TCP_NODELAY=0", &s, err, sizeof(err)),
			 0);
	assert_int_equal(sockopt_apply(fd, AF_INET, &s, err, sizeof(err)), 0);
	assert_int_equal(get_int(fd, IPPROTO_TCP, TCP_NODELAY), 0);
	close(fd);

	/* what the kernel refuses is said, with the option */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(
		sockopt_parse("SO_SNDLOWAT=4096", &s, err, sizeof(err)), 0);
	if (sockopt_apply(fd, AF_INET, &s, err, sizeof(err)) == -1)
		assert_non_null(strstr(err, "cannot set socket option "
					    "SO_SNDLOWAT=4096: "));
	close(fd);

	/* on IPv6 the TOS options are the traffic class */
	fd = socket(AF_INET6, SOCK_STREAM, 0);
	if (fd < 0)
		return; /* no IPv6 here */
	assert_int_equal(sockopt_parse("IPTOS_LOWDELAY", &s, err, sizeof(err)),
			 0);
	assert_int_equal(sockopt_apply(fd, AF_INET6, &s, err, sizeof(err)), 0);
	assert_int_equal(get_int(fd, IPPROTO_IPV6, IPV6_TCLASS),
			 IPTOS_LOWDELAY);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_apply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
