/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_frame.c - server/frame.c: tbench's requests read from a stream,
 * whatever its split (every request answered with the reply length it
 * asked for, in order, none twice, none made up), the lengths refused
 * (N < 4, N or M over the limit, each as soon as its length word is in),
 * and what is known of a request cut in the middle.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "frame.h"

#define MAX (17u << 20)

/* Append a request of @s bytes (length word included) asking for a reply
 * of @r bytes, as tbench sends it, to @buf at *@n. */
static void put_request(uint8_t *buf, size_t *n, uint32_t s, uint32_t r)
{
	uint32_t v[2] = {s - 4, r - 4};

	for (int w = 0; w < 2; w++)
		for (int i = 0; i < 4; i++)
			buf[*n + (size_t)w * 4 + (size_t)i] =
				(uint8_t)(v[w] >> (24 - 8 * i));
	memset(buf + *n + 8, 0xa5, s - 8);
	*n += s;
}

/* Feed @buf (@n bytes) in pieces of @piece bytes (0: random), collecting
 * the reply lengths into @got; returns how many. */
static int feed_all(const uint8_t *buf, size_t n, size_t piece, uint32_t *got,
		    unsigned int *seed)
{
	struct frame f;
	size_t off = 0;
	int k = 0;

	frame_reset(&f);
	while (off < n) {
		size_t len = piece ? piece : 1 + (size_t)rand_r(seed) % 9000;
		size_t pos = 0;

		if (len > n - off)
			len = n - off;
		while (pos < len) {
			size_t used = 0;
			uint32_t m = 0;
			enum frame_ev e = frame_feed(&f, buf + off + pos,
						     len - pos, MAX, &used, &m);

			assert_true(e >= 0);
			assert_true(used <= len - pos);
			pos += used;
			if (e == FRAME_REQUEST)
				got[k++] = m;
			else
				assert_int_equal(pos, len); /* MORE: all */
		}
		off += len;
	}
	assert_false(frame_partial(&f));
	return k;
}

static void test_stream(void **state)
{
	/* the handshake, then client.txt's sizes: NTCreateX, WriteX of
	 * 65536, ReadX of 4096, Find of 26 entries, Close */
	static const uint32_t req[][2] = {
		{8, 8},		 {74 + 2 * 43, 87},	      {59 + 65536, 55},
		{59, 59 + 4096}, {59 + 2 * 40, 39 + 90 * 26}, {47, 39},
		{8, 4},		 {59 + 65536, 59 + 65536},
	};
	const size_t nreq = sizeof(req) / sizeof(req[0]);
	size_t n = 0, pieces[] = {1, 2, 3, 4, 5, 7, 8, 9, 100, 65536, 1 << 20};
	uint8_t *buf = malloc(1 << 20);
	uint32_t got[64];
	unsigned int seed = 42;

	(void)state;
	assert_non_null(buf);
	for (size_t i = 0; i < nreq; i++)
		put_request(buf, &n, req[i][0], req[i][1]);
	for (size_t p = 0; p < sizeof(pieces) / sizeof(pieces[0]); p++) {
		assert_int_equal(feed_all(buf, n, pieces[p], got, &seed),
				 (int)nreq);
		for (size_t i = 0; i < nreq; i++)
			assert_int_equal(got[i], req[i][1] - 4);
	}
	for (int r = 0; r < 200; r++) { /* random splits */
		assert_int_equal(feed_all(buf, n, 0, got, &seed), (int)nreq);
		for (size_t i = 0; i < nreq; i++)
			assert_int_equal(got[i], req[i][1] - 4);
	}
	free(buf);
}

/* One request's head: N = @n, M = @m */
static void head(uint8_t *b, uint32_t n, uint32_t m)
{
	for (int i = 0; i < 4; i++) {
		b[i] = (uint8_t)(n >> (24 - 8 * i));
		b[4 + i] = (uint8_t)(m >> (24 - 8 * i));
	}
}

static void test_refused(void **state)
{
	struct frame f;
	uint8_t b[8];
	size_t used;
	uint32_t m;

	(void)state;
	/* N < 4: no room for M; refused once N is in, M not waited for */
	head(b, 3, 4);
	frame_reset(&f);
	assert_int_equal(frame_feed(&f, b, 3, MAX, &used, &m), FRAME_MORE);
	assert_int_equal(frame_feed(&f, b + 3, 1, MAX, &used, &m), FRAME_SHORT);
	assert_int_equal(f.n, 3);
	/* N over the limit (tbench_srv: "overflow in server!", exit) */
	head(b, 0xffffffffu, 4);
	frame_reset(&f);
	assert_int_equal(frame_feed(&f, b, 8, MAX, &used, &m), FRAME_TOO_LONG);
	assert_int_equal(used, 4);
	assert_int_equal(f.n, 0xffffffffu);
	head(b, MAX + 1, 4);
	frame_reset(&f);
	assert_int_equal(frame_feed(&f, b, 8, MAX, &used, &m), FRAME_TOO_LONG);
	/* the limit itself is taken */
	head(b, MAX, 4);
	frame_reset(&f);
	assert_int_equal(frame_feed(&f, b, 8, MAX, &used, &m), FRAME_MORE);
	assert_int_equal(frame_size(&f), (uint64_t)MAX + 4);
	/* M over the limit */
	head(b, 4, MAX + 1);
	frame_reset(&f);
	assert_int_equal(frame_feed(&f, b, 8, MAX, &used, &m),
			 FRAME_REPLY_LONG);
	assert_int_equal(f.m, MAX + 1);
	/* N = 4: M alone, the smallest request; M = 0: a bare length word */
	head(b, 4, 0);
	frame_reset(&f);
	assert_int_equal(frame_feed(&f, b, 8, MAX, &used, &m), FRAME_REQUEST);
	assert_int_equal(m, 0);
	assert_int_equal(used, 8);
}

static void test_partial(void **state)
{
	uint8_t buf[200];
	struct frame f;
	size_t n = 0, used;
	uint32_t m;

	(void)state;
	put_request(buf, &n, 100, 39);
	frame_reset(&f);
	assert_false(frame_partial(&f));
	assert_int_equal(frame_feed(&f, buf, 2, MAX, &used, &m), FRAME_MORE);
	assert_true(frame_partial(&f));
	assert_int_equal(frame_received(&f), 2);
	assert_int_equal(frame_size(&f), 0); /* N not in yet */
	assert_int_equal(frame_feed(&f, buf + 2, 58, MAX, &used, &m),
			 FRAME_MORE);
	assert_int_equal(frame_received(&f), 60);
	assert_int_equal(frame_size(&f), 100);
	assert_int_equal(frame_feed(&f, buf + 60, 40, MAX, &used, &m),
			 FRAME_REQUEST);
	assert_int_equal(m, 35);
	assert_false(frame_partial(&f));
	assert_int_equal(frame_received(&f), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_partial),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
