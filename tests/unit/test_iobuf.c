/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_iobuf.c - base/iobuf.c: a backend's per-process buffers grow to
 * the largest size asked, stay when large enough, the write buffer is
 * zeroed, and no size of 0 leaves a client without buffers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "iobuf.h"

/* AddressSanitizer aborts on an allocation past its limit instead of
 * returning NULL (allocator_may_return_null=0): no refusal to test */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

static void test_grow(void **state)
{
	struct iobuf b = {0};
	char *w;

	(void)state;
	/* a program without ReadX or WriteX: a byte each */
	assert_int_equal(iobuf_grow(&b, 0), 0);
	assert_int_equal(b.len, 1);
	assert_non_null(b.wbuf);
	assert_non_null(b.rbuf);

	assert_int_equal(iobuf_grow(&b, 65536), 0);
	assert_int_equal(b.len, 65536);
	for (size_t i = 0; i < b.len; i++)
		assert_int_equal(b.wbuf[i], 0);
	memset(b.rbuf, 0xa5, b.len); /* ReadX's target may be written */

	/* a smaller program in the same process keeps the buffers */
	w = b.wbuf;
	assert_int_equal(iobuf_grow(&b, 4096), 0);
	assert_ptr_equal(b.wbuf, w);
	assert_int_equal(b.len, 65536);

	/* a larger one gets new, zeroed ones */
	assert_int_equal(iobuf_grow(&b, 1 << 20), 0);
	assert_int_equal(b.len, 1 << 20);
	assert_int_equal(b.wbuf[(1 << 20) - 1], 0);
	free(b.wbuf);
	free(b.rbuf);
}

static void test_out_of_memory(void **state)
{
	struct iobuf b = {0};

	(void)state;
#ifdef UNDER_ASAN
	skip();
#endif
	assert_int_equal(iobuf_grow(&b, 16), 0);
	/* more than any allocator gives: emptied, not left half freed */
	assert_int_equal(iobuf_grow(&b, SIZE_MAX), -1);
	assert_null(b.wbuf);
	assert_null(b.rbuf);
	assert_int_equal(b.len, 0);
	/* and the next client of the process tries again */
	assert_int_equal(iobuf_grow(&b, 16), 0);
	assert_int_equal(b.len, 16);
	free(b.wbuf);
	free(b.rbuf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_out_of_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
