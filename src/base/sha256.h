/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sha256.h - SHA-256 (FIPS 180-4), written from the standard, so that a
 * result can name the exact loadfiles it ran by their digest without a
 * crypto library.  Incremental (init / update / final) and one-shot hex.
 */
#ifndef DBNG_SHA256_H
#define DBNG_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_BLOCK  64 /* bytes per compressed block */
#define SHA256_DIGEST 32 /* bytes of digest */
#define SHA256_HEX    65 /* 64 lowercase hex digits and a NUL */

struct sha256 {
	uint32_t h[8];		   /* the intermediate hash value */
	uint64_t len;		   /* bytes hashed so far */
	uint8_t buf[SHA256_BLOCK]; /* a partial block */
	unsigned int nbuf;	   /* bytes in buf, < SHA256_BLOCK */
};

/* sha256_init - start a new digest in @s. */
void sha256_init(struct sha256 *s);

/* sha256_update - hash @len more bytes at @data (any length, any split:
 * the digest does not depend on how the message is cut into calls). */
void sha256_update(struct sha256 *s, const void *data, size_t len);

/* sha256_final - pad, and store the 32-byte digest in @out.  @s is used up:
 * sha256_init() it again before hashing another message. */
void sha256_final(struct sha256 *s, uint8_t out[SHA256_DIGEST]);

/* sha256_hex - the digest of @len bytes at @data as 64 lowercase hex
 * digits and a NUL in @out. */
void sha256_hex(const void *data, size_t len, char out[SHA256_HEX]);

/* sha256_to_hex - format a 32-byte @digest as 64 lowercase hex digits and
 * a NUL in @out (for digests built with init / update / final). */
void sha256_to_hex(const uint8_t digest[SHA256_DIGEST], char out[SHA256_HEX]);

#endif
