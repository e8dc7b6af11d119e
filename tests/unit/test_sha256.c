/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_sha256.c - SHA-256 against the FIPS 180-4 / NIST example vectors,
 * the padding boundaries (55, 56, 63, 64, 65 ... bytes), and incremental
 * hashing in odd and random chunk sizes against the one-shot digest.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sha256.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* xorshift64, deterministic */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void check_hex(const char *msg, size_t len, const char *want)
{
	char hex[SHA256_HEX];

	sha256_hex(msg, len, hex);
	assert_string_equal(hex, want);
}

/* the incremental digest of @len bytes at @p, cut into @chunk-byte calls
 * (chunk 0: random sizes 0..2*SHA256_BLOCK+1) */
static void digest_chunked(const uint8_t *p, size_t len, size_t chunk,
			   char hex[SHA256_HEX])
{
	struct sha256 s;
	uint8_t d[SHA256_DIGEST];
	size_t off = 0, n;

	sha256_init(&s);
	while (off < len) {
		n = chunk ? chunk
			  : (size_t)(rng_next() % (2 * SHA256_BLOCK + 2));
		if (n > len - off)
			n = len - off;
		sha256_update(&s, p + off, n);
		off += n;
	}
	sha256_final(&s, d);
	sha256_to_hex(d, hex);
}

static void test_fips_vectors(void **state)
{
	(void)state;
	check_hex("", 0,
		  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b"
		  "7852b855");
	check_hex("abc", 3,
		  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61"
		  "f20015ad");
	/* 448 bits: the padding needs a second block */
	check_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  56,
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd4"
		  "19db06c1");
	/* 896 bits */
	check_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
		  "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		  112,
		  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac4503"
		  "7afee9d1");
}

static void test_empty_update(void **state)
{
	struct sha256 s;
	uint8_t d[SHA256_DIGEST];
	char hex[SHA256_HEX];

	(void)state;
	sha256_init(&s);
	sha256_update(&s, NULL, 0);
	sha256_update(&s, "", 0);
	sha256_update(&s, "ab", 2);
	sha256_update(&s, NULL, 0);
	sha256_update(&s, "c", 1);
	sha256_final(&s, d);
	sha256_to_hex(d, hex);
	assert_string_equal(hex,
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a"
			    "9cb410ff61f20015ad");
	/* reusable after a new init */
	sha256_init(&s);
	sha256_final(&s, d);
	sha256_to_hex(d, hex);
	assert_string_equal(hex,
			    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b93"
			    "4ca495991b7852b855");
}

/* one million 'a': one-shot, and fed in odd chunk sizes */
static void test_million_a(void **state)
{
	static const char want[] = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a4"
				   "97200e046d39ccc7112cd0";
	/* 0: random sizes */
	static const size_t chunks[] = {
		1, 3, 7, 55, 63, 64, 65, 127, 1001, 65537, 0,
	};
	uint8_t *a = malloc(1000000);
	char hex[SHA256_HEX];
	size_t i;

	(void)state;
	assert_non_null(a);
	memset(a, 'a', 1000000);
	sha256_hex(a, 1000000, hex);
	assert_string_equal(hex, want);
	for (i = 0; i < ARRAY_SIZE(chunks); i++) {
		digest_chunked(a, 1000000, chunks[i], hex);
		if (strcmp(hex, want))
			fail_msg("chunk %zu: %s", chunks[i], hex);
	}
	free(a);
}

/* n times 'a' around the block and padding boundaries (digests computed
 * with an independent implementation) */
static void test_boundaries(void **state)
{
	static const struct {
		size_t n;
		const char *hex;
	} v[] = {
		{55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e91"
		     "0f734318"},
		{56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef797068"
		     "6ec6738a"},
		{63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da45"
		     "7ddc2f34"},
		{64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df"
		     "154668eb"},
		{65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f"
		     "17eb0ae0"},
		{119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7e"
		      "a6584dcfb"},
		{120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55"
		      "af904c21c"},
		{128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e"
		      "013afb73e"},
	};
	char a[128], hex[SHA256_HEX];
	size_t i, c;

	(void)state;
	memset(a, 'a', sizeof(a));
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		sha256_hex(a, v[i].n, hex);
		if (strcmp(hex, v[i].hex))
			fail_msg("%zu x 'a': %s", v[i].n, hex);
		for (c = 1; c <= v[i].n; c++) {
			digest_chunked((const uint8_t *)a, v[i].n, c, hex);
			if (strcmp(hex, v[i].hex))
				fail_msg("%zu x 'a' by %zu: %s", v[i].n, c,
					 hex);
		}
	}
}

/* random data, random lengths, random splits: chunked == one-shot */
static void test_random_splits(void **state)
{
	enum { MAX = 5000 };
	uint8_t *buf = malloc(MAX);
	char one[SHA256_HEX], inc[SHA256_HEX], prev[SHA256_HEX] = "";
	size_t i, len;
	int round;

	(void)state;
	assert_non_null(buf);
	for (i = 0; i < MAX; i++)
		buf[i] = (uint8_t)rng_next();
	for (round = 0; round < 300; round++) {
		len = rng_next() % (MAX + 1);
		sha256_hex(buf, len, one);
		digest_chunked(buf, len, 0, inc);
		if (strcmp(one, inc))
			fail_msg("len %zu round %d: %s != %s", len, round, one,
				 inc);
		assert_string_not_equal(one, prev);
		memcpy(prev, one, sizeof(prev));
	}
	/* a single flipped bit changes the digest */
	sha256_hex(buf, MAX, one);
	buf[MAX / 2] ^= 1;
	sha256_hex(buf, MAX, inc);
	assert_string_not_equal(one, inc);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fips_vectors),
		cmocka_unit_test(test_empty_update),
		cmocka_unit_test(test_million_a),
		cmocka_unit_test(test_boundaries),
		cmocka_unit_test(test_random_splits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
